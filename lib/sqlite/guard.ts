/**
 * The guard of a thread's engine: in a pool worker (lib/isolation), every
 * connection the thread opens gets the worker's limits and a progress
 * handler that stops a statement when the job must stop, so SQL we did not
 * write, and the searches that run it, end at their deadline however they
 * were started (the counterexample search opens its own connections).
 *
 * - SQLITE_LIMIT_LENGTH: no TEXT or BLOB larger than the limit is built
 *   (`zeroblob(1e9)`, `printf('%.*c', 3e8, 'x')` fail at once: "string or
 *   blob too big"); SQLITE_LIMIT_SQL_LENGTH the same for a statement's text.
 * - The engine's memory is capped (`limitSqliteMemory`, set before the
 *   engine loads): an allocation past it fails as "out of memory".
 * - Defensive mode (SQLITE_DBCONFIG_DEFENSIVE): no writable_schema, no
 *   shadow-table writes, no `PRAGMA journal_mode=OFF` games.
 * - The progress handler asks {@link EngineGuard.stop} every
 *   {@link PROGRESS_STEPS} virtual-machine steps.
 *
 * Outside a worker there is no guard, and nothing changes.
 *
 * @module
 */
import type { JobContext } from "../isolation/service.ts";
import { limitSqliteMemory, type Ptr, type Sqlite, useCompiledSqlite } from "./wasm.ts";

/**
 * What a thread's engine runs under.
 *
 * @example
 * ```ts
 * import type { EngineGuard } from "./guard.ts";
 * const guard: EngineGuard = {
 *   maxValueBytes: 32 * 2 ** 20,
 *   memoryBytes: 256 * 2 ** 20,
 *   stop: () => false,
 * };
 * ```
 */
export interface EngineGuard {
  /** The largest TEXT or BLOB, and the longest statement, in bytes. */
  readonly maxValueBytes: number;
  /** The most bytes the engine's memory may grow to. */
  readonly memoryBytes: number;
  /** Whether the statement running now must stop (read from the progress handler). */
  stop(): boolean;
}

/** Steps of SQLite's virtual machine between two calls of the progress handler. */
export const PROGRESS_STEPS = 10_000;

const SQLITE_LIMIT_LENGTH = 0;
const SQLITE_LIMIT_SQL_LENGTH = 1;
const SQLITE_DBCONFIG_DEFENSIVE = 1010;

let current: EngineGuard | undefined;
let job: Pick<JobContext, "stopRequested"> | undefined;
let stepLimitMs = Infinity;
let stepStarted = 0;

/**
 * Called by `Statement.step()` as each step starts, only in a thread with a
 * limit per step (undefined elsewhere, so the diff's hot loops pay nothing).
 */
export let onStepStart: (() => void) | undefined;

/**
 * Limits each `sqlite3_step` call this thread makes to `ms` milliseconds
 * (Infinity for none), beside the job's deadline: a search that tries many
 * databases gives up on one statement that runs away and goes on.
 *
 * @param ms the most milliseconds a step may take
 */
export function limitSteps(ms: number): void {
  stepLimitMs = ms;
  onStepStart = Number.isFinite(ms)
    ? () => {
      stepStarted = performance.now();
    }
    : undefined;
}

/**
 * Guards every connection this thread opens from now on (call it before
 * the engine loads, so the memory cap takes effect).
 *
 * @param guard the limits and the stop test
 * @example
 * ```ts ignore
 * import { guardEngine } from "./guard.ts";
 * // in a pool worker, before the first connection:
 * guardEngine({ maxValueBytes: 2 ** 25, memoryBytes: 2 ** 28, stop: () => job.stopRequested() });
 * ```
 */
export function guardEngine(guard: EngineGuard): void {
  current = guard;
  limitSqliteMemory(guard.memoryBytes);
}

/**
 * Guards this thread's engine for a pool job: the first call guards the
 * engine with the job's limits, and every call makes `context` the job
 * whose stop test the progress handlers read. Every service that runs SQL
 * in a worker calls it as its job starts.
 *
 * @param context the job
 */
export function guardJob(
  context: Pick<JobContext, "limits" | "stopRequested"> & Partial<Pick<JobContext, "modules">>,
): void {
  job = context;
  if (current !== undefined) return;
  const shared = context.modules?.["sqlite"];
  if (shared !== undefined) useCompiledSqlite(shared);
  guardEngine({
    maxValueBytes: context.limits.resultBytes,
    memoryBytes: context.limits.memoryBytes,
    stop: () =>
      (job?.stopRequested() ?? false) ||
      (stepLimitMs !== Infinity && performance.now() - stepStarted > stepLimitMs),
  });
}

/**
 * The thread's guard, or undefined outside a pool worker.
 *
 * @returns the guard
 */
export function engineGuard(): EngineGuard | undefined {
  return current;
}

interface GuardCapi {
  sqlite3_limit(db: Ptr, id: number, value: number): number;
  sqlite3_progress_handler(db: Ptr, n: number, handler: (() => number) | 0, ctx: number): void;
  sqlite3_db_config(db: Ptr, op: number, ...args: number[]): number;
}

/**
 * Applies the thread's guard, if any, to a connection just opened.
 *
 * @param sqlite the engine
 * @param handle the connection
 */
export function guardConnection(sqlite: Sqlite, handle: Ptr): void {
  const guard = current;
  if (guard === undefined) return;
  const capi = sqlite.capi as unknown as GuardCapi;
  capi.sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, guard.maxValueBytes);
  capi.sqlite3_limit(handle, SQLITE_LIMIT_SQL_LENGTH, guard.maxValueBytes);
  capi.sqlite3_db_config(handle, SQLITE_DBCONFIG_DEFENSIVE, 1, 0);
  capi.sqlite3_progress_handler(handle, PROGRESS_STEPS, () => (guard.stop() ? 1 : 0), 0);
}
