/**
 * The interface every way of making candidate databases implements. A new
 * strategy is one file and one line in `mod.ts`.
 *
 * @module
 */
import type { Candidate } from "../candidate.ts";
import type { ColumnPool } from "../pools.ts";
import type { Random } from "../random.ts";
import type { GivenRows } from "../given.ts";
import type { SearchSchema } from "../schema.ts";
import type { QueryShape } from "../query_shape.ts";

/** What a strategy may draw on. */
export interface StrategyContext {
  readonly random: Random;
  readonly schema: SearchSchema;
  readonly real: GivenRows;
  /** Value pools per table name, in column order. */
  readonly pools: ReadonlyMap<string, readonly ColumnPool[]>;
  /** The sizes the queries compare with and the columns they equate. */
  readonly shape: QueryShape;
}

/** A way of making candidate databases. */
export interface Strategy {
  /** Its name, for the report of what found a counterexample. */
  readonly name: string;
  /** How often it is asked, relative to the others. */
  readonly weight: number;
  /**
   * Whether it can make anything the search has not tried: a strategy that
   * only rearranges the given rows cannot when there are none. Absent: always.
   */
  usable?(context: StrategyContext): boolean;
  /**
   * Makes one candidate. It need not satisfy the schema: rows the schema
   * refuses are left out when the candidate is loaded.
   */
  generate(context: StrategyContext): Candidate;
}
