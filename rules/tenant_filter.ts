/**
 * TenantFilter: every table reference is filtered by the tenant column.
 *
 * @module
 */
import type { Trace } from "../lib/eval/trace.ts";
import type { TestCase } from "../lib/eval/case.ts";
import type { CheckContext, CheckResult } from "../lib/eval/check.ts";
import { SqlRule, type SqlRuleOptions } from "./sql_rule.ts";
import {
  type ColumnRef,
  foldAscii,
  pyList,
  type QueryLevel,
  type QueryModel,
  type QueryPredicate,
  type SqlStatement,
  type TableRef,
  tableRefs,
} from "./query_model.ts";

/**
 * Functions that read tables or run queries named in a string argument,
 * which the rule cannot see: `SELECT table_to_xml('orders', ...)` reads every
 * tenant's rows.
 */
const READS_NAMED_TABLES: ReadonlySet<string> = new Set([
  "query_to_xml",
  "query_to_xml_and_xmlschema",
  "table_to_xml",
  "table_to_xml_and_xmlschema",
  "cursor_to_xml",
  "schema_to_xml",
  "schema_to_xml_and_xmlschema",
  "database_to_xml",
  "database_to_xml_and_xmlschema",
  "ts_stat",
  "dblink",
  "crosstab",
  "connectby",
]);

/**
 * Statements that run code the rule cannot read: a `DO` block's body and a
 * prepared statement's text are strings to the parser.
 */
const RUNS_HIDDEN_CODE: ReadonlySet<string> = new Set(["do", "execute"]);

/**
 * What TenantFilter takes besides the column.
 *
 * @example
 * ```ts
 * import { TenantFilter, type TenantFilterOptions } from "./tenant_filter.ts";
 * import { Trace } from "../lib/eval/trace.ts";
 * // only orders carries store_id; products is shared by every store
 * const options: TenantFilterOptions = { value: "s1", tables: ["orders"] };
 * const sql = "SELECT p.name FROM orders o JOIN products p ON p.id = o.product_id " +
 *   "WHERE o.store_id = 's1'";
 * const result = await new TenantFilter("store_id", options).run(Trace.simple("q", { sql }));
 * result; // { name: "tenant_filter", stage: "generate", status: "PASS", detail: "" }
 * ```
 */
export interface TenantFilterOptions extends SqlRuleOptions {
  /** The tenant: the filter must compare with exactly this value. */
  readonly value?: string | number;
  /** Check only these tables (for schemas where other tables lack the column). */
  readonly tables?: readonly string[];
}

/**
 * Passes when every reference to a table (or to a listed table) - in FROM,
 * joins, subqueries, CTEs, each branch of a set operation - is constrained by
 * `<that table or its alias>.column = value` (or `IN (value)`) in a
 * predicate that always applies at its level: a top-level AND conjunct of
 * WHERE, of an ON that constrains that table, or of HAVING on a GROUP BY
 * column. An unqualified column counts only when the level has one source.
 * Without `value`, any single constant or bind parameter counts.
 *
 * @example
 * ```ts
 * import { TenantFilter } from "./tenant_filter.ts";
 * import { Trace } from "../lib/eval/trace.ts";
 * const rule = new TenantFilter("store_id", { value: "s1" });
 * const sql = "SELECT SUM(amount) AS total FROM orders WHERE status = 'DELIVERED'";
 * const result = await rule.run(Trace.simple("q", { sql }));
 * // detail: "no store_id filter on ['orders']"
 * ```
 */
export class TenantFilter extends SqlRule {
  /** The check name. */
  readonly name = "tenant_filter";
  /** The tenant column. */
  readonly column: string;
  /** The tenant value, when given. */
  readonly value: string | undefined;
  /** The tables to check (lower case), or undefined for all. */
  readonly tables: ReadonlySet<string> | undefined;

  /**
   * @param column the tenant column, e.g. `store_id`
   * @param options the value, the tables and the dialect
   */
  /** The options as given, to build this rule for a case's own tenant. */
  readonly #options: TenantFilterOptions;

  constructor(column: string, options: TenantFilterOptions = {}) {
    super(options);
    this.#options = options;
    this.column = column;
    this.value = options.value === undefined ? undefined : String(options.value);
    this.tables = options.tables === undefined
      ? undefined
      : new Set(options.tables.map((t) => t.toLowerCase()));
  }

  /**
   * Checks the SQL; a case with its own `tenant` is checked for that value.
   *
   * @param trace what the agent did
   * @param testCase the case; its `tenant`, when set, replaces `value`
   * @param context the run's database
   * @returns one finding per generate stage with SQL
   */
  override run(
    trace: Trace,
    testCase?: TestCase,
    context?: CheckContext,
  ): Promise<CheckResult | CheckResult[]> {
    const tenant = testCase?.tenant;
    if (tenant === undefined || tenant === this.value) return super.run(trace, testCase, context);
    return new TenantFilter(this.column, { ...this.#options, value: tenant })
      .run(trace, testCase, context);
  }

  protected problems(model: QueryModel, _trace: Trace): string[] {
    const unfiltered: string[] = [];
    const hidden = new Set<string>();
    for (const statement of model.statements) {
      for (const ref of tableRefs(statement)) {
        if (this.tables !== undefined && !this.#listed(ref)) continue;
        if (!this.#filtered(ref, statement)) unfiltered.push(ref.name);
      }
      for (const f of statement.functions) if (READS_NAMED_TABLES.has(f)) hidden.add(f);
      for (const k of [statement.kind, ...statement.nested]) {
        if (RUNS_HIDDEN_CODE.has(k)) hidden.add(k.toUpperCase());
      }
    }
    const problems: string[] = [];
    if (unfiltered.length > 0) {
      problems.push(`no ${this.column} filter on ${pyList([...new Set(unfiltered)])}`);
    }
    if (hidden.size > 0) {
      problems.push(`${[...hidden].join(", ")} reads tables named in a string, unchecked`);
    }
    return problems;
  }

  /**
   * Whether a reference may be a listed table: a bare entry lists the name in
   * any schema; `schema.table` lists that schema's table and an unqualified
   * reference to the name, which the search path may resolve to it.
   */
  #listed(ref: TableRef): boolean {
    const name = ref.name.toLowerCase();
    if (this.tables!.has(name)) return true;
    if (ref.schema !== null) return this.tables!.has(`${ref.schema.toLowerCase()}.${name}`);
    return [...this.tables!].some((t) => t.endsWith(`.${name}`));
  }

  #filtered(ref: TableRef, statement: SqlStatement): boolean {
    const level = ref.level;
    return level.predicates.some((p) =>
      applies(p, ref.index) && this.#namesRef(p.column, ref, statement) &&
      this.#rightValues(p)
    );
  }

  #namesRef(column: ColumnRef, ref: TableRef, statement: SqlStatement): boolean {
    if (column.name.toLowerCase() !== this.column.toLowerCase()) return false;
    // Unqualified: only when no other source at this level could own it.
    if (column.table === null) return ref.level.sources.length === 1;
    // With an alias, the table's own name no longer names it.
    const own = ref.alias ?? ref.name;
    if (own === column.table) return true;
    if (foldAscii(own) !== foldAscii(column.table)) return false;
    // Equal but for case: MySQL aliases and PostgreSQL quoted names are
    // case-sensitive, so `FROM orders O, items o ... o.store_id` names items.
    // Case-insensitive only when no other name in scope differs from it by case.
    const q = foldAscii(column.table);
    return !qualifiersInScope(ref.level, statement).some((n) => n !== own && foldAscii(n) === q);
  }

  #rightValues(p: QueryPredicate): boolean {
    if (this.value === undefined) return p.values.length === 1;
    return p.values.every((v) => v.kind !== "parameter" && v.value === this.value);
  }
}

/** The names that qualify columns at a level: its sources' and every enclosing level's. */
function qualifiersInScope(level: QueryLevel, statement: SqlStatement): string[] {
  const names: string[] = [];
  for (let l: QueryLevel | undefined = level; l !== undefined;) {
    for (const s of l.sources) {
      const name = s.alias ?? s.name;
      if (name !== "") names.push(name);
    }
    l = l.parent === null ? undefined : statement.levels[l.parent];
  }
  return names;
}

function applies(p: QueryPredicate, index: number): boolean {
  return p.appliesTo === "all" || p.appliesTo.includes(index);
}
