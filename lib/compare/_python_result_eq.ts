/**
 * test-suite-sql-eval's `result_eq` (exec_eval.py), value for value: two
 * results are equal when some permutation of the predicted columns makes
 * the rows equal as a bag (as a list when the gold has ORDER BY), under
 * Python's `==`. Before that, its quick rejection compares each row's
 * values sorted by `str(x) + str(type(x))`, which can tell apart rows whose
 * INTEGER and REAL values sort differently: kept, as the verdicts depend on it.
 *
 * @module
 */
import { compareCodePoints, pyKey, pyRowKey, pyStrWithType } from "./_python_values.ts";
import type { StoredRows, StoredValue } from "./stored.ts";
import { sameMultiset } from "./_multiset.ts";

function unorderRow(row: readonly StoredValue[]): string {
  const keyed = row.map((v) => [pyStrWithType(v), v] as const);
  keyed.sort((a, b) => compareCodePoints(a[0], b[0]));
  return pyRowKey(keyed.map(([, v]) => v));
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  if (x.size !== y.size) return false;
  for (const k of x) if (!y.has(k)) return false;
  return true;
}

/** Why two results are not equal, or null when they are. */
export type Mismatch =
  | "row count"
  | "column count"
  | "values"
  | "row order";

/**
 * test-suite-sql-eval's `result_eq(gold, predicted, order_matters)`.
 *
 * @param gold the gold query's rows
 * @param predicted the predicted query's rows
 * @param orderMatters the gold has ORDER BY
 * @returns null when equal, else what differs
 */
export function spiderResultEq(
  gold: StoredRows,
  predicted: StoredRows,
  orderMatters: boolean,
): Mismatch | null {
  const g = gold.rows;
  const p = predicted.rows;
  if (g.length === 0 && p.length === 0) return null;
  if (g.length !== p.length) return "row count";
  const cols = g[0]!.length;
  if (p[0]!.length !== cols) return "column count";
  const s1 = g.map(unorderRow);
  const s2 = p.map(unorderRow);
  if (orderMatters ? !s1.every((k, i) => k === s2[i]) : !sameSet(s1, s2)) {
    // Unordered the bags agree, so only the order can differ.
    return orderMatters && sameSet(s1, s2) && sameMultiset(s1, s2) ? "row order" : "values";
  }
  const goldKeys = g.map((row) => row.map(pyKey));
  const predKeys = p.map((row) => row.map(pyKey));
  const columnSets = Array.from({ length: cols }, (_, c) => new Set(goldKeys.map((r) => r[c]!)));
  // The pairs a permutation may use: every predicted value of the column
  // occurs in the gold column (exec_eval.py prunes by 20 sampled rows, which
  // keeps every permutation that can succeed; so does this).
  const allowed = columnSets.map((set) =>
    Array.from({ length: cols }, (_, j) => j).filter((j) => predKeys.every((r) => set.has(r[j]!)))
  );
  const goldRows = goldKeys.map((r) => JSON.stringify(r));
  const perm: number[] = [];
  const used = new Set<number>();
  let orderOnly = false;
  const tryPerm = (): boolean => {
    const rows = predKeys.map((r) => JSON.stringify(perm.map((j) => r[j]!)));
    if (orderMatters) {
      if (rows.every((k, i) => k === goldRows[i])) return true;
      if (sameMultiset(goldRows, rows)) orderOnly = true;
      return false;
    }
    return sameSet(goldRows, rows) && sameMultiset(goldRows, rows);
  };
  const search = (c: number): boolean => {
    if (c === cols) return tryPerm();
    for (const j of allowed[c]!) {
      if (used.has(j)) continue;
      used.add(j);
      perm.push(j);
      if (search(c + 1)) return true;
      perm.pop();
      used.delete(j);
    }
    return false;
  };
  if (search(0)) return null;
  return orderOnly ? "row order" : "values";
}
