/**
 * What every SQL rule shares: find the SQL of the trace's generate stage(s),
 * parse it once per trace, fail unreadable SQL with the parser's message,
 * and report at the generate stage's name.
 *
 * @module
 */
import { Check, type CheckContext, type CheckResult, FAIL, PASS, SKIP } from "../lib/eval/check.ts";
import type { TestCase } from "../lib/eval/case.ts";
import type { Trace } from "../lib/eval/trace.ts";
import { traceSqlModel, UnreadableSql } from "./_parse.ts";
import { type Dialect, toDialect } from "./dialect.ts";
import type { QueryModel } from "./query_model.ts";

/**
 * The options every SQL rule takes.
 *
 * @example
 * ```ts
 * import { NoJoins } from "./no_joins.ts";
 * import type { SqlRuleOptions } from "./sql_rule.ts";
 * import { Trace } from "../lib/eval/trace.ts";
 * const options: SqlRuleOptions = { dialect: "mysql" };
 * const sql = "SELECT * FROM `orders` o JOIN `items` i ON i.order_id = o.id";
 * const result = await new NoJoins(options).run(Trace.simple("q", { sql }));
 * result; // { name: "no_joins", stage: "generate", status: "FAIL", detail: "1 join" }
 * ```
 */
export interface SqlRuleOptions {
  /** How to read the SQL: `sqlite` (default), `postgres`, `mysql`, ... */
  readonly dialect?: string;
}

/**
 * A check on the SQL of the generate stage(s).
 *
 * @example
 * ```ts
 * import { type QueryModel, SqlRule, tableRefs, Trace } from "../mod.ts";
 *
 * // Fails SQL that reads the audit table.
 * class NoAudit extends SqlRule {
 *   readonly name = "no_audit";
 *   protected problems(model: QueryModel): string[] {
 *     const tables = model.statements.flatMap((statement) => tableRefs(statement));
 *     return tables.some((t) => t.name === "audit") ? ["reads audit"] : [];
 *   }
 * }
 * const trace = Trace.simple("Who logged in?", { sql: "SELECT * FROM audit" });
 * await new NoAudit().run(trace); // { name: "no_audit", stage: "generate", status: "FAIL", ... }
 * ```
 */
export abstract class SqlRule extends Check {
  /** The dialect the SQL is read in. */
  readonly dialect: Dialect;

  /** @param options the dialect */
  constructor(options: SqlRuleOptions = {}) {
    super();
    this.dialect = toDialect(options.dialect);
  }

  /**
   * The problems of one SQL text; none means PASS.
   *
   * @param model the parsed SQL
   * @param trace the trace, for rules that read another stage
   * @returns the problems, each a short phrase
   */
  protected abstract problems(model: QueryModel, trace: Trace): string[];

  /**
   * Checks the SQL of every generate stage that has SQL text.
   *
   * @param trace what the agent did
   * @param _testCase unused
   * @param _context unused
   * @returns one finding per generate stage with SQL, or SKIP without SQL
   */
  async run(
    trace: Trace,
    _testCase?: TestCase,
    _context?: CheckContext,
  ): Promise<CheckResult | CheckResult[]> {
    const stages = trace.allOf("generate").filter((s) =>
      typeof s.output === "string" && s.output.trim() !== ""
    );
    if (stages.length === 0) return this.result("generate", SKIP, "no SQL in the trace");
    const results: CheckResult[] = [];
    for (const stage of stages) {
      let problems: string[];
      try {
        const model = await traceSqlModel(trace, stage.output as string, this.dialect);
        problems = this.problems(model, trace);
      } catch (e) {
        if (!(e instanceof UnreadableSql)) throw e;
        problems = [e.message];
      }
      results.push(
        problems.length === 0
          ? this.result(stage.name, PASS)
          : this.result(stage.name, FAIL, problems.join("; ")),
      );
    }
    return results.length === 1 ? results[0]! : results;
  }
}
