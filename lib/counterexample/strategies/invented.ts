/**
 * Small databases made up from the schema: a handful of rows per table whose
 * values come from the columns' pools (the given database's values, the
 * queries' constants and their neighbours, NULL where allowed), whose
 * foreign keys point at rows made for the parent tables, with repeated rows
 * now and then. Duplicates, NULLs, boundaries and unmatched join rows come
 * from here.
 *
 * @module
 */
import type { SqliteValue } from "../../sqlite/value.ts";
import type { CandidateRow } from "../candidate.ts";
import { type ColumnPool, plainValue } from "../pools.ts";
import type { Random } from "../random.ts";
import type { Strategy, StrategyContext } from "./strategy.ts";

function pickValue(pool: ColumnPool, random: Random, row: number): SqliteValue {
  const nullable = !pool.column.notNull && pool.column.pk === 0;
  const roll = random.next();
  if (pool.mentioned) {
    if (nullable && roll < 0.12) return null;
    if (pool.exact.length > 0 && roll < 0.35) return random.pick(pool.exact);
    if (pool.boundary.length > 0 && roll < 0.6) return random.pick(pool.boundary);
  } else if (nullable && roll < 0.04) return null;
  if (pool.real.length > 0) return random.pick(pool.real);
  if (pool.boundary.length > 0) return random.pick(pool.boundary);
  return plainValue(pool.column.affinity, random.int(0, 2) + row);
}

/** Invented rows. */
export const invented: Strategy = {
  name: "invented",
  weight: 3,
  generate(context: StrategyContext) {
    const { random } = context;
    const rows = new Map<string, CandidateRow[]>();
    const most = random.pick([1, 2, 3, 4, 6]);
    for (const t of context.schema.tables) {
      const pools = context.pools.get(t.name)!;
      // Tables the queries do not read are there for foreign keys: a row or two.
      const n = context.schema.read.has(t.name)
        ? random.int(t.foreignKeys.length > 0 ? 0 : 1, most)
        : random.int(1, 2);
      const own: CandidateRow[] = [];
      for (let r = 0; r < n; r++) {
        if (own.length > 0 && random.chance(0.2)) {
          // a repeat of an earlier row, its rowid alias aside
          const copy = [...random.pick(own)];
          const alias = t.columns.findIndex((c) => c.name === t.rowidAlias);
          if (alias >= 0) copy[alias] = r + 1;
          own.push(copy);
          continue;
        }
        const row = pools.map((p) =>
          p.column.name === t.rowidAlias && random.chance(0.85) ? r + 1 : pickValue(p, random, r)
        );
        for (const fk of t.foreignKeys) {
          const parent = context.schema.tables.find((p) =>
            p.name.toLowerCase() === fk.parent.toLowerCase()
          );
          // A table that refers to itself (an employee's manager) points at its own earlier rows.
          const parentRows = parent === undefined
            ? []
            : parent === t
            ? own
            : rows.get(parent.name) ?? [];
          const indexes = fk.columns.map((c) => t.columns.findIndex((col) => col.name === c));
          const nullable = indexes.every((x) => x >= 0 && !t.columns[x]!.notNull);
          if (parent === undefined || (nullable && random.chance(0.15))) {
            if (nullable) { for (const x of indexes) row[x] = null; }
            continue;
          }
          if (parentRows.length === 0) {
            // No parent row to point at: NULL keeps the row, where allowed.
            if (nullable) { for (const x of indexes) row[x] = null; }
            continue;
          }
          const parentColumns = fk.parentColumns.length > 0 ? fk.parentColumns : parent.columns
            .filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
          const pr = random.pick(parentRows);
          indexes.forEach((x, k) => {
            const pi = parent.columns.findIndex((c) => c.name === parentColumns[k]);
            if (x >= 0 && pi >= 0) row[x] = pr[pi] ?? null;
          });
        }
        own.push(row);
      }
      if (own.length > 0) rows.set(t.name, own);
    }
    return rows;
  },
};
