/**
 * Helpers for the diff engine's tests: build two real SQLite files from SQL
 * and diff them.
 *
 * @module
 */
import { makeDb, type MakeDbOptions, tempDir } from "../../tests/fixtures.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import type { DiffOptions } from "./options.ts";
import type { DatabaseChange, TableDiff } from "./types.ts";

let counter = 0;

/** Diffs two files built from `before` and `after` SQL (null: no file). */
export async function diffSql(
  before: string | null,
  after: string | null,
  options: DiffOptions & { journal?: MakeDbOptions["journal"] } = {},
): Promise<DatabaseChange> {
  const dir = tempDir();
  try {
    const n = ++counter;
    const journal = options.journal === undefined ? {} : { journal: options.journal };
    const a = before === null ? null : makeDb(dir.file(`before${n}.db`), before, journal);
    const b = after === null ? null : makeDb(dir.file(`after${n}.db`), after, journal);
    const diff = await diffSqliteDatabases(a, b, options);
    const db = diff.databases[0];
    if (db === undefined) throw new Error("no database in the diff");
    // Rows have no prototype (see emptyRow); a clone makes them plain
    // objects that deepStrictEqual compares with literals.
    return structuredClone(db);
  } finally {
    dir.cleanup();
  }
}

/** The table called `name` in a database change. */
export function table(db: DatabaseChange, name: string): TableDiff {
  const t = db.tables.find((x) => x.name === name);
  if (t === undefined) throw new Error(`no table ${name} in the diff`);
  return t;
}

/** A table's row changes in a compact, comparable form. */
export function rowSummary(t: TableDiff): {
  added: unknown[];
  removed: unknown[];
  changed: unknown[];
} {
  return {
    added: t.rows.added.map((r) => r.row),
    removed: t.rows.removed.map((r) => r.row),
    changed: t.rows.changed.map((r) => ({
      key: r.key,
      before: r.before,
      after: r.after,
      changed_columns: r.changed_columns,
    })),
  };
}
