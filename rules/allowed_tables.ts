/**
 * AllowedTables: the SQL reads only the listed tables.
 *
 * @module
 */
import type { Trace } from "../lib/eval/trace.ts";
import { SqlRule, type SqlRuleOptions } from "./sql_rule.ts";
import { allowedNames, type NameSource } from "./allowed_names.ts";
import { pyList, type QueryModel, tableRefs } from "./query_model.ts";
import type { SqliteAccess } from "../lib/sqlite/authorizer.ts";

const WRITES = new Set(["INSERT", "UPDATE", "DELETE"]);

/**
 * Passes when every table the SQL names is in the list (case-insensitive; a
 * list entry `schema.table` allows only that schema's table). CTE names are
 * not tables. `{ fromStage: "view" }` takes the list from that stage's
 * output: a name or a list of names.
 *
 * @example
 * ```ts
 * import { AllowedTables } from "./allowed_tables.ts";
 * import { Trace } from "../lib/eval/trace.ts";
 * const rule = new AllowedTables(["orders"]);
 * const result = await rule.run(Trace.simple("q", { sql: "SELECT * FROM customers" }));
 * // detail: "tables not allowed: ['customers']"
 * ```
 */
export class AllowedTables extends SqlRule {
  /** The check name. */
  readonly name = "allowed_tables";
  readonly #source: NameSource;

  /**
   * @param tables the allowed tables, or `{ fromStage }` to read them from a stage
   * @param options the dialect
   */
  constructor(tables: NameSource, options: SqlRuleOptions = {}) {
    super(options);
    this.#source = tables;
  }

  protected problems(model: QueryModel, trace: Trace): string[] {
    const allowed = allowedNames(this.#source, trace);
    if ("problem" in allowed) return [allowed.problem];
    const bad: string[] = [];
    for (const statement of model.statements) {
      for (const ref of tableRefs(statement)) {
        const name = ref.name.toLowerCase();
        const qualified = ref.schema === null ? name : `${ref.schema.toLowerCase()}.${name}`;
        const ok = allowed.names.has(qualified) ||
          (allowed.names.has(name) && ![...allowed.names].some((n) => n.endsWith(`.${name}`)));
        if (!ok) bad.push(ref.schema === null ? ref.name : `${ref.schema}.${ref.name}`);
      }
    }
    return bad.length === 0 ? [] : [`tables not allowed: ${pyList([...new Set(bad)])}`];
  }

  /**
   * With the database known (sqlite): every table SQLite's authorizer reports
   * read or written, and every view a read goes through, must be listed. A
   * view reads its tables, so they must be listed too.
   */
  protected override sqliteProblems(
    access: SqliteAccess & { readonly ok: true },
    trace: Trace,
  ): string[] {
    const allowed = allowedNames(this.#source, trace);
    if ("problem" in allowed) return [allowed.problem];
    const views = new Set(access.views.map((v) => v.toLowerCase()));
    const bad: string[] = [];
    const check = (name: string, schema: string | null): void => {
      const lower = name.toLowerCase();
      const qualified = schema === null ? lower : `${schema.toLowerCase()}.${lower}`;
      const ok = allowed.names.has(qualified) ||
        (allowed.names.has(lower) &&
          ![...allowed.names].some((n) => n !== qualified && n.endsWith(`.${lower}`)));
      if (!ok) bad.push(name);
    };
    for (const s of access.statements) {
      for (const call of s.calls) {
        if ((call.action === "READ" || WRITES.has(call.action)) && call.arg1 !== null) {
          check(call.arg1, call.database);
        }
        if (
          call.action === "READ" && call.source !== null && views.has(call.source.toLowerCase())
        ) {
          check(call.source, null);
        }
      }
    }
    return bad.length === 0 ? [] : [`tables not allowed: ${pyList([...new Set(bad)])}`];
  }
}
