/**
 * NoSubqueries: the SQL is one simple SELECT.
 *
 * @module
 */
import type { Trace } from "../lib/eval/trace.ts";
import { SqlRule, type SqlRuleOptions } from "./sql_rule.ts";
import type { QueryModel } from "./query_model.ts";

/**
 * Passes when each statement is a SELECT with no query inside it: no
 * subquery or derived table anywhere, no WITH, no UNION / INTERSECT / EXCEPT.
 *
 * @example
 * ```ts
 * import { NoSubqueries } from "./no_subqueries.ts";
 * import { Trace } from "../lib/eval/trace.ts";
 * const sql = "SELECT * FROM orders WHERE id IN (SELECT order_id FROM items)";
 * const result = await new NoSubqueries().run(Trace.simple("q", { sql }));
 * // detail: "a query inside another query"
 * ```
 */
export class NoSubqueries extends SqlRule {
  /** The check name. */
  readonly name = "no_subqueries";

  /** @param options the dialect */
  constructor(options: SqlRuleOptions = {}) {
    super(options);
  }

  protected problems(model: QueryModel, _trace: Trace): string[] {
    const problems: string[] = [];
    for (const s of model.statements) {
      if (s.kind !== "select") problems.push(`${s.kind.toUpperCase()} is not a SELECT`);
      if (s.ctes.length > 0) problems.push("a WITH clause");
      if (s.setOperations > 0) problems.push("a UNION, INTERSECT or EXCEPT");
      if (s.levels.some((l) => l.origin === "subquery" || l.origin === "derived")) {
        problems.push("a query inside another query");
      }
    }
    return [...new Set(problems)];
  }
}
