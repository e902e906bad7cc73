/**
 * The `counterexample` service of the worker pool (lib/isolation): a whole
 * counterexample search on a SQLite database runs in a worker, so the
 * queries it tries (the agent's SQL among them) end at the job's deadline
 * and take no memory from the process. The search itself (search.ts) does
 * not know it runs there: every connection it opens in the worker is
 * guarded (lib/sqlite/guard.ts).
 *
 * @module
 */
import type { JobContext, Service } from "../isolation/service.ts";
import { guardJob } from "../sqlite/guard.ts";
import { type CounterexampleOptions, findCounterexample } from "./search.ts";

/**
 * The service: `search` ({@link CounterexampleOptions} to the search's
 * result).
 *
 * @example
 * ```ts ignore
 * // in a worker (lib/isolation/worker.ts loads it):
 * const found = await service.run("search", { db, reference, candidate }, job);
 * ```
 */
export const service: Service = {
  async run(op: string, args: unknown, job: JobContext): Promise<unknown> {
    guardJob(job);
    if (op === "search") return await findCounterexample(args as CounterexampleOptions);
    throw new Error(`the counterexample service has no operation "${op}"`);
  },
};
