/**
 * Reading rows out of the comparison queries: a result row into an object,
 * and a statement run once per rowid range.
 *
 * @module
 */
import { collectGarbage } from "../sqlite/_collect_garbage.ts";
import type { SqliteRow } from "../sqlite/value.ts";
import { emptyRow } from "../sqlite/value.ts";
import type { RowSource } from "./_wide_select.ts";
import type { RowidRange } from "./table_data.ts";

/** The values of `names`, read from `stmt`'s columns from `offset` on. */
export function objectOf(stmt: RowSource, names: readonly string[], offset: number): SqliteRow {
  const out = emptyRow();
  for (let i = 0; i < names.length; i++) out[names[i]!] = stmt.value(offset + i);
  return out;
}

/** The columns `names` of `row`. */
export function pick(row: SqliteRow, names: readonly string[]): SqliteRow {
  const out = emptyRow();
  for (const n of names) out[n] = row[n] ?? null;
  return out;
}

/** How many range queries run between two collections under Bun (see _collect_garbage.ts). */
const GC_EVERY_RANGES = 20_000;

/** Runs `stmt` once per range (or once without ranges), calling `each` per row. */
export function forRanges(
  stmt: RowSource,
  ranges: Iterable<RowidRange> | null,
  each: () => void,
): void {
  try {
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
