/**
 * The worker pool: SQL we did not write runs here, off the main thread, so
 * that a deadline is a deadline and the main thread stays free to print,
 * overlap slow queries and honour Ctrl-C.
 *
 * A pool is at most `size` workers (`node:worker_threads`, which Deno, Bun
 * and the compiled binary all run), started when jobs need them: the
 * first at once, each other one when a job has waited a moment for a busy
 * worker (so quick statements share one thread, and slow ones overlap). Each
 * worker hosts services (service.ts), each service keeping what it opens
 * (a SQLite connection per database, a PGlite) for the jobs after. A job
 * names its service, an operation and its arguments:
 *
 * ```ts ignore
 * const rows = await pool.run({
 *   service: "sqlite", op: "query", args: { path, sql },
 *   key: path,          // prefer a worker that has this database open already
 *   timeoutMs: 30_000,  // the deadline, from now (waiting for a worker counts)
 *   signal,             // cancel it early (the case timed out, Ctrl-C)
 * });
 * ```
 *
 * Deadlines and cancelling: the worker itself watches the job's deadline,
 * and a cancel reaches it through shared memory (an Int32 slot the main
 * thread writes the job's id into), which the service reads from SQLite's
 * progress handler (`JobContext.stopRequested()`), so the statement is
 * interrupted in the worker and the service answers with its own error.
 * A worker that has not answered `graceMs` after the deadline (or the
 * cancel) is given up: the job fails with a {@link PoolJobError}, the
 * worker is terminated and unreferenced, and a new one takes its place
 * for the next job. Deno and Bun cannot stop a thread inside a long
 * WebAssembly call, so such a thread runs on until its step ends or the
 * process exits; it no longer holds a place in the pool nor keeps the
 * process alive.
 *
 * Pipelining: a worker whose job has just started is sent up to
 * {@link PIPELINE_DEPTH} more, which it runs one after another as soon as
 * each is done, so quick statements do not wait for their round trip to
 * the main thread and back (0.1-0.3 ms under Deno, more when the main
 * thread is busy with a run's output). Each job sent has a cell in the
 * slot's shared `claims` ring: the worker claims it before it starts
 * (compare-and-swap of its id to minus its id), and the main thread may
 * take a job back that is not claimed yet (its id to 0): when the job
 * ahead of it has run {@link SPAWN_AFTER_MS} (a slow statement), when it
 * is cancelled, and when its worker is given up, so a job queued behind a
 * runaway moves to another worker as it would have from the pool's queue.
 *
 * Idle workers are unreferenced, so a pool never keeps a process alive;
 * `close()` ends them. A service may ask for its worker to be replaced
 * after a job (`JobContext.retire()`: its WebAssembly memory grew, which
 * never shrinks). {@link defaultPool} is the process's pool, which every
 * executor uses unless given one.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { setImmediate } from "node:timers";
import { Worker } from "node:worker_threads";
import { PoolJobError } from "../errors.ts";
import { DEFAULT_LIMITS, type EngineLimits, type ServiceName } from "./service.ts";
import {
  errorFromWire,
  type JobMessage,
  type ReadyMessage,
  type ReplyMessage,
  type WorkerStart,
} from "./_wire.ts";

/**
 * How a pool runs.
 *
 * @example
 * ```ts
 * import { type PoolOptions, WorkerPool } from "./pool.ts";
 * const options: PoolOptions = { size: 2, graceMs: 500 };
 * const pool = new WorkerPool(options);
 * await pool.close();
 * ```
 */
export interface PoolOptions {
  /** Most workers at once (jobs beyond wait their turn). Default 4. */
  readonly size?: number | undefined;
  /**
   * Milliseconds a job may take to stop after its deadline or a cancel
   * before its worker is given up. Default 1000.
   */
  readonly graceMs?: number | undefined;
  /** The limits of every engine in the workers. Default {@link DEFAULT_LIMITS}. */
  readonly limits?: EngineLimits | undefined;
}

/**
 * One job for the pool.
 *
 * @example
 * ```ts
 * import type { PoolJob } from "./pool.ts";
 * const job: PoolJob = {
 *   service: "sqlite",
 *   op: "query",
 *   args: { path: "examples/chinook/Chinook_Sqlite.sqlite", sql: "SELECT 1" },
 *   key: "examples/chinook/Chinook_Sqlite.sqlite",
 *   timeoutMs: 30_000,
 * };
 * ```
 */
export interface PoolJob {
  readonly service: ServiceName;
  readonly op: string;
  /** Anything structured clone can copy. */
  readonly args: unknown;
  /** A worker that ran a job of the same key is preferred (what it opened is still open). */
  readonly key?: string | undefined;
  /**
   * The deadline, in milliseconds from when the job is given to the pool:
   * time spent waiting for a worker counts (a case's time does too).
   */
  readonly timeoutMs?: number | undefined;
  /** Cancels the job, queued or running. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * What a pool has done, for tests and benchmarks.
 *
 * @example
 * ```ts
 * import { type PoolStats, WorkerPool } from "./pool.ts";
 * const pool = new WorkerPool();
 * const stats: PoolStats = pool.stats();
 * stats.workers; // 0: none is started before a job needs one
 * ```
 */
export interface PoolStats {
  /** Workers alive now. */
  readonly workers: number;
  /** Of those, running a job. */
  readonly busy: number;
  /** Jobs waiting for a worker. */
  readonly queued: number;
  /** Workers started so far. */
  readonly started: number;
  /** Workers given up (a job past its deadline or cancel that did not stop). */
  readonly abandoned: number;
  /** Workers replaced because their service asked (memory grew). */
  readonly retired: number;
}

interface Running {
  readonly id: number;
  readonly job: PoolJob;
  /** The deadline, in `Date.now()` milliseconds (a clock every thread shares). */
  readonly deadline?: number | undefined;
  /** When it was given to the pool (`performance.now()`). */
  readonly queuedAt: number;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  timer?: ReturnType<typeof setTimeout> | undefined;
  onAbort?: (() => void) | undefined;
  /** Its cell in its slot's claims ring, once sent to a worker. */
  seq?: number | undefined;
  /** Cancelled after its worker claimed it, before the main thread saw it start. */
  cancelPending?: boolean | undefined;
}

interface Slot {
  readonly worker: Worker;
  readonly cancel: Int32Array;
  /** One cell per job sent: its id, minus its id once the worker claimed it, 0 if taken back. */
  readonly claims: Int32Array;
  /** Sent behind the running job, oldest first (see the module comment). */
  readonly queued: Running[];
  /** Jobs sent so far, for the next claims cell. */
  sent: number;
  /** The keys of recent jobs, newest last. */
  readonly keys: string[];
  running: Running | undefined;
  /** When its running job was given to it (`performance.now()`). */
  runningSince: number;
  gone: boolean;
  /** The worker said it can take jobs: deadlines are counted from then. */
  ready: boolean;
  /** Services being loaded ahead of jobs (warm), by message id. */
  readonly loading: Map<number, () => void>;
}

const KEYS_REMEMBERED = 16;

/** How long a job waits for a busy worker before another is started for it. */
const SPAWN_AFTER_MS = 100;

/** Jobs sent to a worker behind the one it runs. */
const PIPELINE_DEPTH = 3;

/** A job is sent behind a running one only while that one has run less than this. */
const PIPELINE_WHILE_MS = 10;

/** Cells in a slot's claims ring: more than a worker can hold at once. */
const CLAIMS = 16;

/**
 * A pool of workers that run jobs for services (see the module comment).
 *
 * @example
 * ```ts
 * import { WorkerPool } from "./pool.ts";
 * const pool = new WorkerPool({ size: 1 });
 * const reply = await pool.run({
 *   service: "sqlite",
 *   op: "query",
 *   args: { path: "examples/chinook/Chinook_Sqlite.sqlite", sql: "SELECT count(*) AS n FROM Genre" },
 *   timeoutMs: 30_000,
 * }) as { columns: string[]; values: unknown[] };
 * reply.values; // [25]
 * await pool.close();
 * ```
 */
export class WorkerPool {
  readonly #size: number;
  readonly #graceMs: number;
  readonly #limits: EngineLimits;
  readonly #tempUsage = new SharedArrayBuffer(8);
  readonly #modules: Record<string, WebAssembly.Module> = {};
  readonly #slots: Slot[] = [];
  readonly #queue: Running[] = [];
  #nextId = 1;
  #spawnTimer: ReturnType<typeof setTimeout> | undefined;
  #watchTimer: ReturnType<typeof setTimeout> | undefined;
  #started = 0;
  #abandoned = 0;
  #retired = 0;
  #closed = false;

  /** @param options size, grace and limits */
  constructor(options: PoolOptions = {}) {
    this.#size = Math.max(1, Math.floor(options.size ?? 4));
    this.#graceMs = options.graceMs ?? 1000;
    this.#limits = options.limits ?? DEFAULT_LIMITS;
  }

  /** The limits of this pool's engines. */
  get limits(): EngineLimits {
    return this.#limits;
  }

  /** The most workers at once. */
  get size(): number {
    return this.#size;
  }

  /**
   * Runs a job on a worker.
   *
   * @param job the service, operation, arguments, key, deadline and signal
   * @returns what the service answered
   * @throws the service's error, as its own class; a {@link PoolJobError}
   * when the job was cancelled, ran past its deadline and did not stop,
   * its worker crashed or the pool closed
   */
  run(job: PoolJob): Promise<unknown> {
    if (this.#closed) {
      return Promise.reject(new PoolJobError("closed", "the worker pool is closed"));
    }
    if (job.signal?.aborted === true) return Promise.reject(cancelled(job.signal));
    return new Promise<unknown>((resolve, reject) => {
      const running: Running = {
        id: this.#nextId++,
        job,
        resolve,
        reject,
        queuedAt: performance.now(),
        ...(job.timeoutMs !== undefined && Number.isFinite(job.timeoutMs)
          ? { deadline: Date.now() + job.timeoutMs }
          : {}),
      };
      if (job.signal !== undefined) {
        const signal = job.signal;
        running.onAbort = () => this.#cancel(running, signal);
        signal.addEventListener("abort", running.onAbort, { once: true });
      }
      this.#queue.push(running);
      this.#dispatch();
    });
  }

  /**
   * Starts workers ahead of their first jobs, so that no job's deadline
   * pays for a thread's start: up to `workers` of them (at most the pool's
   * size), each with `service` loaded (its `warm` operation).
   *
   * @param workers how many
   * @param service the service to load in each
   * @returns when they are ready
   */
  async warm(workers: number, service: ServiceName): Promise<void> {
    const loads: Promise<void>[] = [];
    const want = Math.min(this.#size, workers);
    for (let i = this.#slots.filter((s) => !s.gone).length; i < want; i++) {
      const slot = this.#spawn();
      if (slot === undefined) break;
      loads.push(this.#load(slot, service));
    }
    await Promise.all(loads);
  }

  /**
   * Loads a service in a worker without holding it: a job may be sent to
   * it meanwhile, and runs once the thread is up.
   */
  #load(slot: Slot, service: ServiceName): Promise<void> {
    return new Promise<void>((resolve) => {
      const id = this.#nextId++;
      slot.loading.set(id, () => {
        if (slot.running === undefined && slot.loading.size === 0) slot.worker.unref();
        resolve();
      });
      // Referenced while it loads: a command awaiting it must not end meanwhile.
      slot.worker.ref();
      slot.worker.postMessage({ id, service, op: "warm", args: null } satisfies JobMessage);
    });
  }

  /**
   * Gives the workers started from now on a compiled WebAssembly module
   * (`JobContext.modules[name]`), so that each instantiates it instead of
   * compiling its own: a worker starts sooner and costs less.
   *
   * @param name the module's name (`sqlite`)
   * @param module the compiled module
   */
  share(name: string, module: WebAssembly.Module): void {
    this.#modules[name] = module;
  }

  /** The modules shared so far, by name. */
  shared(name: string): WebAssembly.Module | undefined {
    return this.#modules[name];
  }

  /** What the pool has done so far. */
  stats(): PoolStats {
    const live = this.#slots.filter((s) => !s.gone);
    return {
      workers: live.length,
      busy: live.filter((s) => s.running !== undefined).length,
      queued: this.#queue.length + live.reduce((n, s) => n + s.queued.length, 0),
      started: this.#started,
      abandoned: this.#abandoned,
      retired: this.#retired,
    };
  }

  /**
   * Ends every worker; queued and running jobs fail with a
   * {@link PoolJobError}. The pool takes no job after.
   *
   * @param options `exiting`: the process ends next, so idle workers are
   * only let go (unreferenced, as they are already), not terminated: they
   * end with the process. Terminating one is not free (Bun tears its heap
   * down first: 15-150 ms after a counterexample search), and a command's
   * last step need not wait for it.
   */
  async close(options: { readonly exiting?: boolean } = {}): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#spawnTimer);
    clearTimeout(this.#watchTimer);
    for (const r of this.#queue.splice(0)) {
      this.#settle(r);
      r.reject(new PoolJobError("closed", "the worker pool closed before the job ran"));
    }
    const ending: Promise<unknown>[] = [];
    for (const slot of this.#slots.splice(0)) {
      for (const loaded of slot.loading.values()) loaded();
      slot.loading.clear();
      for (const q of slot.queued.splice(0)) {
        this.#settle(q);
        q.reject(new PoolJobError("closed", "the worker pool closed before the job ran"));
      }
      const r = slot.running;
      slot.running = undefined;
      slot.gone = true;
      if (r !== undefined) {
        this.#settle(r);
        r.reject(new PoolJobError("closed", "the worker pool closed while the job ran"));
        // A busy thread may not stop (see the module comment): do not wait for it.
        slot.worker.unref();
        void slot.worker.terminate().catch(() => {});
      } else if (options.exiting === true) slot.worker.unref();
      else ending.push(slot.worker.terminate().catch(() => {}));
    }
    await Promise.all(ending);
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const next = this.#queue[0]!;
      // The first worker at once; another only when a job has waited
      // SPAWN_AFTER_MS for one (quick statements share a worker or two, so
      // the common case costs no thread's memory; slow ones get a thread each).
      const slot = this.#idleSlot(next.job.key) ??
        (this.#slots.length === 0 ? this.#spawn() : this.#pipelineSlot() ?? this.#spawnSoon());
      if (slot === undefined) return;
      this.#queue.shift();
      this.#start(slot, next);
    }
  }

  #spawnSoon(): undefined {
    if (this.#spawnTimer !== undefined || this.#slots.length >= this.#size) return undefined;
    const first = this.#queue[0];
    const waited = first === undefined ? 0 : performance.now() - first.queuedAt;
    this.#spawnTimer = setTimeout(() => {
      // After the replies that arrived meanwhile: a main thread busy with
      // other work (a run's output, its agent) makes a quick job look as if
      // it waited, when its worker answered long ago.
      setImmediate(() => {
        this.#spawnTimer = undefined;
        if (this.#closed || this.#queue.length === 0) return;
        const now = performance.now();
        // Only for a job that has waited the whole time, not one just
        // queued, and behind workers each busy with one job for that long
        // (a slow statement), not a queue of quick ones moving.
        if (
          now - this.#queue[0]!.queuedAt < SPAWN_AFTER_MS ||
          this.#slots.some((s) =>
            !s.gone && (s.running === undefined || now - s.runningSince < SPAWN_AFTER_MS)
          )
        ) {
          this.#dispatch();
          if (this.#queue.length > 0) this.#spawnSoon();
          return;
        }
        this.#spawn();
        this.#dispatch();
      });
    }, Math.max(1, SPAWN_AFTER_MS - waited));
    return undefined;
  }

  /** A worker whose job has just started, with room behind it: the least loaded. */
  #pipelineSlot(): Slot | undefined {
    const now = performance.now();
    let best: Slot | undefined;
    for (const s of this.#slots) {
      if (s.gone || !s.ready || s.loading.size > 0 || s.running === undefined) continue;
      if (s.queued.length >= PIPELINE_DEPTH || now - s.runningSince >= PIPELINE_WHILE_MS) continue;
      if (best === undefined || s.queued.length < best.queued.length) best = s;
    }
    return best;
  }

  /**
   * While jobs wait behind running ones in workers: those behind a job that
   * has run {@link SPAWN_AFTER_MS} come back to the pool's queue (where one
   * that has waited that long gets a worker of its own).
   */
  #watch(): void {
    if (this.#watchTimer !== undefined || this.#closed) return;
    this.#watchTimer = setTimeout(() => {
      // After the replies that arrived meanwhile (see #spawnSoon).
      setImmediate(() => {
        this.#watchTimer = undefined;
        if (this.#closed) return;
        const now = performance.now();
        let back = false;
        for (const s of this.#slots) {
          if (s.queued.length > 0 && now - s.runningSince >= SPAWN_AFTER_MS) {
            back = this.#takeBack(s).length > 0 || back;
          }
        }
        if (back) this.#dispatch();
        if (this.#slots.some((s) => s.queued.length > 0)) this.#watch();
      });
    }, SPAWN_AFTER_MS / 2);
  }

  /** Takes back a job its worker has not claimed: true when it was still unclaimed. */
  #unclaim(slot: Slot, r: Running): boolean {
    const at = r.seq! % CLAIMS;
    if (Atomics.compareExchange(slot.claims, at, r.id, 0) !== r.id) return false;
    slot.queued.splice(slot.queued.indexOf(r), 1);
    return true;
  }

  /**
   * The jobs behind a slot's running one that its worker has not claimed,
   * back at the head of the pool's queue in their order; those it claimed
   * stay (it has moved past the running job, whose answer is on its way).
   */
  #takeBack(slot: Slot): Running[] {
    const back = [...slot.queued].filter((r) => this.#unclaim(slot, r));
    this.#queue.unshift(...back);
    return back;
  }

  #idleSlot(key: string | undefined): Slot | undefined {
    // A ready worker with the key's database open, then any ready one, then
    // one still starting (the job runs once it is up).
    let ready: Slot | undefined;
    let starting: Slot | undefined;
    for (const s of this.#slots) {
      if (s.gone || s.running !== undefined) continue;
      if (!s.ready || s.loading.size > 0) {
        starting ??= s;
        continue;
      }
      if (key !== undefined && s.keys.includes(key)) return s;
      ready ??= s;
    }
    return ready ?? starting;
  }

  #spawn(): Slot | undefined {
    if (this.#slots.length >= this.#size) return undefined;
    const cancel = new SharedArrayBuffer(4);
    const claims = new SharedArrayBuffer(4 * CLAIMS);
    const start: WorkerStart = {
      limits: this.#limits,
      cancel,
      claims,
      tempUsage: this.#tempUsage,
      modules: this.#modules,
    };
    const worker = new Worker(workerUrl(), { workerData: start });
    this.#started++;
    const slot: Slot = {
      worker,
      cancel: new Int32Array(cancel),
      claims: new Int32Array(claims),
      queued: [],
      sent: 0,
      keys: [],
      running: undefined,
      runningSince: 0,
      gone: false,
      ready: false,
      loading: new Map(),
    };
    worker.on("message", (m: ReplyMessage | ReadyMessage) => {
      if ("ready" in m) {
        slot.ready = true;
        if (slot.running !== undefined) this.#arm(slot, slot.running);
      } else this.#reply(slot, m);
    });
    worker.on("error", (e: Error) => this.#lost(slot, `its worker failed: ${e.message}`));
    worker.on("exit", (code: number) => this.#lost(slot, `its worker exited with code ${code}`));
    worker.unref();
    this.#slots.push(slot);
    return slot;
  }

  #start(slot: Slot, r: Running): void {
    const behind = slot.running !== undefined;
    if (behind) slot.queued.push(r);
    else {
      slot.running = r;
      slot.runningSince = performance.now();
    }
    r.seq = slot.sent++;
    Atomics.store(slot.claims, r.seq % CLAIMS, r.id);
    const key = r.job.key;
    if (key !== undefined) {
      const at = slot.keys.indexOf(key);
      if (at >= 0) slot.keys.splice(at, 1);
      slot.keys.push(key);
      if (slot.keys.length > KEYS_REMEMBERED) slot.keys.shift();
    }
    const message: JobMessage = {
      id: r.id,
      seq: r.seq,
      service: r.job.service,
      op: r.job.op,
      args: r.job.args,
      ...(r.deadline !== undefined ? { deadline: r.deadline } : {}),
    };
    slot.worker.ref();
    slot.worker.postMessage(message);
    if (behind) this.#watch();
    else if (slot.ready) this.#arm(slot, r);
  }

  /** The deadline's watch on the main thread: the worker's own, plus the grace. */
  #arm(slot: Slot, r: Running): void {
    if (r.deadline !== undefined && r.timer === undefined) {
      const left = Math.max(0, r.deadline - Date.now());
      r.timer = setTimeout(() => this.#late(slot, r, "deadline"), left + this.#graceMs);
    }
  }

  #cancel(r: Running, signal: AbortSignal): void {
    const queued = this.#queue.indexOf(r);
    if (queued >= 0) {
      this.#queue.splice(queued, 1);
      this.#settle(r);
      r.reject(cancelled(signal));
      return;
    }
    const behind = this.#slots.find((s) => s.queued.includes(r));
    if (behind !== undefined) {
      if (this.#unclaim(behind, r)) {
        this.#settle(r);
        r.reject(cancelled(signal));
        return;
      }
      // Its worker has started it: stopped there, and watched from when its answer is due.
      Atomics.store(behind.cancel, 0, r.id);
      r.cancelPending = true;
      return;
    }
    const slot = this.#slots.find((s) => s.running === r);
    if (slot === undefined) return;
    Atomics.store(slot.cancel, 0, r.id);
    if (!slot.ready) {
      // The worker will see the cancel as it takes the job, and answer at
      // once; until then the slot stays its.
      this.#settle(r);
      r.reject(cancelled(signal));
      return;
    }
    if (r.timer !== undefined) clearTimeout(r.timer);
    r.timer = setTimeout(() => this.#late(slot, r, "cancelled"), this.#graceMs);
  }

  /** The job did not stop in time: give its worker up and go on without it. */
  #late(slot: Slot, r: Running, why: "deadline" | "cancelled"): void {
    if (slot.running !== r) return;
    const waiting = slot.queued.length;
    const back = this.#takeBack(slot);
    // Its worker claimed the next job: it finished this one, whose answer is on its way.
    if (back.length < waiting) {
      this.#dispatch();
      return;
    }
    this.#abandoned++;
    this.#remove(slot);
    slot.worker.unref();
    void slot.worker.terminate().catch(() => {});
    this.#settle(r);
    const seconds = `${Number((this.#graceMs / 1000).toFixed(3))} s`;
    r.reject(
      why === "deadline"
        ? new PoolJobError(
          "deadline",
          `did not finish within ${
            Number(((r.job.timeoutMs ?? 0) / 1000).toFixed(3))
          } s and could not be interrupted within ${seconds} more`,
        )
        : r.job.signal?.reason instanceof Error
        ? r.job.signal.reason
        : new PoolJobError("cancelled", `cancelled, and did not stop within ${seconds}`),
    );
    this.#dispatch();
    this.#replace(r.job.service);
  }

  /**
   * A worker given up or retired: its place is taken at once, with the
   * service loaded, so the next job does not wait for a thread to start.
   */
  #replace(service: ServiceName): void {
    if (this.#closed || this.#queue.length > 0) return;
    const slot = this.#spawn();
    if (slot !== undefined) void this.#load(slot, service);
  }

  #reply(slot: Slot, m: ReplyMessage): void {
    const loaded = slot.loading.get(m.id);
    if (loaded !== undefined) {
      slot.loading.delete(m.id);
      loaded();
      return;
    }
    const r = slot.running;
    if (r === undefined || r.id !== m.id) return;
    slot.running = undefined;
    this.#settle(r);
    if (m.retire) {
      // A retiring worker claims nothing after this answer: what waited behind it comes back.
      this.#takeBack(slot);
      this.#retired++;
      this.#remove(slot);
      void slot.worker.terminate().catch(() => {});
    } else if (slot.queued.length > 0) this.#promote(slot);
    else if (slot.loading.size === 0) slot.worker.unref();
    if (m.ok) r.resolve(m.value);
    else r.reject(errorFromWire(m.error));
    this.#dispatch();
    if (m.retire) this.#replace(r.job.service);
  }

  /** The job behind the one that answered is running now: its deadline is watched from here. */
  #promote(slot: Slot): void {
    const next = slot.queued.shift()!;
    slot.running = next;
    slot.runningSince = performance.now();
    this.#arm(slot, next);
    if (next.cancelPending === true) {
      if (next.timer !== undefined) clearTimeout(next.timer);
      next.timer = setTimeout(() => this.#late(slot, next, "cancelled"), this.#graceMs);
    }
  }

  #lost(slot: Slot, why: string): void {
    if (slot.gone) return;
    this.#takeBack(slot);
    for (const q of slot.queued.splice(0)) {
      // Claimed by the worker that was lost: it may be what ended it.
      this.#settle(q);
      q.reject(new PoolJobError("crashed", `the job did not finish: ${why}`));
    }
    this.#remove(slot);
    for (const loaded of slot.loading.values()) loaded();
    slot.loading.clear();
    const r = slot.running;
    slot.running = undefined;
    if (r !== undefined) {
      this.#settle(r);
      r.reject(new PoolJobError("crashed", `the job did not finish: ${why}`));
    }
    this.#dispatch();
  }

  #remove(slot: Slot): void {
    slot.gone = true;
    const at = this.#slots.indexOf(slot);
    if (at >= 0) this.#slots.splice(at, 1);
  }

  #settle(r: Running): void {
    if (r.timer !== undefined) clearTimeout(r.timer);
    r.timer = undefined;
    if (r.onAbort !== undefined) r.job.signal?.removeEventListener("abort", r.onAbort);
  }
}

function cancelled(signal: AbortSignal): Error {
  return signal.reason instanceof Error
    ? signal.reason
    : new PoolJobError("cancelled", "the job was cancelled");
}

let shared: WorkerPool | undefined;
let sharedOptions: PoolOptions = {};

/**
 * The process's pool, started on first use: every executor that is not
 * given a pool of its own runs here. Its workers are unreferenced while
 * idle, so it never keeps the process alive.
 *
 * @returns the pool
 * @example
 * ```ts
 * import { defaultPool } from "./pool.ts";
 * defaultPool().size; // 4 unless configureDefaultPool() said otherwise
 * ```
 */
export function defaultPool(): WorkerPool {
  shared ??= new WorkerPool(sharedOptions);
  return shared;
}

/**
 * Sets the size and limits of the process's pool (`run --concurrency`,
 * `--max-result-mb`). A pool already started with other options is closed
 * once idle and replaced.
 *
 * @param options the pool's options
 * @example
 * ```ts
 * import { configureDefaultPool, defaultPool } from "./pool.ts";
 * configureDefaultPool({ size: 2 });
 * defaultPool().size; // 2
 * configureDefaultPool({});
 * ```
 */
export function configureDefaultPool(options: PoolOptions): void {
  sharedOptions = options;
  const old = shared;
  if (old === undefined) return;
  if (
    old.size === Math.max(1, Math.floor(options.size ?? 4)) &&
    JSON.stringify(old.limits) === JSON.stringify(options.limits ?? DEFAULT_LIMITS)
  ) return;
  shared = undefined;
  void old.close();
}

/**
 * Closes the process's pool (the CLI does at the end of a command); the
 * next use starts a new one.
 *
 * @param options `exiting`: the process ends next (a CLI command's end),
 * so idle workers end with it rather than being terminated now (see
 * {@link WorkerPool.close})
 * @example
 * ```ts
 * import { closeDefaultPool } from "./pool.ts";
 * await closeDefaultPool();
 * ```
 */
export async function closeDefaultPool(
  options: { readonly exiting?: boolean } = {},
): Promise<void> {
  const old = shared;
  shared = undefined;
  await old?.close(options);
}

/**
 * The worker's module (`_worker_entry.js`, which loads worker.ts). In the
 * compiled binary, modules live in Bun's embedded file system under
 * `$bunfs/root/` (`B:/~BUN/root/` on Windows), named `[dir]/[name]-[hash].js`
 * by tools/build.ts, which lists the worker among the entry points.
 */
function workerUrl(): URL | string {
  const here = import.meta.url;
  const root = /^(.*?[/\\](?:\$bunfs|~BUN)[/\\]root[/\\])/.exec(decodeURI(here))?.[1];
  if (root === undefined) return new URL("./_worker_entry.js", here);
  const dir = path.join(root.replace(/^file:\/\//, ""), "lib", "isolation");
  const name = fs.readdirSync(dir).find((f) => /^_worker_entry(-[a-z0-9]+)?\.js$/.test(f));
  if (name === undefined) throw new Error(`the binary has no worker module in ${dir}`);
  return path.join(dir, name);
}
