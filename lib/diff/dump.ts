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
import { type Database, openDatabase, openScratchDatabase } from "../sqlite/database.ts";
import { headerEncoding } from "../sqlite/file_check.ts";
import { ident, sqlLiteral } from "../sqlite/sql_text.ts";
import type { SqliteValue } from "../sqlite/value.ts";
import { openPageSide } from "./_page_sides.ts";
import { foldSurrogates, utf16SchemaError, Utf8Copy } from "./_utf8_copy.ts";
import {
  dataColumns,
  normalizeSql,
  readSchema,
  type SideSchema,
  type TableSchema,
} from "./schema.ts";

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
  const utf16 = encoding === "UTF-16le" ? "le" : encoding === "UTF-16be" ? "be" : undefined;
  let db: Database;
  let side: SideSchema;
  if (utf16 === undefined) {
    db = await openDatabase(path);
    side = readSchema(db, "main");
  } else {
    // SQLite cannot read UTF-16 here: the schema from the pages, the rows
    // from a UTF-8 copy (as db diff reads such a file).
    const pages = openPageSide(path, null, false);
    try {
      if (pages.schema === null) throw utf16SchemaError(pages);
      side = pages.schema;
      db = await openScratchDatabase();
      try {
        await new Utf8Copy(db, "main", pages).fillAll();
      } catch (e) {
        db.close();
        throw e;
      }
    } finally {
      pages.src.close();
    }
  }
  try {
    if (utf16 !== undefined) sink.write(`PRAGMA encoding = '${encoding}';\n`);
    for (const table of side.tables.values()) {
      sink.write(`${normalizeSql(table.sql) ?? ""};\n`);
      if (table.module === null) dumpRows(db, table, sink, utf16);
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

function dumpRows(db: Database, table: TableSchema, sink: DumpSink, utf16?: "le" | "be"): void {
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
        const v = utf16 === undefined ? stmt.value(i) : foldSurrogates(stmt.value(i));
        line += oneLineLiteral(v, stmt.storageClass(i) === "real", utf16);
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
function oneLineLiteral(v: SqliteValue, real: boolean, utf16: "le" | "be" | undefined): string {
  if (typeof v !== "string") return sqlLiteral(v, { real });
  const text = utf16 === undefined ? { exact: true } : { exact: true, utf16 };
  if (!v.includes("\n")) return sqlLiteral(v, text);
  const parts: string[] = [];
  const pieces = v.split("\n");
  pieces.forEach((piece, i) => {
    if (piece !== "") parts.push(sqlLiteral(piece, text));
    if (i < pieces.length - 1) parts.push("char(10)");
  });
  return parts.join("||");
}
