/**
 * A candidate database: rows per table, values in the order of the table's
 * insertable columns. Small by design; the search builds many.
 *
 * @module
 */
import type { SqliteValue } from "../sqlite/value.ts";

/** One row: a value per insertable column, in column order. */
export type CandidateRow = readonly SqliteValue[];

/** Rows per table name. Tables without rows may be missing. */
export type Candidate = ReadonlyMap<string, readonly CandidateRow[]>;

/**
 * How many rows a candidate holds.
 *
 * @param candidate the candidate
 * @returns the number of rows over all tables
 */
export function rowCount(candidate: Candidate): number {
  let n = 0;
  for (const rows of candidate.values()) n += rows.length;
  return n;
}
