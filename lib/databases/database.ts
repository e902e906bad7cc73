/**
 * The interface every database for reference SQL implements (SQLite file,
 * PostgreSQL server, PGlite), so the harness does not know which it has.
 *
 * @module
 */
import type { ResultRows } from "../row_set.ts";

/**
 * A database that runs reference SQL, read-only.
 *
 * @example
 * ```ts
 * import { openReferenceDatabase, type ReferenceDatabase } from "../../mod.ts";
 * const db: ReferenceDatabase = await openReferenceDatabase("examples/chinook/Chinook_Sqlite.sqlite");
 * (await db.execute("SELECT count(*) AS n FROM Genre"))[0]; // { n: 25 }
 * await db.close();
 * ```
 */
export interface ReferenceDatabase {
  /** Which kind of database: `sqlite`, `postgres` or `pglite`. */
  readonly kind: string;
  /** The database as a person reads it (a path, or a URL without its password). */
  readonly name: string;
  /** The SQL dialect the rules read the agent's SQL in by default. */
  readonly dialect: "sqlite" | "postgres";
  /**
   * Runs one statement, read-only, and returns its rows with their column
   * list. `signal`: when it aborts (the case is over), PGlite stops the
   * statement at once; the others end it at its deadline.
   */
  execute(sql: string, options?: { readonly signal?: AbortSignal }): Promise<ResultRows>;
  /**
   * Resolves when it can take a statement: PGlite's, once a new engine has
   * started after a statement killed the last one. A case's time starts then,
   * so that a case that starts after another's runaway does not pay for it
   * (absent: always ready).
   */
  ready?(): Promise<void>;
  /** Releases the connection (or the in-memory engine). */
  close(): Promise<void>;
}

/**
 * What opening a database for reference SQL takes.
 *
 * @example
 * ```ts
 * import { type OpenDatabaseOptions, openReferenceDatabase } from "../../mod.ts";
 * const options: OpenDatabaseOptions = { statementTimeoutMs: 5_000, connections: 2 };
 * const db = await openReferenceDatabase("examples/chinook/Chinook_Sqlite.sqlite", options);
 * await db.close();
 * ```
 */
export interface OpenDatabaseOptions {
  /** How long one reference statement may run on a server (PostgreSQL's statement_timeout). Default 30 s. */
  readonly statementTimeoutMs?: number | undefined;
  /** At most this many connections to a server at once. Default 4. */
  readonly connections?: number | undefined;
  /**
   * PostgreSQL server: the most bytes one statement's answer may take; past
   * it the statement fails ("the result is larger than N MB"). Default 32 MB, as SQLite's in the worker pool.
   */
  readonly resultLimitBytes?: number | undefined;
  /**
   * PostgreSQL server: accept a login that could read or write the server's
   * files or run programs there (a superuser, or a member of
   * `pg_read_server_files`, `pg_write_server_files` or
   * `pg_execute_server_program`). Default false: such a login is refused,
   * since the SQL a run executes is not ours (`--allow-superuser`).
   */
  readonly allowSuperuser?: boolean | undefined;
  /**
   * SQLite: refuse double-quoted string literals (`--strict-quotes`).
   * Default false: they are read as the sqlite3 library reads them.
   */
  readonly strictQuotes?: boolean | undefined;
}
