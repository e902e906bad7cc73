/**
 * Subsets of the given rows, then changed the way near-miss queries are
 * caught: a row duplicated, a nullable value set to NULL, a value set to one
 * of the queries' constants or its neighbour, a value copied from another
 * row (ties), text in another case.
 *
 * @module
 */
import type { SqliteValue } from "../../sqlite/value.ts";
import type { CandidateRow } from "../candidate.ts";
import type { ColumnPool } from "../pools.ts";
import type { SearchTable } from "../schema.ts";
import { hasGivenRows, withParents } from "./_closure.ts";
import { subsetRows } from "./real_subset.ts";
import type { Strategy, StrategyContext } from "./strategy.ts";

/** A fresh value for a key column, so a copied row is not refused as a duplicate key. */
function freshKey(rows: readonly CandidateRow[], i: number, value: SqliteValue): SqliteValue {
  if (typeof value === "number") {
    let max = value;
    for (const r of rows) {
      const v = r[i];
      if (typeof v === "number" && v > max) max = v;
    }
    return Math.floor(max) + 1 + rows.length;
  }
  if (typeof value === "string") return `${value}~${rows.length}`;
  return value;
}

function mutate(
  table: SearchTable,
  rows: CandidateRow[],
  pools: readonly ColumnPool[],
  context: StrategyContext,
): void {
  const { random } = context;
  if (rows.length === 0) return;
  const at = random.int(0, rows.length - 1);
  const row = [...rows[at]!];
  const mentioned = pools.map((p, i) => ({ p, i })).filter(({ p }) => p.mentioned);
  const target = mentioned.length > 0 && random.chance(0.9)
    ? random.pick(mentioned)
    : { p: pools[random.int(0, pools.length - 1)]!, i: -1 };
  const i = target.i >= 0 ? target.i : pools.indexOf(target.p);
  const kind = random.int(0, 5);
  if (kind === 0) {
    // The row again under new key values (a repeat); now and then under
    // another parent row too (the same values for a second tenant).
    const unique = new Set(table.uniqueSets.flat());
    const copy = row.map((v, c) => unique.has(table.columns[c]!.name) ? freshKey(rows, c, v) : v);
    if (table.foreignKeys.length > 0 && random.chance(0.5)) {
      const fk = random.pick(table.foreignKeys);
      const parent = context.schema.tables.find((t) =>
        t.name.toLowerCase() === fk.parent.toLowerCase()
      );
      const sample = parent === undefined ? [] : context.real.sample(parent.name);
      const parentColumns = parent === undefined
        ? []
        : fk.parentColumns.length > 0
        ? fk.parentColumns
        : parent.columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
      if (parent !== undefined && sample.length > 0) {
        const other = random.pick(sample);
        fk.columns.forEach((name, k) => {
          const x = table.columns.findIndex((c) => c.name === name);
          const pi = parent.columns.findIndex((c) => c.name === parentColumns[k]);
          if (x >= 0 && pi >= 0) copy[x] = other[pi] ?? null;
        });
      }
    }
    rows.push(copy);
    return;
  }
  if (kind === 1 && !target.p.column.notNull) row[i] = null;
  else if (kind === 2 || kind === 1) {
    const from = target.p.exact.length > 0 && random.chance(0.4)
      ? target.p.exact
      : target.p.boundary;
    if (from.length > 0) row[i] = random.pick(from);
  } else if (kind === 3 && rows.length > 1) {
    row[i] = rows[random.int(0, rows.length - 1)]![i] ?? null;
  } else if (kind === 4 && typeof row[i] === "string") {
    const s = row[i] as string;
    row[i] = random.pick([s.toLowerCase(), s.toUpperCase(), `${s} `]);
  } else if (target.p.real.length > 0) {
    row[i] = random.pick(target.p.real);
  }
  rows[at] = row;
}

/** Real rows, changed a little. */
export const mutatedSubset: Strategy = {
  name: "mutated_subset",
  usable: hasGivenRows,
  weight: 3,
  generate(context: StrategyContext) {
    const { random } = context;
    const rows = subsetRows(context, random.pick([1, 2, 3, 4, 6]));
    const tables = context.schema.tables.filter((t) => rows.has(t.name));
    if (tables.length > 0) {
      const changes = random.int(1, 3);
      for (let k = 0; k < changes; k++) {
        const t = random.pick(tables);
        mutate(t, rows.get(t.name)!, context.pools.get(t.name)!, context);
      }
    }
    return withParents(rows, context);
  },
};
