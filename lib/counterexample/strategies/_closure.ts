/**
 * Adds to a candidate the parent rows its foreign keys point at, taken from
 * the given database, so rows sampled from it are not refused.
 *
 * @module
 */
import type { Candidate, CandidateRow } from "../candidate.ts";
import type { StrategyContext } from "./strategy.ts";

/**
 * @param rows rows per table (changed in place)
 * @param context the schema and the given database
 * @returns the candidate, parents included
 */
export function withParents(
  rows: Map<string, CandidateRow[]>,
  context: StrategyContext,
): Candidate {
  const tables = context.schema.tables;
  // Tables are parents first: walking them backwards reaches every child
  // before its parents, so grandparents are added too.
  for (let i = tables.length - 1; i >= 0; i--) {
    const t = tables[i]!;
    const own = rows.get(t.name) ?? [];
    for (const fk of t.foreignKeys) {
      const parent = tables.find((p) => p.name.toLowerCase() === fk.parent.toLowerCase());
      if (parent === undefined) continue;
      const indexes = fk.columns.map((c) => t.columns.findIndex((col) => col.name === c));
      if (indexes.some((x) => x < 0)) continue;
      const parentRows = rows.get(parent.name) ?? [];
      // Parent rows come from one cache, so the same row is the same object.
      const have = new Set<CandidateRow>(parentRows);
      for (const r of own) {
        const p = context.real.parent(fk, indexes.map((x) => r[x] ?? null));
        if (p !== null && !have.has(p)) {
          have.add(p);
          parentRows.push(p);
        }
      }
      if (parentRows.length > 0) rows.set(parent.name, parentRows);
    }
  }
  return rows;
}

/**
 * Whether a table the queries read has rows in the given database: without
 * any, a strategy that takes given rows can only build the empty database.
 *
 * @param context the schema and the given database
 * @returns true when there are rows to take
 */
export function hasGivenRows(context: StrategyContext): boolean {
  return context.schema.tables.some((t) =>
    context.schema.read.has(t.name) && context.real.sample(t.name).length > 0
  );
}
