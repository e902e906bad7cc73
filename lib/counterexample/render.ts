/**
 * Showing a counterexample: the SQL script that builds it from nothing, and
 * how it differs from the given database in the words of `db diff` (rows
 * added, removed, changed).
 *
 * @module
 */
import type { Database } from "../sqlite/database.ts";
import { sameValue, type SqliteRow, type SqliteValue } from "../sqlite/value.ts";
import type { Candidate } from "./candidate.ts";
import type { SearchColumn, SearchSchema, SearchTable } from "./schema.ts";
import { ident, sqlLiteral } from "../sqlite/sql_text.ts";

/**
 * The script that builds a candidate in an empty database: foreign keys on
 * (off, with a comment that says why, when the schema has one SQLite
 * cannot enforce), the `CREATE TABLE` (and index and view) statements
 * verbatim, one INSERT per row.
 *
 * @param schema the tables and views
 * @param database the rows
 * @returns the script, one statement per line
 */
export function databaseScript(schema: SearchSchema, database: Candidate): string {
  const lines = schema.foreignKeyMismatch === undefined ? ["PRAGMA foreign_keys = ON;"] : [
    `-- foreign keys off: ${schema.foreignKeyMismatch} refers to neither a primary key nor a UNIQUE key, which SQLite cannot enforce`,
    "PRAGMA foreign_keys = OFF;",
  ];
  for (const t of schema.tables) {
    lines.push(`${t.createSql};`);
    for (const ix of t.indexSql) lines.push(`${ix};`);
  }
  for (const v of schema.viewSql) lines.push(`${v};`);
  for (const t of schema.tables) {
    const columns = t.columns.map((c) => ident(c.name)).join(", ");
    for (const row of database.get(t.name) ?? []) {
      lines.push(
        `INSERT INTO ${ident(t.name)} (${columns}) VALUES (${
          row.map((v) => sqlLiteral(v)).join(", ")
        });`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

/** How one table of a counterexample differs from the given database. */
export interface TableChange {
  readonly table: string;
  /** Rows in the counterexample. */
  readonly rows: number;
  /** Rows also in the given database, the same. */
  readonly same: number;
  /** Rows whose key is in the given database with other values. */
  readonly changed: number;
  /** Rows not in the given database. */
  readonly added: number;
  /** Rows of the given database not in the counterexample. */
  readonly removed: number;
}

/**
 * The columns that find a counterexample's row in the given database: the
 * primary key, or every column of a table without one.
 *
 * @param table the table
 * @returns each column with its position
 */
export function keyColumns(
  table: SearchTable,
): { readonly c: SearchColumn; readonly i: number }[] {
  const all = table.columns.map((c, i) => ({ c, i }));
  const pk = all.filter(({ c }) => c.pk > 0);
  return pk.length > 0 ? pk : all;
}

/**
 * One table's change from the counted rows.
 *
 * @param table the table's name
 * @param rows the counterexample's rows of it
 * @param same how many of them the given database has with the same values
 * @param changed how many it has under their key with other values
 * @param total the given database's rows of the table
 * @returns the change
 */
export function tableChange(
  table: string,
  rows: number,
  same: number,
  changed: number,
  total: number,
): TableChange {
  return {
    table,
    rows,
    same,
    changed,
    added: rows - same - changed,
    removed: Math.max(0, total - same - changed),
  };
}

/**
 * Compares a counterexample with the given database, table by table: a row
 * is the same, changed (its primary key is there with other values) or added;
 * the given database's other rows are removed.
 *
 * @param db the given database, open read-only
 * @param schema the tables
 * @param database the counterexample
 * @returns one entry per table of the schema
 */
export function changesFromGiven(
  db: Database,
  schema: SearchSchema,
  database: Candidate,
): TableChange[] {
  return schema.tables.map((t) => {
    const rows = database.get(t.name) ?? [];
    const keyed = keyColumns(t);
    const cols = t.columns.map((c) => ident(c.name)).join(", ");
    const stmt = db.prepare(
      `SELECT ${cols} FROM ${ident(t.name)} WHERE ${
        keyed.map(({ c }) => `${ident(c.name)} IS ?`).join(" AND ")
      } LIMIT 1`,
    );
    let same = 0;
    let changed = 0;
    try {
      for (const row of rows) {
        stmt.bind(keyed.map(({ i }) => row[i] ?? null));
        if (!stmt.step()) continue;
        const found: SqliteValue[] = stmt.row();
        if (found.every((v, i) => sameValue(v, row[i] ?? null))) same++;
        else changed++;
      }
    } finally {
      stmt.finalize();
    }
    const total = Number(
      (db.query(`SELECT count(*) AS n FROM ${ident(t.name)}`)[0]?.["n"] ?? 0) as number,
    );
    return tableChange(t.name, rows.length, same, changed, total);
  });
}

/**
 * One line per table, e.g. `Invoice: 2 row(s): 1 added, 1 changed, 411 removed`.
 *
 * @param changes from {@link changesFromGiven}
 * @returns the lines
 */
export function changesText(changes: readonly TableChange[]): string[] {
  return changes.map((c) => {
    const parts = [
      c.same > 0 ? `${c.same} as in the given database` : "",
      c.changed > 0 ? `${c.changed} changed` : "",
      c.added > 0 ? `${c.added} added` : "",
      c.removed > 0 ? `${c.removed} removed` : "",
    ].filter((p) => p !== "");
    return `${c.table}: ${c.rows} row(s)${parts.length > 0 ? `: ${parts.join(", ")}` : ""}`;
  });
}

/**
 * Rows as JSON-safe objects for people to read (the `counterexample` text
 * output): integers beyond 2^53 as text, BLOBs as `x'00ff'` text. Files
 * keep the values themselves (lib/sqlite/value_json.ts).
 *
 * @param rows the rows
 * @returns plain objects
 */
export function rowsAsJson(rows: readonly SqliteRow[]): Record<string, unknown>[] {
  return rows.map((row) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, jsonValue(v)]))
  );
}

function jsonValue(v: SqliteValue): unknown {
  if (typeof v === "bigint") {
    return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  }
  if (v instanceof Uint8Array) return sqlLiteral(v);
  if (typeof v === "number" && !Number.isFinite(v)) return String(v);
  return v;
}
