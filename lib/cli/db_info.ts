/**
 * `dbagenteval db info PATH`.
 *
 * @module
 */
import process from "node:process";
import { databaseInfo } from "../sqlite_format/info.ts";
import { walWarning } from "../sqlite/wal_frames.ts";
import { type DatabaseSchema, readDatabaseSchema } from "../diff/schema_info.ts";

/**
 * Prints a SQLite file's summary.
 *
 * @param path the database file
 * @param options `json`: print the summary as JSON
 * @returns the exit code
 */
export async function dbInfoCommand(
  path: string,
  options: { json?: true; schema?: true },
): Promise<number> {
  const info = await databaseInfo(path);
  // SQLite skips a damaged -wal's later commits without a word: say so.
  const warning = walWarning(path);
  if (warning !== undefined) process.stderr.write(`${warning}\n`);
  const schema = options.schema ? await readDatabaseSchema(path) : null;
  if (options.json) {
    const out = schema === null ? info : { ...info, schema };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  const lines = [
    info.sizeBytes === 0
      ? `${info.path}: 0 bytes, an empty database (no pages yet; SQLite reads it as a database with no tables)`
      : `${info.path}: ${info.sizeBytes} bytes, ${info.pageCount} pages of ${info.pageSize} bytes`,
    `encoding ${info.encoding}, journal mode ${info.journalMode}`,
    `${info.tables.length} table(s):`,
  ];
  const width = Math.max(0, ...info.tables.map((t) => t.name.length));
  for (const t of info.tables) {
    const count = t.rows === null ? `(${t.type}, not counted)` : `${t.rows} row(s)`;
    lines.push(`  ${t.name.padEnd(width)}  ${count}`);
  }
  if (schema !== null) lines.push(...schemaLines(schema));
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

/** The schema as text: per table its key, columns, indexes and triggers; then views. */
function schemaLines(schema: DatabaseSchema): string[] {
  const out: string[] = [];
  for (const t of schema.tables) {
    const kind = t.module !== null
      ? `virtual table USING ${t.module}`
      : t.without_rowid
      ? "WITHOUT ROWID table"
      : "table";
    const key = t.key_kind === "none"
      ? "no key: rows compared as a multiset"
      : `key (${t.key.join(", ")})${t.key_kind === "rowid" ? ", the rowid" : ""}`;
    out.push("", `${t.name}: ${kind}, ${key}`);
    for (const c of t.columns) {
      if (c.hidden === 1) continue;
      const parts = [c.name, c.type];
      if (c.primary_key > 0) {
        parts.push(`PRIMARY KEY${t.key.length > 1 ? ` #${c.primary_key}` : ""}`);
      }
      if (c.not_null) parts.push("NOT NULL");
      if (c.default !== null) parts.push(`DEFAULT ${c.default}`);
      if (c.hidden === 2 || c.hidden === 3) {
        parts.push(`GENERATED ${c.hidden === 2 ? "VIRTUAL" : "STORED"}`);
      }
      out.push(`  ${parts.filter((p) => p !== "").join(" ")}`);
    }
    for (const i of t.indexes) out.push(`  index ${i.name}: ${i.sql}`);
    for (const i of t.triggers) out.push(`  trigger ${i.name}: ${i.sql}`);
  }
  if (schema.views.length > 0) {
    out.push("", "views:");
    for (const v of schema.views) out.push(`  ${v.name}: ${v.sql}`);
  }
  return out;
}
