/**
 * AllowedColumns: the SQL uses only the listed columns, and no `SELECT *`.
 *
 * @module
 */
import type { Trace } from "../lib/eval/trace.ts";
import { SqlRule, type SqlRuleOptions } from "./sql_rule.ts";
import { allowedNames, type NameSource } from "./allowed_names.ts";
import { pyList, type QueryModel } from "./query_model.ts";
import { UnreadableSql } from "./_parse.ts";
import type { SqliteAccess } from "../lib/sqlite/authorizer.ts";

/**
 * Passes when every column the SQL references, in any clause, is in the list
 * (case-insensitive, by column name whatever its qualifier), and no `*` or
 * `t.*` is selected (`COUNT(*)` is fine). Names the SQL defines itself
 * (select-list aliases, CTE column names) are not checked.
 * `{ fromStage: "retrieve" }` takes the list from that stage's output.
 *
 * @example
 * ```ts
 * import { AllowedColumns } from "./allowed_columns.ts";
 * import { Trace } from "../lib/eval/trace.ts";
 * const rule = new AllowedColumns(["status", "amount"]);
 * const result = await rule.run(Trace.simple("q", { sql: "SELECT * FROM orders" }));
 * // detail: "SELECT * is not allowed"
 * ```
 */
export class AllowedColumns extends SqlRule {
  /** The check name. */
  readonly name = "allowed_columns";
  readonly #source: NameSource;

  /**
   * @param columns the allowed columns, or `{ fromStage }` to read them from a stage
   * @param options the dialect
   */
  constructor(columns: NameSource, options: SqlRuleOptions = {}) {
    super(options);
    this.#source = columns;
  }

  protected problems(model: QueryModel, trace: Trace): string[] {
    const allowed = allowedNames(this.#source, trace);
    if ("problem" in allowed) return [allowed.problem];
    const problems: string[] = [];
    const bad: string[] = [];
    for (const statement of model.statements) {
      const own = new Set(statement.outputNames.map((n) => n.toLowerCase()));
      for (const column of statement.columns) {
        if (column.name === "*") {
          problems.push("SELECT * is not allowed");
          continue;
        }
        const name = column.name.toLowerCase();
        if (!allowed.names.has(name) && !own.has(name)) bad.push(column.name);
      }
    }
    if (bad.length > 0) problems.push(`columns not allowed: ${pyList([...new Set(bad)])}`);
    return [...new Set(problems)];
  }

  /**
   * With the database known (sqlite): every column SQLite's authorizer
   * reports read or updated must be listed; `SELECT *` still fails when the
   * parser can read the SQL (SQLite reports the columns a star reads, so
   * the list is enforced either way).
   */
  protected override async sqliteProblems(
    access: SqliteAccess & { readonly ok: true },
    trace: Trace,
    model: () => Promise<QueryModel>,
  ): Promise<string[]> {
    const allowed = allowedNames(this.#source, trace);
    if ("problem" in allowed) return [allowed.problem];
    const problems: string[] = [];
    try {
      const parsed = await model();
      if (parsed.statements.some((s) => s.columns.some((c) => c.name === "*"))) {
        problems.push("SELECT * is not allowed");
      }
    } catch (e) {
      if (!(e instanceof UnreadableSql)) throw e;
    }
    const bad: string[] = [];
    for (const s of access.statements) {
      for (const call of s.calls) {
        if (call.action !== "READ" && call.action !== "UPDATE") continue;
        const column = call.arg2 ?? "";
        if (column !== "" && !allowed.names.has(column.toLowerCase())) bad.push(column);
      }
    }
    if (bad.length > 0) problems.push(`columns not allowed: ${pyList([...new Set(bad)])}`);
    return problems;
  }
}
