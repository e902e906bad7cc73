/**
 * ReadOnly: the SQL is one statement and only reads data.
 *
 * @module
 */
import type { Trace } from "../lib/eval/trace.ts";
import { SqlRule, type SqlRuleOptions } from "./sql_rule.ts";
import type { QueryModel } from "./query_model.ts";
import type { SqliteAccess } from "../lib/sqlite/authorizer.ts";

/** Authorizer actions of a statement that only reads. */
const READ_ACTIONS = new Set(["READ", "SELECT", "FUNCTION", "RECURSIVE"]);

/**
 * Functions that read files, sleep, change settings or sequences, or reach
 * other servers. Not every dangerous function: extend it for your database.
 *
 * @example
 * ```ts
 * import { DEFAULT_FORBIDDEN_FUNCTIONS, ReadOnly } from "../mod.ts";
 * const rule = new ReadOnly({
 *   dialect: "postgres",
 *   forbiddenFunctions: [...DEFAULT_FORBIDDEN_FUNCTIONS, "my_audit_write"],
 * });
 * ```
 */
export const DEFAULT_FORBIDDEN_FUNCTIONS: readonly string[] = Object.freeze([
  // PostgreSQL
  "pg_sleep",
  "pg_sleep_for",
  "pg_sleep_until",
  "pg_read_file",
  "pg_read_binary_file",
  "pg_ls_dir",
  "pg_stat_file",
  "pg_terminate_backend",
  "pg_cancel_backend",
  "pg_reload_conf",
  "pg_rotate_logfile",
  "pg_advisory_lock",
  "pg_advisory_xact_lock",
  "pg_advisory_lock_shared",
  "pg_advisory_xact_lock_shared",
  "pg_try_advisory_lock",
  "pg_try_advisory_xact_lock",
  "pg_try_advisory_lock_shared",
  "pg_try_advisory_xact_lock_shared",
  "pg_notify",
  "lo_import",
  "lo_export",
  "lo_unlink",
  "lo_create",
  "lo_creat",
  "lo_from_bytea",
  "lo_put",
  "lowrite",
  "dblink",
  "dblink_exec",
  "dblink_connect",
  "dblink_connect_u",
  "dblink_send_query",
  "dblink_open",
  "dblink_fetch",
  "set_config",
  "nextval",
  "setval",
  "query_to_xml",
  "query_to_xml_and_xmlschema",
  "ts_stat",
  "pg_switch_wal",
  "pg_create_restore_point",
  "pg_logical_emit_message",
  "pg_stat_reset",
  // MySQL
  "sleep",
  "benchmark",
  "load_file",
  "get_lock",
  // SQLite
  "load_extension",
  "readfile",
  "writefile",
  "fsdir",
  "edit",
  "fts3_tokenizer",
]);

/**
 * What ReadOnly takes.
 *
 * @example
 * ```ts
 * import { ReadOnly, type ReadOnlyOptions } from "./read_only.ts";
 * import { Trace } from "../lib/eval/trace.ts";
 * const options: ReadOnlyOptions = { dialect: "postgres", forbiddenFunctions: ["pg_sleep"] };
 * const result = await new ReadOnly(options).run(Trace.simple("q", { sql: "SELECT pg_sleep(10)" }));
 * result; // { ..., status: "FAIL", detail: "forbidden function pg_sleep" }
 * ```
 */
export interface ReadOnlyOptions extends SqlRuleOptions {
  /** The full list of forbidden function names (default {@link DEFAULT_FORBIDDEN_FUNCTIONS}). */
  readonly forbiddenFunctions?: readonly string[];
}

/** Statement kinds that only read. EXPLAIN passes when what it explains does. */
const READ_KINDS = new Set(["select", "show", "desc", "describe", "explain"]);

/**
 * Passes when the SQL is one statement that only reads: no write, DDL,
 * lock, INTO, transaction control, setting, PRAGMA, ATTACH, ... anywhere in
 * the tree, and no call to a forbidden function. Statements the parser
 * cannot read fail.
 *
 * @example
 * ```ts
 * import { ReadOnly } from "./read_only.ts";
 * import { Trace } from "../lib/eval/trace.ts";
 * const rule = new ReadOnly({ dialect: "postgres" });
 * const result = await rule.run(Trace.simple("q", { sql: "DELETE FROM orders" }));
 * // { name: "read_only", stage: "generate", status: "FAIL", detail: "DELETE statement" }
 * ```
 */
export class ReadOnly extends SqlRule {
  /** The check name. */
  readonly name = "read_only";
  /** Lower-case forbidden function names. */
  readonly forbiddenFunctions: ReadonlySet<string>;

  /** @param options the dialect and the forbidden functions */
  constructor(options: ReadOnlyOptions = {}) {
    super(options);
    this.forbiddenFunctions = new Set(
      (options.forbiddenFunctions ?? DEFAULT_FORBIDDEN_FUNCTIONS).map((f) => f.toLowerCase()),
    );
  }

  protected problems(model: QueryModel, _trace: Trace): string[] {
    const problems: string[] = [];
    const count = model.statements.length;
    if (count === 0) problems.push("no SQL statement");
    if (count > 1) problems.push(`${count} statements; ReadOnly wants one`);
    for (const s of model.statements) {
      if (!READ_KINDS.has(s.kind)) problems.push(`${s.kind.toUpperCase()} statement`);
      for (const kind of new Set(s.nested)) {
        if (kind !== "select" && kind !== s.kind) {
          problems.push(`${kind.toUpperCase()} inside the query`);
        }
      }
      for (const lock of s.locking) problems.push(`locking clause ${lock}`);
      for (const into of s.into) problems.push(`SELECT ... ${into} writes`);
      const forbidden = [...new Set(s.functions.filter((f) => this.forbiddenFunctions.has(f)))];
      if (forbidden.length > 0) problems.push(`forbidden function ${forbidden.join(", ")}`);
    }
    return [...new Set(problems)];
  }

  /**
   * With the database known (sqlite): each statement must be read-only for
   * `sqlite3_stmt_readonly` and SQLite's authorizer must report a SELECT and
   * nothing but reads and calls of allowed functions (so PRAGMA, ATTACH,
   * BEGIN, which write no file, fail too, and so does REINDEX, which reports
   * nothing on a schema without indexes).
   */
  protected override sqliteProblems(access: SqliteAccess & { readonly ok: true }): string[] {
    const problems: string[] = [];
    const count = access.statements.length;
    if (count === 0) problems.push("no SQL statement");
    if (count > 1) problems.push(`${count} statements; ReadOnly wants one`);
    for (const s of access.statements) {
      const before = problems.length;
      for (const call of s.calls) {
        if (call.action === "FUNCTION") {
          const name = (call.arg2 ?? "").toLowerCase();
          if (this.forbiddenFunctions.has(name)) problems.push(`forbidden function ${name}`);
        } else if (!READ_ACTIONS.has(call.action)) {
          const target = call.arg1 === null ? "" : ` ${call.arg1}`;
          problems.push(`SQLite reports ${call.action}${target}`);
        }
      }
      if (!s.readonly && problems.length === before) problems.push("SQLite reports a write");
      // A statement that reports nothing at all (REINDEX on a schema without
      // indexes) is no query either.
      if (problems.length === before && !s.calls.some((c) => c.action === "SELECT")) {
        problems.push("SQLite reports no SELECT: not a query");
      }
    }
    return [...new Set(problems)];
  }
}
