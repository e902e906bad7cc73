/**
 * PGlite's clock, read without a busy loop's cost.
 *
 * PGlite has no way to sleep: `pg_sleep` (and anything that waits with
 * `pg_usleep`) reads the clock in a loop until the time is up, 1,500,000 to
 * 5,000,000 reads a second. Each read went through Emscripten's
 * `clock_time_get`, which writes its answer as a new BigInt: under Bun the
 * host process grew by 100-200 MB a second of `pg_sleep` and was stopped by
 * the memory cap, not by the statement's deadline.
 *
 * The clock here writes the time as two 32-bit halves (no BigInt), and once
 * it has been read {@link SPIN_READS} times in a row less than
 * {@link SPIN_GAP_MS} apart, a loop that does nothing but wait, it pauses
 * {@link PAUSE_MS} on each read; each read after {@link END_GAP_MS} of work
 * takes a tenth off the count, so the pauses stop at the first one once the
 * wait is over. A wait of a second is then some ten thousand reads instead
 * of millions: no garbage to speak of and a tenth of a core. The one other
 * thing that reads the clock that often is `EXPLAIN ANALYZE` timing every
 * row of a large plan: past its first 10,000 reads it takes about 0.1 ms a
 * read (20,000 rows: 3-4 s instead of 0.03-0.2 s); `EXPLAIN (ANALYZE,
 * TIMING OFF)` does not read the clock per row.
 *
 * @module
 */

/** Reads in a row, each soon after the last, that make a busy wait. */
export const SPIN_READS = 10_000;
/** "Soon after the last": less than this many milliseconds of work between two reads. */
export const SPIN_GAP_MS = 0.05;
/**
 * A read after this much work (or a collection, or the process waiting
 * for a core) takes a tenth of {@link SPIN_READS} off the count: a busy
 * wait interrupted now and then is still one, and one that is over is known
 * at its first read after real work.
 */
export const END_GAP_MS = 1;
/** How long each read of a busy wait pauses. */
export const PAUSE_MS = 0.05;

/** WASI's `EINVAL`: a clock id that is not one of WASI's four. */
const EINVAL = 28;
const TWO_32 = 2 ** 32;

let reads = 0;
let pauses = 0;

/** How many times the calm clocks of this process were read, and paused (for tests and bench/). */
export function calmClockCounts(): { readonly reads: number; readonly pauses: number } {
  return { reads, pauses };
}

/** WASI's `clock_time_get(id, precision, out)`: writes the time in nanoseconds at `out`. */
export type ClockTimeGet = (id: number, precision: bigint, out: number) => number;

/**
 * A `clock_time_get` over `memory`: clock 0 is the wall clock
 * (`Date.now()`), the others the monotonic one (`performance.now()`), as
 * Emscripten's own.
 *
 * @param memory the engine's memory, where the time is written
 * @returns the import
 */
export function calmClock(memory: WebAssembly.Memory): ClockTimeGet {
  let words = new Uint32Array(memory.buffer);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let returned = -Infinity;
  let inARow = 0;
  return (id, _precision, out) => {
    if (id < 0 || id > 3) return EINVAL;
    reads++;
    const gap = performance.now() - returned;
    if (gap < SPIN_GAP_MS) inARow = Math.min(inARow + 1, SPIN_READS);
    else if (gap >= END_GAP_MS) inARow = Math.max(inARow - SPIN_READS / 10, 0);
    if (inARow >= SPIN_READS) {
      pauses++;
      Atomics.wait(pause, 0, 0, PAUSE_MS);
    }
    returned = performance.now();
    const ns = Math.round((id === 0 ? Date.now() : returned) * 1e6);
    // The memory's buffer is replaced each time it grows.
    if (words.buffer !== memory.buffer) words = new Uint32Array(memory.buffer);
    words[out >>> 2] = ns % TWO_32;
    words[(out >>> 2) + 1] = Math.floor(ns / TWO_32);
    return 0;
  };
}

interface Imports {
  readonly env?: { memory?: unknown; clock_time_get?: unknown };
  readonly wasi_snapshot_preview1?: { clock_time_get?: unknown };
}

/**
 * Runs `make` with every WebAssembly module instantiated meanwhile that
 * imports WASI's clock and its memory given the calm clock: PGlite has no
 * option for its imports, and makes its instance while it starts.
 *
 * @param make starts the engine
 * @returns what `make` returns
 */
export async function withCalmClock<T>(make: () => Promise<T>): Promise<T> {
  const instantiate = WebAssembly.instantiate;
  const calm = (imports: unknown): unknown => {
    const { env, wasi_snapshot_preview1: wasi } = (imports ?? {}) as Imports;
    if (env?.memory instanceof WebAssembly.Memory) {
      const clock = calmClock(env.memory);
      if (wasi?.clock_time_get !== undefined) wasi.clock_time_get = clock;
      if (env.clock_time_get !== undefined) env.clock_time_get = clock;
    }
    return imports;
  };
  WebAssembly.instantiate =
    ((source: BufferSource | WebAssembly.Module, imports?: unknown) =>
      instantiate(
        source as BufferSource,
        calm(imports) as WebAssembly.Imports,
      )) as typeof WebAssembly.instantiate;
  try {
    return await make();
  } finally {
    WebAssembly.instantiate = instantiate;
  }
}
