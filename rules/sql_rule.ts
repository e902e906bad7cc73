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
import { traceSqliteAccess } from "./_sqlite_access.ts";
import type { SqliteAccess } from "../lib/sqlite/authorizer.ts";
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
  /**
   * How to read the SQL: `sqlite`, `postgres`, `mysql`, ... Default: the
   * dialect of the run's database (`postgres` with `--db postgres://...` or
   * `--db pglite:...`), else `sqlite`.
   */
  readonly dialect?: string;
  /**
   * With `sqlite`: the SQLite file the SQL runs on. ReadOnly, AllowedTables and
   * AllowedColumns then compile the SQL on its schema and ask SQLite what it
   * reads and writes (the file is opened read-only; nothing runs). Default:
   * the run's database (`--db`, else `--agent-db`), from the check context.
   */
  readonly database?: string;
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
  /** The dialect the SQL is read in when the run's database names none (see {@link SqlRuleOptions}). */
  readonly dialect: Dialect;
  /** Whether the dialect was given, so the run's database does not override it. */
  readonly #dialectGiven: boolean;
  /** The SQLite file given with the `database` option, if any. */
  readonly database: string | undefined;

  /** @param options the dialect, and for sqlite the database */
  constructor(options: SqlRuleOptions = {}) {
    super();
    this.dialect = toDialect(options.dialect);
    this.#dialectGiven = options.dialect !== undefined;
    this.database = options.database;
  }

  /**
   * The problems of one SQL text as SQLite itself compiled it on the real
   * schema; rules that can use it override this. `model` parses the text on
   * demand (it rejects with UnreadableSql when the parser cannot read it).
   *
   * @param _access what SQLite's authorizer reported for each statement
   * @param _trace the trace
   * @param _model the parsed SQL, on demand
   * @returns the problems, or null to read the parsed SQL instead
   */
  protected sqliteProblems(
    _access: SqliteAccess & { readonly ok: true },
    _trace: Trace,
    _model: () => Promise<QueryModel>,
  ): string[] | null | Promise<string[] | null> {
    return null;
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
   * @param context the run's database, for sqlite
   * @returns one finding per generate stage with SQL, or SKIP without SQL
   */
  async run(
    trace: Trace,
    _testCase?: TestCase,
    context?: CheckContext,
  ): Promise<CheckResult | CheckResult[]> {
    const stages = trace.allOf("generate").filter((s) =>
      typeof s.output === "string" && s.output.trim() !== ""
    );
    if (stages.length === 0) return this.result("generate", SKIP, "no SQL in the trace");
    const results: CheckResult[] = [];
    const dialect = this.#dialectGiven || context?.dialect === undefined
      ? this.dialect
      : toDialect(context.dialect);
    for (const stage of stages) {
      let problems: string[];
      const sql = stage.output as string;
      const sqlite = await this.#sqliteProblems(trace, sql, context, dialect);
      try {
        problems = Array.isArray(sqlite)
          ? sqlite
          : this.problems(await traceSqlModel(trace, sql, dialect), trace);
      } catch (e) {
        if (!(e instanceof UnreadableSql)) throw e;
        problems = [`${e.message}${hint(dialect, sqlite)}`];
      }
      results.push(
        problems.length === 0
          ? this.result(stage.name, PASS)
          : this.result(stage.name, FAIL, problems.join("; ")),
      );
    }
    return results.length === 1 ? results[0]! : results;
  }

  /**
   * SQLite's own answer when the dialect is sqlite, a database is known and
   * SQLite can compile the SQL on it; otherwise why not (SQL that SQLite
   * cannot compile there cannot run there either: the parser then reads it),
   * or null when the rule does not ask SQLite.
   */
  async #sqliteProblems(
    trace: Trace,
    sql: string,
    context: CheckContext | undefined,
    dialect: Dialect,
  ): Promise<string[] | { readonly error: string } | "no database" | null> {
    const database = this.database ?? context?.database;
    if (dialect !== "sqlite") return null;
    if (this.sqliteProblems === SqlRule.prototype.sqliteProblems) return null;
    if (database === undefined) return "no database";
    const access = await traceSqliteAccess(trace, sql, database);
    if (!access.ok) return { error: access.error };
    const problems = await this.sqliteProblems(
      access,
      trace,
      () => traceSqlModel(trace, sql, dialect),
    );
    return problems ?? null;
  }
}

/** What to add to the parser's message for SQLite SQL it cannot read. */
function hint(
  dialect: Dialect,
  sqlite: string[] | { readonly error: string } | "no database" | null,
): string {
  if (dialect !== "sqlite" || sqlite === null || Array.isArray(sqlite)) return "";
  if (sqlite === "no database") {
    return " (with the SQLite file known, --db, --agent-db or the rule's database option, " +
      "ReadOnly, AllowedTables and AllowedColumns ask SQLite itself)";
  }
  return `; SQLite cannot compile it on the database either: ${sqlite.error}`;
}
