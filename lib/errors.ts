/**
 * Every error class the toolkit throws for bad input. Each names what failed,
 * quotes the value and says what to do next, in one line.
 *
 * @module
 */

/**
 * Bad command-line usage or option: the CLI prints the message and exits 2.
 *
 * @example
 * ```ts
 * import { UsageError } from "./errors.ts";
 * const error = new UsageError('--tags nope: no case has any of these tags');
 * error.exitCode; // 2
 * ```
 */
export class UsageError extends Error {
  /** The process exit code the CLI uses for this error. */
  readonly exitCode = 2;
  /**
   * @param message one line: what is wrong and what to do
   * @param options the underlying cause, if any
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "UsageError";
  }
}

/**
 * Why a SQLite file could not be opened or read.
 *
 * @example
 * ```ts
 * import { openDatabase, SqliteOpenError, type SqliteOpenReason } from "../mod.ts";
 * let reason: SqliteOpenReason | undefined;
 * try {
 *   await openDatabase("no-such.db");
 * } catch (error) {
 *   if (error instanceof SqliteOpenError) reason = error.reason; // "missing"
 * }
 * ```
 */
export type SqliteOpenReason =
  | "missing"
  | "directory"
  | "not-sqlite"
  | "truncated"
  | "corrupt"
  | "hot-journal"
  | "unsupported"
  | "unreadable";

/**
 * A SQLite file that cannot be opened or read: missing, a directory, not a
 * SQLite file, truncated or corrupt, or mid-transaction.
 *
 * @example
 * ```ts
 * import { openDatabase, SqliteOpenError } from "../mod.ts";
 * try {
 *   await openDatabase("no-such.db");
 * } catch (error) {
 *   if (error instanceof SqliteOpenError) console.log(error.reason, error.path); // missing no-such.db
 * }
 * ```
 */
export class SqliteOpenError extends Error {
  /** The path as the user gave it. */
  readonly path: string;
  /** A machine-readable reason. */
  readonly reason: SqliteOpenReason;
  /**
   * @param path the file's path as given
   * @param reason the machine-readable reason
   * @param message the one-line message
   * @param options the underlying cause, if any
   */
  constructor(
    path: string,
    reason: SqliteOpenReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "SqliteOpenError";
    this.path = path;
    this.reason = reason;
  }
}

/**
 * A SQLite file whose pages break an invariant of the file format: a cell
 * past the end of its page, keys out of order, a page reached twice, an
 * overflow chain of the wrong length, a reserved serial type. Found by the
 * toolkit's own reader of the file format as it reads; the reason is
 * `corrupt`, as for the damage SQLite reports.
 *
 * @example
 * ```ts
 * import { SqliteDamageError } from "./errors.ts";
 * const error = new SqliteDamageError("bad.db", 7, "cell 3 ends past the end of the page");
 * error.message; // 'Cannot read "bad.db": the file is damaged (page 7: cell 3 ends past the end of the page); restore it from a good copy'
 * ```
 */
export class SqliteDamageError extends SqliteOpenError {
  /** The page where the damage was found (1-based), or 0 for the file's header. */
  readonly page: number;
  /** What is wrong there, in a few words. */
  readonly problem: string;
  /**
   * @param path the file's path as given
   * @param page the damaged page, or 0 for the header
   * @param problem what is wrong there
   * @param options the underlying cause, if any
   */
  constructor(path: string, page: number, problem: string, options?: ErrorOptions) {
    const where = page === 0 ? "header" : `page ${page}`;
    super(
      path,
      "corrupt",
      `Cannot read "${path}": the file is damaged (${where}: ${problem}); restore it from a good copy`,
      options,
    );
    this.name = "SqliteDamageError";
    this.page = page;
    this.problem = problem;
  }
}

/**
 * A SQL statement that SQLite rejected or that failed while running.
 *
 * @example
 * ```ts
 * import { openMemoryDatabase, SqliteQueryError } from "../mod.ts";
 * const db = await openMemoryDatabase();
 * try {
 *   db.query("SELECT * FROM nowhere");
 * } catch (error) {
 *   if (error instanceof SqliteQueryError) console.log(error.message); // no such table: nowhere
 * }
 * db.close();
 * ```
 */
export class SqliteQueryError extends Error {
  /** The SQL text. */
  readonly sql: string;
  /** SQLite's primary result code. */
  readonly code: number;
  /**
   * @param sql the statement
   * @param code SQLite's result code
   * @param message the one-line message
   */
  constructor(sql: string, code: number, message: string) {
    super(message);
    this.name = "SqliteQueryError";
    this.sql = sql;
    this.code = code;
  }
}

/**
 * A key chosen for a table (`--key`, the diff's `keys` option) that cannot
 * pair its rows: a column the table lacks on a side, or a value two rows of
 * one side share. Names the file, the table and, for a duplicate, the value.
 *
 * @example
 * ```ts
 * import { DiffKeyError } from "./errors.ts";
 * const error = new DiffKeyError("after.db", "users", "--key users=email: 2 rows of users in after.db have email = 'a@example.com'; a key must name one row on each side: add columns to it");
 * error.table; // "users"
 * error.exitCode; // 2
 * ```
 */
export class DiffKeyError extends Error {
  /** The process exit code the CLI uses for this error. */
  readonly exitCode = 2;
  /** The file whose rows the key cannot pair. */
  readonly path: string;
  /** The table. */
  readonly table: string;
  /**
   * @param path the file
   * @param table the table
   * @param message one line: what is wrong and what to do
   */
  constructor(path: string, table: string, message: string) {
    super(message);
    this.name = "DiffKeyError";
    this.path = path;
    this.table = table;
  }
}

/**
 * A mistake in a selector, located by the JSON path of the bad key.
 *
 * @example
 * ```ts
 * import { parseSelector, SelectorError } from "../mod.ts";
 * try {
 *   parseSelector({ rows: { chnaged: {} } });
 * } catch (error) {
 *   if (error instanceof SelectorError) console.log(error.jsonPath); // rows
 * }
 * ```
 */
export class SelectorError extends TypeError {
  /** The JSON path of the offending key, e.g. `rows.changed.where[0].role`. */
  readonly jsonPath: string;
  /** The selector file the mistake is in, when the selector came from one. */
  readonly file: string | undefined;
  /**
   * @param jsonPath where the mistake is
   * @param message what is wrong (the path is prefixed for you)
   * @param options `file`: the selector file, named before the path
   */
  constructor(jsonPath: string, message: string, options: { file?: string } = {}) {
    const where = jsonPath === "" ? message : `${jsonPath}: ${message}`;
    super(options.file === undefined ? where : `selector file "${options.file}": ${where}`);
    this.name = "SelectorError";
    this.jsonPath = jsonPath;
    this.file = options.file;
  }
}

/**
 * A selector whose answer depends on row changes a diff counted but did not
 * keep (`max_rows`, `max_bytes`): neither match nor no match can be proven.
 * `matchesDiff` throws it; `explainMatch` says `cannot tell` instead.
 *
 * @example
 * ```ts
 * import { CannotTellError, diffSqliteDatabases, matchesDiff } from "../mod.ts";
 * // users.db from nothing: 4 rows added, only 1 kept
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db", { maxRows: 1 });
 * try {
 *   matchesDiff(diff, { rows: { added: { where: { name: "nobody" } } } });
 * } catch (error) {
 *   if (error instanceof CannotTellError) console.log(error.message.split("\n")[0]);
 * }
 * ```
 */
export class CannotTellError extends Error {
  /** The explanation: which tables' kept rows cannot tell, and why. */
  readonly explanation: string;
  /** @param explanation `cannot tell: ...` and the lines of explainMatch */
  constructor(explanation: string) {
    super(explanation);
    this.name = "CannotTellError";
    this.explanation = explanation;
  }
}

/**
 * A mistake in a cases file, located by file and line.
 *
 * @example
 * ```ts
 * import { CasesFileError, parseCases } from "../mod.ts";
 * try {
 *   parseCases("- id: a\n  questoin: Hi?\n", "cases.yaml");
 * } catch (error) {
 *   if (error instanceof CasesFileError) console.log(error.file, error.line); // cases.yaml 2
 * }
 * ```
 */
export class CasesFileError extends SyntaxError {
  /** The file's path as given. */
  readonly file: string;
  /** 1-based line of the mistake, when known. */
  readonly line: number | undefined;
  /** 1-based column of the mistake, when known. */
  readonly column: number | undefined;
  /**
   * @param file the cases file
   * @param location the line and column of the mistake, when known
   * @param message what is wrong
   */
  constructor(
    file: string,
    location: { line?: number | undefined; column?: number | undefined },
    message: string,
  ) {
    super(
      location.line === undefined ? `${file}: ${message}` : `${file}:${location.line}: ${message}`,
    );
    this.name = "CasesFileError";
    this.file = file;
    this.line = location.line;
    this.column = location.column;
  }
}

/**
 * A judge that could not give a verdict: its endpoint refused the key (401),
 * was not found (404), kept failing after retries, or did not answer in time.
 * A judge check turns it into ERROR for that one check.
 *
 * @example
 * ```ts
 * import { JudgeError } from "./errors.ts";
 * const error = new JudgeError("the judge endpoint refused the API key (401)", { status: 401 });
 * error.status; // 401
 * ```
 */
export class JudgeError extends Error {
  /** The HTTP status that caused it, when there was one. */
  readonly status: number | undefined;
  /**
   * @param message one line: what failed and what to do
   * @param options the HTTP status and the underlying cause, if any
   */
  constructor(message: string, options: ErrorOptions & { status?: number | undefined } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "JudgeError";
    this.status = options.status;
  }
}

/**
 * What an agent returned cannot be read as a trace (the case becomes an ERROR).
 *
 * @example
 * ```ts
 * import { toTrace, TraceError } from "../mod.ts";
 * try {
 *   toTrace("How many?", { row: [] });
 * } catch (error) {
 *   if (error instanceof TraceError) console.log(error.message); // the agent returned unknown key(s) ['row']; ...
 * }
 * ```
 */
export class TraceError extends TypeError {
  /**
   * @param message what is wrong with the value and what to return instead
   */
  constructor(message: string) {
    super(message);
    this.name = "TraceError";
  }
}

/**
 * A mistake in a `dbagenteval.yaml` config file, located by file and line
 * (`dbagenteval.yaml:3: unknown key "agnet"; did you mean "agent"?`).
 *
 * @example
 * ```ts
 * import { ConfigFileError } from "./errors.ts";
 * const error = new ConfigFileError("dbagenteval.yaml", 3, 'unknown key "agnet"');
 * error.message; // 'dbagenteval.yaml:3: unknown key "agnet"'
 * ```
 */
export class ConfigFileError extends SyntaxError {
  /** The file's path as given. */
  readonly file: string;
  /** 1-based line of the mistake, when known. */
  readonly line: number | undefined;
  /**
   * @param file the config file
   * @param line the line of the mistake, when known
   * @param message what is wrong
   */
  constructor(file: string, line: number | undefined, message: string) {
    super(line === undefined ? `${file}: ${message}` : `${file}:${line}: ${message}`);
    this.name = "ConfigFileError";
    this.file = file;
    this.line = line;
  }
}

/**
 * An agent reached over a transport (a subprocess with --agent-cmd, an HTTP
 * service with --agent-url) failed to answer: the process exited, wrote a
 * line that is not a reply, answered another case, the server refused the
 * request or kept failing. The case becomes an ERROR with this message,
 * which ends with the agent's last stderr lines when there are any.
 *
 * @example
 * ```ts
 * import { AgentError } from "./errors.ts";
 * const error = new AgentError("the agent exited with code 1 before answering");
 * error.message; // "the agent exited with code 1 before answering"
 * ```
 */
export class AgentError extends Error {
  /**
   * @param message what failed, then the agent's log when there is one
   * @param options the underlying cause, if any
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "AgentError";
  }
}

/**
 * A statement the harness did not send to its database, through no fault of
 * the SQL: the one engine it shares with the other cases (PGlite) was busy
 * with another case's statement, or starting again after one, until the
 * statement's own deadline had passed, or its case was over before its
 * turn. A case whose SQL was not run is the harness's ERROR, not the
 * agent's FAIL: nothing is known of what the SQL would have given.
 *
 * @example
 * ```ts
 * import { NotRunError } from "./errors.ts";
 * const error = new NotRunError("pglite:shop.sql: the statement waited for the one before it past its own deadline (3 s); it did not run");
 * error.name; // "NotRunError"
 * ```
 */
export class NotRunError extends Error {
  /**
   * @param message the one-line message: the database, what it waited for
   * @param options the underlying cause, if any
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "NotRunError";
  }
}

/**
 * A job of the worker pool (lib/isolation/pool.ts) that ended without its
 * service's answer: it ran past its deadline and could not be interrupted
 * (its worker was replaced), it was cancelled, its worker crashed, or the
 * pool was closed. A deadline its service honoured is the service's own
 * error (e.g. a {@link SqliteQueryError} "did not finish within N s").
 *
 * @example
 * ```ts
 * import { PoolJobError } from "./errors.ts";
 * const error = new PoolJobError("deadline", "the job did not stop within 1 s of its deadline");
 * error.reason; // "deadline"
 * ```
 */
export class PoolJobError extends Error {
  /** Why the job ended. */
  readonly reason: "deadline" | "cancelled" | "crashed" | "closed";
  /**
   * @param reason why the job ended
   * @param message the one-line message
   */
  constructor(reason: PoolJobError["reason"], message: string) {
    super(message);
    this.name = "PoolJobError";
    this.reason = reason;
  }
}
