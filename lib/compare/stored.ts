/**
 * Rows with each value's SQLite storage class kept, the form the public
 * benchmarks' scores read: Python's sqlite3 hands an INTEGER as `int` and a
 * REAL as `float`, and test-suite-sql-eval's comparison can tell `3` from
 * `3.0`. Here an INTEGER is a `bigint` and a REAL a `number`.
 *
 * @module
 */
import { SqliteQueryError } from "../errors.ts";
import type { WorkerPool } from "../isolation/pool.ts";
import type { Database } from "../sqlite/database.ts";
import { pooledQuery } from "../sqlite/pooled.ts";

/**
 * A value with its storage class: INTEGER `bigint`, REAL `number`, TEXT
 * `string`, BLOB `Uint8Array`, NULL `null`.
 *
 * @example
 * ```ts
 * import type { StoredValue } from "./stored.ts";
 * const row: StoredValue[] = [3n, 3.0, "3", null];
 * ```
 */
export type StoredValue = bigint | number | string | Uint8Array | null;

/**
 * A query's result: its column names and rows, values with their storage
 * class.
 *
 * @example
 * ```ts
 * import type { StoredRows } from "./stored.ts";
 * const rows: StoredRows = { columns: ["n"], rows: [[2n]] };
 * ```
 */
export interface StoredRows {
  /** The column names, in order; a name may repeat. */
  readonly columns: readonly string[];
  /** The rows, values in column order. */
  readonly rows: readonly (readonly StoredValue[])[];
}

/**
 * Runs one SQL statement on the case's database and returns its rows;
 * throws when the statement fails.
 *
 * @example
 * ```ts
 * import type { StoredExecutor } from "./stored.ts";
 * const execute: StoredExecutor = (_sql) => ({ columns: ["n"], rows: [[1n]] });
 * ```
 */
export type StoredExecutor = (sql: string) => StoredRows | Promise<StoredRows>;

/**
 * A {@link StoredExecutor} over an open database. SQL with no statement
 * (empty, or only comments) gives no rows, as Python's sqlite3 does.
 *
 * @param db the open database (only read)
 * @returns the executor
 * @example
 * ```ts
 * import { openMemoryDatabase } from "../sqlite/database.ts";
 * import { storedExecutor } from "./stored.ts";
 * const db = await openMemoryDatabase();
 * const rows = await storedExecutor(db)("SELECT 3 AS i, 3.0 AS r");
 * rows.rows; // [[3n, 3]]
 * db.close();
 * ```
 */
export function storedExecutor(db: Database): StoredExecutor {
  return (sql: string): StoredRows => {
    if (isEmptySql(sql)) return { columns: [], rows: [] };
    const stmt = db.prepare(sql);
    try {
      const n = stmt.columnNames.length;
      const rows: StoredValue[][] = [];
      while (stmt.step()) {
        const row = new Array<StoredValue>(n);
        for (let i = 0; i < n; i++) {
          const v = stmt.value(i);
          row[i] = typeof v === "number" && stmt.storageClass(i) === "integer" ? BigInt(v) : v;
        }
        rows.push(row);
      }
      return { columns: stmt.columnNames, rows };
    } finally {
      stmt.finalize();
    }
  };
}

/** Only white space, comments and semicolons: no statement to run. */
function isEmptySql(sql: string): boolean {
  return sql.replace(/--[^\n]*(\n|$)|\/\*[\s\S]*?(\*\/|$)|[\s;]/g, "") === "";
}

/**
 * A statement's text as the key of "the same statement": white space runs
 * made one space, trailing semicolons dropped (the scores' rewriting of a
 * query, Spider's DISTINCT removal, can change its spacing and nothing else).
 *
 * @param sql the text
 * @returns the key
 * @example
 * ```ts
 * import { sameStatement } from "./stored.ts";
 * sameStatement("SELECT  a\n FROM t ;"); // "SELECT a FROM t"
 * ```
 */
export function sameStatement(sql: string): string {
  return sql.replace(/\s+/g, " ").replace(/[\s;]+$/, "").trim();
}

/**
 * What {@link pooledStoredExecutor} takes.
 *
 * @example
 * ```ts
 * import type { PooledStoredOptions } from "./stored.ts";
 * const options: PooledStoredOptions = { timeoutMs: 30_000, timedOut: new Set(["SELECT ... runaway"]) };
 * ```
 */
export interface PooledStoredOptions {
  /** Refuse double-quoted string literals. */
  readonly strictQuotes?: boolean | undefined;
  /** Each statement's deadline (the run's `--timeout`). */
  readonly timeoutMs?: number | undefined;
  /**
   * SQL already known to run past the deadline on this file, as
   * {@link sameStatement} keys: it is not run again.
   */
  readonly timedOut?: ReadonlySet<string> | undefined;
  /** The worker pool; default the process's. */
  readonly pool?: WorkerPool | undefined;
  /** Told each statement that timed out (or was known to). */
  readonly onTimeout?: ((sql: string) => void) | undefined;
  /**
   * Statements that failed, by text, with their error: one that fails (a
   * result too large, an error) is not run again for the next score.
   */
  readonly failed?: Map<string, Error> | undefined;
}

/**
 * A {@link StoredExecutor} over a SQLite file whose statements run in the
 * worker pool under a deadline, as the official evaluators run each query
 * under theirs: past it the statement fails with "timed out after N s"
 * (and the question scores 0).
 *
 * @param path the database file (only read)
 * @param options the deadline, the SQL known to time out, the pool
 * @returns the executor
 * @example
 * ```ts
 * import { pooledStoredExecutor } from "./stored.ts";
 * const execute = pooledStoredExecutor("examples/chinook/Chinook_Sqlite.sqlite", { timeoutMs: 30_000 });
 * (await execute("SELECT 3 AS i, 3.0 AS r")).rows; // [[3n, 3]]
 * ```
 */
export function pooledStoredExecutor(
  path: string,
  options: PooledStoredOptions = {},
): StoredExecutor {
  const ms = options.timeoutMs;
  const timedOut = (sql: string) => {
    options.onTimeout?.(sql);
    return new SqliteQueryError(
      sql,
      9,
      `timed out after ${Number(((ms ?? 0) / 1000).toFixed(3))} s (--timeout)`,
    );
  };
  return async (sql: string): Promise<StoredRows> => {
    if (options.timedOut?.has(sameStatement(sql)) === true) throw timedOut(sql);
    const known = options.failed?.get(sql);
    if (known !== undefined) throw known;
    let reply;
    try {
      reply = await pooledQuery({
        path,
        sql,
        stored: true,
        strictQuotes: options.strictQuotes,
        timeoutMs: ms,
        pool: options.pool,
      });
    } catch (e) {
      const error = e instanceof SqliteQueryError && e.code === 9 && ms !== undefined
        ? timedOut(sql)
        : e;
      // A timeout is not kept: the next score runs the statement again
      // (the run's own timeouts are `timedOut` already).
      if (error instanceof SqliteQueryError && error.code !== 9) options.failed?.set(sql, error);
      throw error;
    }
    const n = reply.columns.length;
    const rows: StoredValue[][] = [];
    const values = reply.values as readonly StoredValue[];
    for (let at = 0; n > 0 && at < values.length; at += n) rows.push(values.slice(at, at + n));
    return { columns: reply.columns, rows };
  };
}
