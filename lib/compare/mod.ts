/**
 * Comparing results: the one row comparison (rows against reference rows,
 * as the harness's rows_match and reference_rows checks, the counterexample
 * search and the reports use it) and the number normalisation under it.
 * Below the harness and the counterexample search; imports neither.
 *
 * @example
 * ```ts
 * import { compareRows } from "./mod.ts";
 * compareRows([{ total: 2 }], [{ "COUNT(*)": "2.00" }]); // true
 * ```
 *
 * @module
 */
export {
  cellKey,
  type ComparableRows,
  compareRows,
  type CompareRowsOptions,
  matchesAny,
} from "./rows.ts";
export {
  isNumericText,
  normalizeNumber,
  numbersInText,
  roundDecimal,
  type TextNumber,
  textNumberValues,
} from "./normalize.ts";
