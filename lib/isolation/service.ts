/**
 * The contract between the worker pool (pool.ts, the main thread) and the
 * services its workers host (worker.ts): what a service is, what a job
 * tells it, and the limits every engine in a worker runs under.
 *
 * A service is the worker half of one kind of work, one module per kind,
 * loaded in a worker the first time a job names it: `sqlite`
 * (lib/sqlite/pool_service.ts: untrusted SQL on a SQLite file) and
 * `counterexample` (lib/counterexample/pool_service.ts: a whole search).
 * Adding one is one module exporting `service`, one name in
 * {@link ServiceName}, and one line in worker.ts's table (a missing line
 * does not compile). Every service takes the operation `warm`: load what
 * its jobs need, so a worker started ahead of them is ready.
 *
 * @module
 */

/**
 * The services a worker can host.
 *
 * @example
 * ```ts
 * import type { ServiceName } from "./service.ts";
 * const name: ServiceName = "sqlite";
 * ```
 */
export type ServiceName = "sqlite" | "counterexample";

/**
 * The limits every engine in the pool's workers runs under, in bytes.
 *
 * @example
 * ```ts
 * import { DEFAULT_LIMITS, type EngineLimits } from "./service.ts";
 * const raised: EngineLimits = { ...DEFAULT_LIMITS, resultBytes: 128 * 2 ** 20 };
 * ```
 */
export interface EngineLimits {
  /**
   * The largest value (TEXT or BLOB) SQLite may build, and the largest
   * result a query may return (its values' bytes: 8 for a number or NULL).
   */
  readonly resultBytes: number;
  /** The most WebAssembly memory one engine may grow to (its heap). */
  readonly memoryBytes: number;
  /** The most bytes of temporary files all the workers' engines may hold at once. */
  readonly tempBytes: number;
}

const MB = 2 ** 20;

/**
 * The default limits: results and values of 32 MB, 256 MB of memory per
 * engine, 2 GB of temporary files. `run --max-result-mb N` sets the first
 * and raises the memory to 8 N MB when that is more.
 *
 * @example
 * ```ts
 * import { DEFAULT_LIMITS } from "./service.ts";
 * DEFAULT_LIMITS.resultBytes / 2 ** 20; // 32
 * ```
 */
export const DEFAULT_LIMITS: EngineLimits = {
  resultBytes: 32 * MB,
  memoryBytes: 256 * MB,
  tempBytes: 2048 * MB,
};

/**
 * The limits for a largest result of `mb` megabytes (`--max-result-mb`):
 * the memory per engine is 8 times that, at least the default.
 *
 * @param mb the largest result and value, in MB
 * @param tempMb the most temporary files at once, in MB (`--max-temp-mb`)
 * @returns the limits
 * @example
 * ```ts
 * import { limitsForResultMb } from "./service.ts";
 * limitsForResultMb(100).memoryBytes / 2 ** 20; // 800
 * ```
 */
export function limitsForResultMb(mb: number, tempMb?: number): EngineLimits {
  return {
    resultBytes: Math.round(mb * MB),
    memoryBytes: Math.max(DEFAULT_LIMITS.memoryBytes, Math.round(8 * mb * MB)),
    tempBytes: tempMb === undefined ? DEFAULT_LIMITS.tempBytes : Math.round(tempMb * MB),
  };
}

/**
 * What a running job tells its service.
 *
 * @example
 * ```ts
 * import type { JobContext } from "./service.ts";
 * // a service's loop that stops when asked
 * function countUp(job: JobContext): number {
 *   let n = 0;
 *   while (!job.stopRequested() && n < 1_000) n++;
 *   return n;
 * }
 * ```
 */
export interface JobContext {
  /** The limits of this worker's engines. */
  readonly limits: EngineLimits;
  /**
   * Compiled WebAssembly modules the pool shares (`WorkerPool.share`), by
   * name: an engine instantiates one instead of compiling its own.
   */
  readonly modules: Readonly<Record<string, WebAssembly.Module>>;
  /** The job's deadline, in this thread's `performance.now()` milliseconds (Infinity for none). */
  readonly deadline: number;
  /**
   * Whether the job must stop now: its deadline has passed or the main
   * thread cancelled it. Cheap: read it from a progress handler.
   */
  stopRequested(): boolean;
  /** Why it must stop, once {@link stopRequested} is true. */
  stopReason(): "deadline" | "cancelled" | undefined;
  /**
   * Asks for this worker to be replaced once the job has answered: its
   * memory grew, or its engine's state is in doubt.
   */
  retire(): void;
}

/**
 * The worker half of one kind of work.
 *
 * @example
 * ```ts
 * import type { Service } from "./service.ts";
 * export const service: Service = {
 *   run: (op, args) => (op === "echo" ? args : Promise.reject(new Error(`no op ${op}`))),
 * };
 * ```
 */
export interface Service {
  /**
   * Runs one operation. Its return value travels back by structured clone;
   * a throw fails the job with the error's class, message and fields (see
   * _wire.ts).
   */
  run(op: string, args: unknown, job: JobContext): unknown;
  /** Releases what the service holds (engines, files) before its worker ends. */
  close?(): void | Promise<void>;
}
