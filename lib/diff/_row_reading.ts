/**
 * Reading rows out of the comparison queries: a result row into an object,
 * and a statement run once per rowid range.
 *
 * @module
 */
import { collectGarbage } from "../sqlite/collect_garbage.ts";
import type { SqliteRow, SqliteValue } from "../sqlite/value.ts";
import { emptyRow } from "../sqlite/value.ts";
import { ident } from "../sqlite/sql_text.ts";
import type { Database } from "../sqlite/database.ts";
import type { RowSource } from "./_wide_select.ts";
import type { RowidRange } from "./table_data.ts";
import { RowidRanges } from "./_rowid_ranges.ts";

/** The values of `names`, read from `stmt`'s columns from `offset` on. */
export function objectOf(stmt: RowSource, names: readonly string[], offset: number): SqliteRow {
  const out = emptyRow();
  for (let i = 0; i < names.length; i++) out[names[i]!] = stmt.value(offset + i);
  return out;
}

/** The values of `n` of `stmt`'s columns from `offset` on. */
export function valuesOf(stmt: RowSource, n: number, offset: number): SqliteValue[] {
  const out = new Array<SqliteValue>(n);
  for (let i = 0; i < n; i++) out[i] = stmt.value(offset + i);
  return out;
}

/** The row of `names` holding `values` (in the same order). */
export function rowOf(names: readonly string[], values: readonly SqliteValue[]): SqliteRow {
  const out = emptyRow();
  for (let i = 0; i < names.length; i++) out[names[i]!] = values[i]!;
  return out;
}

/** The columns `names` of `row`. */
export function pick(row: SqliteRow, names: readonly string[]): SqliteRow {
  const out = emptyRow();
  for (const n of names) out[n] = row[n] ?? null;
  return out;
}

/** How many range queries run between two collections under Bun (see collect_garbage.ts). */
const GC_EVERY_RANGES = 20_000;

/** Runs `stmt` once per range (or once without ranges), calling `each` per row. */
export function forRanges(
  stmt: RowSource,
  ranges: Iterable<RowidRange> | null,
  each: () => void,
): void {
  try {
    if (ranges instanceof RowidRanges) {
      // By index into the doubles, one parameter array for all: nothing
      // allocated per range (a 20M-row table's residue has 200k of them).
      const bounds: SqliteValue[] = [0, 0];
      for (let i = 0; i < ranges.length; i++) {
        bounds[0] = ranges.lo(i);
        bounds[1] = ranges.hi(i);
        stmt.bind(bounds);
        while (stmt.step()) each();
        if ((i + 1) % GC_EVERY_RANGES === 0) collectGarbage();
      }
      return;
    }
    let done = 0;
    for (const r of ranges ?? [null]) {
      if (r !== null) stmt.bind([r[0], r[1]]);
      while (stmt.step()) each();
      if (++done % GC_EVERY_RANGES === 0) collectGarbage();
    }
  } finally {
    stmt.finalize();
  }
}

/**
 * Fills the temporary table `table` (`lo INTEGER PRIMARY KEY, hi INTEGER`)
 * with `ranges`, so that one query can join a table to its rowid ranges
 * (`FROM table AS R CROSS JOIN t ON t.rowid BETWEEN R.lo AND R.hi`).
 *
 * @param db the connection
 * @param table the temporary table, `temp.` and a name
 * @param ranges the rowid ranges
 */
export function fillRanges(db: Database, table: string, ranges: Iterable<RowidRange>): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${table}(lo INTEGER PRIMARY KEY, hi INTEGER)`);
  db.exec(`DELETE FROM ${table}`);
  const ins = db.prepare(`INSERT INTO ${table} VALUES (?, ?)`);
  try {
    for (const [lo, hi] of ranges) {
      ins.bind([lo, hi]);
      ins.step();
    }
  } finally {
    ins.finalize();
  }
}

/**
 * `FROM` text of table `t` (aliased `alias`) restricted to the rowid ranges
 * in temporary table `ranges` (see {@link fillRanges}).
 */
export function inRanges(ranges: string, t: string, alias: string, rowid: string): string {
  return `${ranges} AS R${alias} CROSS JOIN ${t} AS ${alias} ON ${alias}.${
    ident(rowid)
  } BETWEEN R${alias}.lo AND R${alias}.hi`;
}
