/**
 * Subsets of the given database's rows: a few rows of each table (and the
 * parents they need). A filter that holds for every row today but not for
 * all rows, or a join that loses unmatched rows, shows on a subset.
 *
 * @module
 */
import type { CandidateRow } from "../candidate.ts";
import { hasGivenRows, withParents } from "./_closure.ts";
import type { Strategy, StrategyContext } from "./strategy.ts";

/**
 * Picks up to `most` rows of each table's sample.
 *
 * @param context the strategy context
 * @param most the most rows per table
 * @returns rows per table, before parents are added
 */
export function subsetRows(context: StrategyContext, most: number): Map<string, CandidateRow[]> {
  const { random } = context;
  const rows = new Map<string, CandidateRow[]>();
  // Only the tables the queries read: parents come with the rows that need them.
  for (const t of context.schema.tables) {
    if (!context.schema.read.has(t.name)) continue;
    const sample = context.real.sample(t.name);
    const n = random.int(0, Math.min(most, sample.length));
    if (n > 0) rows.set(t.name, random.sample(sample, n));
  }
  return rows;
}

/** Subsets of the real rows. */
export const realSubset: Strategy = {
  name: "real_subset",
  usable: hasGivenRows,
  weight: 2,
  generate(context) {
    return withParents(subsetRows(context, context.random.pick([1, 2, 3, 5, 8])), context);
  },
};
