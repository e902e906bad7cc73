/**
 * The counterexample search: a database on which two queries differ.
 * `search.ts` runs it; `schema.ts` reads what it needs of the schema,
 * `real_data.ts` samples the given rows, `pools.ts` picks values,
 * `strategies/` make candidate databases, `sandbox.ts` tries them,
 * `shrink.ts` makes one small and `render.ts` shows it.
 *
 * @module
 */
export {
  type Counterexample,
  type CounterexampleOptions,
  DEFAULT_BUDGET,
  DEFAULT_TIME_LIMIT,
  findCounterexample,
} from "./search.ts";
export { changesText, rowsAsJson, type TableChange } from "./render.ts";
