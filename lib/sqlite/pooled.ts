/**
 * The main thread's half of the `sqlite` pool service (pool_service.ts):
 * one statement on a SQLite file, run in a pool worker under a deadline,
 * its rows built here from the column list and the flat values the worker
 * sends (a flat list of values costs far less to copy between threads than
 * an object a row).
 *
 * @module
 */
import { PoolJobError, SqliteQueryError } from "../errors.ts";
import { defaultPool, type WorkerPool } from "../isolation/pool.ts";
import { checkSqliteFile } from "./file_check.ts";
import { compileSqlite } from "./wasm.ts";
import type { QueryArgs, QueryReply } from "./pool_service.ts";

const SQLITE_INTERRUPT = 9;

/**
 * One statement for the pool.
 *
 * @example
 * ```ts
 * import { pooledQuery, type PooledQuery } from "./pooled.ts";
 * const q: PooledQuery = { path: "examples/chinook/Chinook_Sqlite.sqlite", sql: "SELECT 1 AS one", timeoutMs: 30_000 };
 * (await pooledQuery(q)).values; // [1]
 * ```
 */
export interface PooledQuery extends QueryArgs {
  /** Stop the statement after this many milliseconds (from when a worker takes it). */
  readonly timeoutMs?: number | undefined;
  /** Stop it when this aborts (the case timed out). */
  readonly signal?: AbortSignal | undefined;
  /** The pool; default {@link defaultPool}. */
  readonly pool?: WorkerPool | undefined;
  /** What the deadline is called in the message, e.g. "--timeout". */
  readonly limitName?: string | undefined;
  /** The worker-affinity key (default the path): connections are kept per key. */
  readonly key?: string | undefined;
}

/**
 * Gives a pool the engine's compiled WebAssembly module, once, so that its
 * workers instantiate it rather than compile their own.
 *
 * @param pool the pool (default the process's)
 * @returns when the module is shared
 */
export async function shareSqlite(pool: WorkerPool = defaultPool()): Promise<WorkerPool> {
  if (pool.shared("sqlite") === undefined) pool.share("sqlite", await compileSqlite());
  return pool;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/**
 * Runs one statement in a pool worker.
 *
 * @param q the file, the statement, the deadline
 * @returns the column names and the values, row after row
 * @throws {SqliteOpenError} when the file cannot be opened; a
 * {@link SqliteQueryError} when the statement fails, is refused, runs past
 * its deadline ("did not finish within N s"), or its result or a value is
 * too large
 */
export async function pooledQuery(q: PooledQuery): Promise<QueryReply> {
  const args: QueryArgs = {
    path: q.path,
    sql: q.sql,
    key: q.key ?? q.path,
    ...(q.strictQuotes === true ? { strictQuotes: true } : {}),
    ...(q.stored === true ? { stored: true } : {}),
  };
  const pool = q.pool ?? defaultPool();
  // The first worker compiles the engine itself; once statements wait for
  // a worker (slow ones overlapping), the ones after it instantiate the
  // module compiled here meanwhile.
  if (pool.shared("sqlite") === undefined) {
    const { workers, busy, queued } = pool.stats();
    if (queued > 0 || (workers > 0 && busy === workers)) void shareSqlite(pool).catch(() => {});
  }
  try {
    return await pool.run({
      service: "sqlite",
      op: "query",
      args,
      key: q.key ?? q.path,
      timeoutMs: q.timeoutMs,
      signal: q.signal,
    }) as QueryReply;
  } catch (e) {
    const late = (e instanceof SqliteQueryError && e.code === SQLITE_INTERRUPT &&
      e.message === "deadline") || (e instanceof PoolJobError && e.reason === "deadline");
    if (late && q.timeoutMs !== undefined) {
      const stuck = e instanceof PoolJobError
        ? "; SQLite could not interrupt it, and its worker was replaced"
        : "";
      throw new SqliteQueryError(
        q.sql,
        SQLITE_INTERRUPT,
        `the SQL did not finish within ${seconds(q.timeoutMs)}${
          q.limitName === undefined ? "" : ` (${q.limitName})`
        }${stuck}`,
      );
    }
    if (e instanceof SqliteQueryError && e.code === SQLITE_INTERRUPT) {
      throw new SqliteQueryError(q.sql, SQLITE_INTERRUPT, "the SQL was stopped (cancelled)");
    }
    throw e;
  }
}

/**
 * Opens a database in a pool worker, so that a missing, damaged or
 * unreadable file fails now, before any statement.
 *
 * @param path the database file
 * @param options `strictQuotes`, and the pool (default {@link defaultPool})
 * @throws {SqliteOpenError} when it cannot be opened
 */
export async function checkPooledDatabase(
  path: string,
  options: { readonly strictQuotes?: boolean | undefined; readonly pool?: WorkerPool | undefined } =
    {},
): Promise<void> {
  // The common mistakes (missing, a folder, not SQLite) without a worker.
  checkSqliteFile(path);
  await (options.pool ?? defaultPool()).run({
    service: "sqlite",
    op: "check",
    args: { path, sql: "", ...(options.strictQuotes === true ? { strictQuotes: true } : {}) },
    key: path,
  });
}
