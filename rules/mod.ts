/**
 * The built-in rules: checks on the agent's SQL (stage generate) and answer
 * (stage answer) that need no correct result.
 *
 * @example
 * ```ts
 * import { NumbersGrounded, ReadOnly, TenantFilter } from "./mod.ts";
 * export const RULES = [new ReadOnly(), new TenantFilter("store_id"), new NumbersGrounded()];
 * ```
 *
 * @module
 */
export { DEFAULT_FORBIDDEN_FUNCTIONS, ReadOnly, type ReadOnlyOptions } from "./read_only.ts";
export { TenantFilter, type TenantFilterOptions } from "./tenant_filter.ts";
export { AllowedTables } from "./allowed_tables.ts";
export { AllowedColumns } from "./allowed_columns.ts";
export { NoJoins } from "./no_joins.ts";
export { NoSubqueries } from "./no_subqueries.ts";
export { NumbersGrounded } from "./numbers_grounded.ts";
export { SqlRule, type SqlRuleOptions } from "./sql_rule.ts";
export type { NameSource } from "./allowed_names.ts";
export { type Dialect, DIALECTS, toDialect } from "./dialect.ts";
export { parseSql } from "./parse_sql.ts";
export {
  type ColumnRef,
  pyList,
  type QueryLevel,
  type QueryModel,
  type QueryPredicate,
  type QuerySource,
  type SqlLiteral,
  type SqlStatement,
  type TableRef,
  tableRefs,
} from "./query_model.ts";
