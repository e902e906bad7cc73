/**
 * The embedded default executor: runs SQL read-only on a SQLite file through
 * the WASM engine, so a SQLite user writes no executor of their own.
 *
 * @module
 */
import { rowKeys } from "../row_set.ts";
import type { SqlDialectOptions } from "./database.ts";
import type { WorkerPool } from "../isolation/pool.ts";
import { pooledQuery } from "./pooled.ts";

/**
 * What {@link sqliteExecutor} takes.
 *
 * @example
 * ```ts
 * import { sqliteExecutor, type SqliteExecutorOptions } from "./executor.ts";
 * const options: SqliteExecutorOptions = { timeoutMs: 30_000, strictQuotes: true };
 * const run = sqliteExecutor("examples/chinook/Chinook_Sqlite.sqlite", options);
 * run.close();
 * ```
 */
export interface SqliteExecutorOptions extends SqlDialectOptions {
  /**
   * Stop a statement that runs longer than this (SQLite's progress
   * handler interrupts it): it fails with "did not finish within N s".
   */
  readonly timeoutMs?: number | undefined;
  /** The worker pool the statements run in; default the process's (`defaultPool()`). */
  readonly pool?: WorkerPool | undefined;
}

import { setColumn, type SqliteRow, type SqliteValue } from "./value.ts";

/**
 * Runs one SQL statement and returns its rows as objects.
 *
 * @example
 * ```ts
 * import { defineCase, type Executor, runSuite } from "../../mod.ts";
 * const execute: Executor = async (sql) => (sql.includes("COUNT") ? [{ n: 2 }] : []);
 * const cases = [defineCase({ id: "n", question: "How many?", reference_sql: "SELECT COUNT(*) FROM t" })];
 * (await runSuite(cases, () => ({ rows: [{ total: 2 }] }), { execute })).passed; // 1
 * ```
 */
export type Executor = (sql: string) => Promise<SqliteRow[]>;

/**
 * Rows as objects that also carry their column list, in order: a repeated
 * column name keys its later columns `Name (2)`, `Name (3)`, ... and
 * `columns` keeps the true names, so the row comparison sees both columns.
 * `columns` is not enumerable: the rows print and compare as a plain list.
 *
 * @example
 * ```ts
 * import { type SqliteRows, sqliteExecutor } from "../../mod.ts";
 * const execute = sqliteExecutor("examples/chinook/Chinook_Sqlite.sqlite");
 * const rows: SqliteRows = await execute("SELECT 'a' AS Name, 'b' AS Name");
 * rows; // [{ Name: "a", "Name (2)": "b" }]
 * rows.columns; // ["Name", "Name"]
 * execute.close();
 * ```
 */
export type SqliteRows = SqliteRow[] & { readonly columns: readonly string[] };

/**
 * An executor over one file, with a way to release the file.
 *
 * @example
 * ```ts
 * import { type SqliteExecutor, sqliteExecutor } from "../../mod.ts";
 * const execute: SqliteExecutor = sqliteExecutor("examples/chinook/Chinook_Sqlite.sqlite");
 * await execute("SELECT COUNT(*) AS n FROM Genre"); // [{ n: 25 }]
 * execute.close();
 * ```
 */
export interface SqliteExecutor extends Executor {
  /** Runs one statement; the rows carry their column list. */
  (sql: string, options?: ExecuteOptions): Promise<SqliteRows>;
  /** Lets the connections go; a later call opens the file afresh. */
  close(): void;
  /** The SQLite file it reads: the SQL rules compile the agent's SQL on it too. */
  readonly path: string;
}

/**
 * What one call of a {@link SqliteExecutor} may take beside the SQL.
 *
 * @example
 * ```ts
 * import { type ExecuteOptions, sqliteExecutor } from "./executor.ts";
 * const run = sqliteExecutor("examples/chinook/Chinook_Sqlite.sqlite");
 * const options: ExecuteOptions = { timeoutMs: 30_000, signal: AbortSignal.timeout(60_000) };
 * await run("SELECT count(*) AS n FROM Genre", options); // [{ n: 25 }]
 * run.close();
 * ```
 */
export interface ExecuteOptions {
  /** Stop this statement after this many milliseconds (instead of the executor's `timeoutMs`). */
  readonly timeoutMs?: number | undefined;
  /** Stop it when this aborts. */
  readonly signal?: AbortSignal | undefined;
}

let generations = 0;

/**
 * An executor over a SQLite file. Each statement runs in a worker of the
 * pool (lib/isolation/pool.ts; `options.pool`, by default the process's),
 * which keeps the file open read-only for the statements after; a write
 * fails with "attempt to write a readonly database", SQL with more than one
 * statement fails rather than run only the first, and what would outlive
 * the statement (ATTACH, TEMP objects, transactions) is refused. Integers
 * beyond 2^53 come back as bigint, BLOBs as Uint8Array. The rows carry their
 * column list ({@link SqliteRows}), duplicates kept.
 *
 * @param path the database file
 * @param options `strictQuotes` refuses double-quoted string literals
 * (accepted by default, as the sqlite3 library does); `timeoutMs` stops a
 * statement that runs longer; `pool` the worker pool
 * @returns the executor
 * @example
 * ```ts
 * import { sqliteExecutor } from "./executor.ts";
 * const run = sqliteExecutor("examples/chinook/Chinook_Sqlite.sqlite");
 * await run("SELECT count(*) AS n FROM Genre"); // [{ n: 25 }]
 * run.close();
 * ```
 */
export function sqliteExecutor(path: string, options: SqliteExecutorOptions = {}): SqliteExecutor {
  // A closed executor's connections are not used again: its next
  // statement opens the file afresh (it may have changed meanwhile).
  let key = `${path}#${++generations}`;
  const execute = async (sql: string, call: ExecuteOptions = {}): Promise<SqliteRows> => {
    const timeoutMs = call.timeoutMs ?? options.timeoutMs;
    const reply = await pooledQuery({
      path,
      sql,
      key,
      strictQuotes: options.strictQuotes,
      timeoutMs,
      signal: call.signal,
      pool: options.pool,
      limitName: "--timeout",
    });
    return rowsOf(reply.columns, reply.values as readonly SqliteValue[]);
  };
  return Object.assign(execute, {
    path,
    close(): void {
      key = `${path}#${++generations}`;
    },
  });
}

/**
 * Rows as objects from a column list and the values row after row, every
 * column kept, also two of the same name.
 *
 * @param columns the column names
 * @param values the values, row after row
 * @returns the rows, carrying their column list
 */
export function rowsOf(columns: readonly string[], values: readonly SqliteValue[]): SqliteRows {
  const keys = rowKeys(columns);
  const n = keys.length;
  const rows: SqliteRow[] = [];
  if (n > 0) {
    for (let at = 0; at < values.length; at += n) {
      const row: SqliteRow = {};
      for (let i = 0; i < n; i++) setColumn(row, keys[i]!, values[at + i]!);
      rows.push(row);
    }
  }
  return Object.defineProperty(rows, "columns", {
    value: [...columns],
    enumerable: false,
  }) as SqliteRows;
}
