/**
 * The interface every way of making candidate databases implements. A new
 * strategy is one file and one line in `mod.ts`.
 *
 * @module
 */
import type { Candidate } from "../candidate.ts";
import type { ColumnPool } from "../pools.ts";
import type { Random } from "../_random.ts";
import type { RealData } from "../real_data.ts";
import type { SearchSchema } from "../schema.ts";

/** What a strategy may draw on. */
export interface StrategyContext {
  readonly random: Random;
  readonly schema: SearchSchema;
  readonly real: RealData;
  /** Value pools per table name, in column order. */
  readonly pools: ReadonlyMap<string, readonly ColumnPool[]>;
}

/** A way of making candidate databases. */
export interface Strategy {
  /** Its name, for the report of what found a counterexample. */
  readonly name: string;
  /** How often it is asked, relative to the others. */
  readonly weight: number;
  /**
   * Makes one candidate. It need not satisfy the schema: rows the schema
   * refuses are left out when the candidate is loaded.
   */
  generate(context: StrategyContext): Candidate;
}
