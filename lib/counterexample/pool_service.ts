/**
 * The `counterexample` service of the worker pool (lib/isolation): a whole
 * counterexample search on a SQLite database runs in a worker, so the
 * queries it tries (the agent's SQL among them) end at the job's deadline,
 * each step of SQLite's machine within a share of the search's time, and
 * their memory is the worker's, not the process's. The search itself
 * (search.ts) does not know it runs there: every connection it opens in
 * the worker is guarded (lib/sqlite/guard.ts).
 *
 * Before the search, both queries run once on the given database through
 * the `sqlite` service's guarded connection (authorizer, limits): a query
 * that fails there, or that the authorizer refuses (ATTACH, TEMP tables,
 * transactions), is one clear error, not a search that compares nothing.
 *
 * @module
 */
import { SqliteQueryError, UsageError } from "../errors.ts";
import type { JobContext, Service } from "../isolation/service.ts";
import { guardJob, limitSteps } from "../sqlite/guard.ts";
import { runUntrusted } from "../sqlite/pool_service.ts";
import { type CounterexampleOptions, DEFAULT_TIME_LIMIT, findCounterexample } from "./search.ts";

/** A step of SQLite's machine may take at most this share of the search's time. */
const STEP_SHARE = 0.25;
/** ... and at least this many milliseconds. */
const STEP_LEAST_MS = 250;

async function search(options: CounterexampleOptions, job: JobContext): Promise<unknown> {
  guardJob(job);
  const limitMs = (options.timeLimit ?? DEFAULT_TIME_LIMIT) * 1000;
  const stepMs = Math.max(STEP_LEAST_MS, limitMs * STEP_SHARE);
  limitSteps(stepMs);
  try {
    for (
      const [sql, option] of [[options.reference, "--reference"], [
        options.candidate,
        "--candidate",
      ]] as const
    ) {
      try {
        await runUntrusted({ path: options.db, sql, stored: true }, job, stepMs);
      } catch (e) {
        // A query that only runs long on the given database may still be
        // told apart on the small ones the search builds.
        if (e instanceof SqliteQueryError && e.code === 9 && !job.stopRequested()) {
          continue;
        }
        // A query that writes: the search says so in its own words.
        if (e instanceof SqliteQueryError && e.code === 8) continue;
        if (e instanceof SqliteQueryError) {
          throw new UsageError(`${option} fails on ${options.db}: ${e.message}`);
        }
        throw e;
      }
    }
    return await findCounterexample(options);
  } finally {
    limitSteps(Infinity);
  }
}

/**
 * The service: `search` ({@link CounterexampleOptions} to the search's
 * result), and `warm` (the search's modules loaded).
 *
 * @example
 * ```ts ignore
 * // in a worker (lib/isolation/worker.ts loads it):
 * const found = await service.run("search", { db, reference, candidate }, job);
 * ```
 */
export const service: Service = {
  run(op: string, args: unknown, job: JobContext): Promise<unknown> {
    if (op === "search") return search(args as CounterexampleOptions, job);
    if (op === "warm") {
      guardJob(job);
      return Promise.resolve(true);
    }
    return Promise.reject(new Error(`the counterexample service has no operation "${op}"`));
  },
};
