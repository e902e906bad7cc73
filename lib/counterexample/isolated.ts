/**
 * The counterexample search, run where SQL we did not write belongs: on a
 * SQLite database, the whole search runs in a worker of the pool
 * (pool_service.ts), under a deadline of its time limit and
 * {@link SEARCH_SLACK_S} seconds more (opening the database, shrinking what
 * it found). PostgreSQL searches run as they are (pg_given.ts).
 *
 * @module
 */
import { PoolJobError, UsageError } from "../errors.ts";
import { DATABASE_KINDS } from "../databases/registry.ts";
import { defaultPool, type WorkerPool } from "../isolation/pool.ts";
import { shareSqlite } from "../sqlite/pooled.ts";
import {
  type Counterexample,
  type CounterexampleOptions,
  DEFAULT_TIME_LIMIT,
  findCounterexample,
} from "./search.ts";

/**
 * Seconds a search may take beyond its time limit before it is stopped:
 * the limit is for trying databases; reading the schema and shrinking come
 * on top.
 *
 * @example
 * ```ts
 * import { SEARCH_SLACK_S } from "./isolated.ts";
 * SEARCH_SLACK_S; // 6
 * ```
 */
export const SEARCH_SLACK_S = 6;

/**
 * {@link findCounterexample}, in a worker of the pool when the database is
 * a SQLite file.
 *
 * @param options the database, the two queries and the search's bounds
 * @param pool the pool (default the process's)
 * @returns what was found
 * @throws {UsageError} for a bad option, a query that fails on the given
 * database or is refused there (ATTACH, TEMP tables, ...), or a search that
 * did not end in time
 * @example
 * ```ts
 * import { findCounterexampleIsolated } from "./isolated.ts";
 * const result = await findCounterexampleIsolated({
 *   db: "examples/chinook/Chinook_Sqlite.sqlite",
 *   reference: "SELECT count(*) AS n FROM Track WHERE Milliseconds > 300000",
 *   candidate: "SELECT count(*) AS n FROM Track WHERE Milliseconds >= 300000",
 * });
 * result.found; // true
 * ```
 */
export async function findCounterexampleIsolated(
  options: CounterexampleOptions,
  pool?: WorkerPool,
): Promise<Counterexample> {
  if (DATABASE_KINDS.find((k) => k.matches(options.db))?.name !== "sqlite") {
    return await findCounterexample(options);
  }
  const seconds = (options.timeLimit ?? DEFAULT_TIME_LIMIT) + SEARCH_SLACK_S;
  try {
    return await (await shareSqlite(pool ?? defaultPool())).run({
      service: "counterexample",
      op: "search",
      args: options,
      key: `counterexample:${options.db}`,
      timeoutMs: seconds * 1000,
    }) as Counterexample;
  } catch (e) {
    if (e instanceof PoolJobError && e.reason === "deadline") {
      throw new UsageError(
        `the counterexample search did not finish within ${seconds} s (--time-limit and ${SEARCH_SLACK_S} s to read and shrink): a query it tries ${
          e.message.replace(/^did not finish within [\d.]+ s and /, "")
        }`,
      );
    }
    throw e;
  }
}
