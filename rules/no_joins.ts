/**
 * NoJoins: the SQL joins no tables.
 *
 * @module
 */
import type { Trace } from "../lib/eval/trace.ts";
import { SqlRule, type SqlRuleOptions } from "./sql_rule.ts";
import type { QueryModel } from "./query_model.ts";

/**
 * Passes when no query level has an explicit JOIN or a comma join
 * (`FROM a, b`), in any subquery or CTE.
 *
 * @example
 * ```ts
 * import { NoJoins } from "./no_joins.ts";
 * import { Trace } from "../lib/eval/trace.ts";
 * const sql = "SELECT * FROM orders o JOIN items i ON i.order_id = o.id";
 * const result = await new NoJoins().run(Trace.simple("q", { sql }));
 * // detail: "1 join"
 * ```
 */
export class NoJoins extends SqlRule {
  /** The check name. */
  readonly name = "no_joins";

  /** @param options the dialect */
  constructor(options: SqlRuleOptions = {}) {
    super(options);
  }

  protected problems(model: QueryModel, _trace: Trace): string[] {
    let joins = 0;
    for (const s of model.statements) for (const level of s.levels) joins += level.joins;
    return joins === 0 ? [] : [`${joins} join${joins === 1 ? "" : "s"}`];
  }
}
