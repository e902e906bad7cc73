/**
 * The selector language: a JSON or YAML object that says which database
 * changes to look for, tested against a diff document. docs/selector.md
 * describes the language and every choice made in it.
 *
 * @example
 * ```ts
 * import { explainMatch, matchesDiff, parseSelector } from "./mod.ts";
 * const selector = parseSelector({ rows: { changed: { has_one: ["password"] } } });
 * ```
 *
 * @module
 */
export {
  explainMatch,
  type MatchExplanation,
  type SelectorsWatch,
  type SelectorWatch,
  watchSelector,
  watchSelectors,
} from "./explain.ts";
export { matchesDiff, parseSelector } from "./match.ts";
export { type Operator, OPERATOR_NAMES, type OperatorName, OPERATORS } from "./operators.ts";
export { readSelector } from "./read.ts";
export type {
  ChangedColumnsCondition,
  ChangedRowsMatch,
  ColumnCondition,
  CountCondition,
  DatabasesScope,
  NameMatch,
  OperatorObject,
  Plane,
  RowsMatch,
  RowsScope,
  RowTemplate,
  Scalar,
  Selector,
  SetMatch,
  StatusMatch,
  TablesScope,
  TableStatus,
  Target,
  Where,
  WhereObject,
  WhereValue,
} from "./types.ts";
