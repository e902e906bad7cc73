/**
 * Every error class the toolkit throws for bad input. Each names what failed,
 * quotes the value and says what to do next, in one line.
 *
 * @module
 */

/** Bad command-line usage or option: the CLI prints the message and exits 2. */
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

/** Why a SQLite file could not be opened or read. */
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

/** A SQL statement that SQLite rejected or that failed while running. */
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

/** A mistake in a selector, located by the JSON path of the bad key. */
export class SelectorError extends TypeError {
  /** The JSON path of the offending key, e.g. `rows.changed.where[0].role`. */
  readonly jsonPath: string;
  /**
   * @param jsonPath where the mistake is
   * @param message what is wrong (the path is prefixed for you)
   */
  constructor(jsonPath: string, message: string) {
    super(jsonPath === "" ? message : `${jsonPath}: ${message}`);
    this.name = "SelectorError";
    this.jsonPath = jsonPath;
  }
}

/** A mistake in a cases file, located by file and line. */
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

/** What an agent returned cannot be read as a trace (the case becomes an ERROR). */
export class TraceError extends TypeError {
  /**
   * @param message what is wrong with the value and what to return instead
   */
  constructor(message: string) {
    super(message);
    this.name = "TraceError";
  }
}
