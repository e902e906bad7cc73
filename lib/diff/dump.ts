/**
 * A database as stable, line-oriented SQL text, so that a line diff of two
 * dumps is a row diff: `dbagenteval db dump`, the textconv of git's diff
 * driver (docs/how-to/diff-databases-in-git.md).
 *
 * Tables come in name order, each as its `CREATE` statement on one line
 * followed by its rows, one indented `INSERT` a row, in the order the diff
 * pairs them: by the table's key (the rowid, the primary key), or for a
 * table without a key by all its columns, so that a row's line does not
 * move when other rows change. Then the table's indexes and triggers, and
 * at the end the views, each on one line. Values are written exactly (text with
 * a newline in `char(10)` pieces, so that a row is always one line). Statements start at the line's first
 * column and rows after two spaces, so that git's hunk headers name the
 * table a changed row is in.
 *
 * ```
 * CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);
 *   INSERT INTO users VALUES(1,'alice');
 *   INSERT INTO users VALUES(2,'bob');
 * CREATE INDEX users_name ON users(name);
 * ```
 *
 * @module
 */
import { openDatabase } from "../sqlite/database.ts";
import { headerEncoding } from "../sqlite/file_check.ts";
import { ident, sqlLiteral } from "../sqlite/sql_text.ts";
import type { SqliteValue } from "../sqlite/value.ts";
import { dataColumns, normalizeSql, readSchema, type TableSchema } from "./schema.ts";

/** Where the dump's text goes. */
export interface DumpSink {
  write(text: string): void;
}

/**
 * Writes a SQLite file as line-oriented SQL text: tables in name order,
 * each `CREATE` statement on one line and its rows as indented `INSERT`
 * lines in key order. Rows stream: memory stays flat however big the file.
 *
 * @param path the database file (read-only, never changed)
 * @param sink receives the text, in pieces of whole lines
 * @example
 * ```ts
 * import { dumpSqlite } from "./dump.ts";
 * let text = "";
 * await dumpSqlite("examples/db_agent/users.db", { write: (t) => void (text += t) });
 * text.split("\n")[0]!.startsWith("CREATE TABLE"); // true
 * ```
 */
export async function dumpSqlite(path: string, sink: DumpSink): Promise<void> {
  const encoding = headerEncoding(path);
  const db = await openDatabase(path);
  try {
    if (encoding !== "UTF-8") sink.write(`PRAGMA encoding = '${encoding}';\n`);
    const side = readSchema(db, "main");
    for (const table of side.tables.values()) {
      sink.write(`${normalizeSql(table.sql) ?? ""};\n`);
      if (table.module === null) dumpRows(db, table, sink);
      for (const o of side.objects) {
        if (o.type !== "view" && o.table === table.name) sink.write(`${normalizeSql(o.sql)};\n`);
      }
    }
    for (const o of side.objects) {
      if (o.type === "view") sink.write(`${normalizeSql(o.sql)};\n`);
    }
  } finally {
    db.close();
  }
}

type Db = Awaited<ReturnType<typeof openDatabase>>;

function dumpRows(db: Db, table: TableSchema, sink: DumpSink): void {
  const columns = dataColumns(table);
  if (columns.length === 0) return;
  const order = table.keyKind === "none"
    ? columns.map((_, i) => String(i + 1))
    : table.key.map(ident);
  const stmt = db.prepare(
    `SELECT ${columns.map(ident).join(", ")} FROM main.${ident(table.name)} ORDER BY ${
      order.join(", ")
    }`,
  );
  const head = `  INSERT INTO ${ident(table.name)} VALUES(`;
  try {
    while (stmt.step()) {
      let line = head;
      for (let i = 0; i < columns.length; i++) {
        if (i > 0) line += ",";
        line += oneLineLiteral(stmt.value(i), stmt.storageClass(i) === "real");
      }
      sink.write(`${line});\n`);
    }
  } finally {
    stmt.finalize();
  }
}

/**
 * {@link sqlLiteral}, text exactly (NUL and CR as `char(..)`) and with
 * newlines as `char(10)`, so a row stays one line; a REAL as its shortest
 * decimal that reads back as it (9.5, not its bits: this text is read by
 * people, and every SQLite since 3.29 parses a decimal to the nearest double).
 */
function oneLineLiteral(v: SqliteValue, real = false): string {
  if (typeof v !== "string") return sqlLiteral(v, { real });
  if (!v.includes("\n")) return sqlLiteral(v, { exact: true });
  const parts: string[] = [];
  const pieces = v.split("\n");
  pieces.forEach((piece, i) => {
    if (piece !== "") parts.push(sqlLiteral(piece, { exact: true }));
    if (i < pieces.length - 1) parts.push("char(10)");
  });
  return parts.join("||");
}
