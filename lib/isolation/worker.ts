/**
 * A pool worker's entry point (see pool.ts). It is a composition root, as
 * cli.ts is for the process: nothing imports it, and it imports the
 * services it can host from the rooms that define them, each only when a
 * job first names it. One job at a time, in the order they came (the pool
 * sends a few ahead, pool.ts): each is claimed in the shared claims ring
 * as it starts, and one the main thread took back is skipped. The job's
 * deadline and the main thread's cancel are what `JobContext.stopRequested()`
 * reads.
 *
 * @module
 */
import { parentPort, workerData } from "node:worker_threads";
import process from "node:process";
import type { JobContext, Service, ServiceName } from "./service.ts";
import { errorToWire, type JobMessage, type ReplyMessage, type WorkerStart } from "./_wire.ts";
import { shareTempUsage } from "./temp_storage.ts";

/** The services, by name: one line each. */
const SERVICES: Record<ServiceName, () => Promise<{ readonly service: Service }>> = {
  sqlite: () => import("../sqlite/pool_service.ts"),
  counterexample: () => import("../counterexample/pool_service.ts"),
};

// Imported outside a worker (a docs test reads every module), it does nothing.
const start = parentPort === null ? undefined : workerData as WorkerStart;
const cancel = new Int32Array(start?.cancel ?? new SharedArrayBuffer(4));
const claims = new Int32Array(start?.claims ?? new SharedArrayBuffer(4));
const loaded = new Map<ServiceName, Promise<Service>>();
const services = new Map<ServiceName, Service>();
if (start !== undefined) shareTempUsage(start.tempUsage, start.limits.tempBytes);

// A rejection or a throw outside a job must not end the thread silently:
// the job in flight (if any) answers with its own error; anything else is
// only written down.
process.on?.("unhandledRejection", (e: unknown) => {
  process.stderr.write(`dbagenteval worker: unhandled rejection: ${String(e)}\n`);
});

/** A service: loaded (at once), or the promise of it. */
function service(name: ServiceName): Service | Promise<Service> {
  const ready = services.get(name);
  if (ready !== undefined) return ready;
  let s = loaded.get(name);
  if (s === undefined) {
    const load = SERVICES[name];
    if (load === undefined) return Promise.reject(new Error(`no service "${name}" in this worker`));
    s = load().then((m) => {
      services.set(name, m.service);
      return m.service;
    });
    loaded.set(name, s);
  }
  return s;
}

/**
 * Runs one job. Synchronous when its service is loaded and answers at once
 * (a SQLite statement on an open connection): an await in a Bun worker
 * waits for the worker's event loop, about a millisecond a job.
 */
function runJob(m: JobMessage): ReplyMessage | Promise<ReplyMessage> {
  let retire = false;
  // Date.now() is one clock for every thread; performance.now() is cheaper to read.
  const deadline = m.deadline === undefined
    ? Infinity
    : performance.now() + (m.deadline - Date.now());
  let reason: "deadline" | "cancelled" | undefined;
  const job: JobContext = {
    limits: start!.limits,
    modules: start!.modules,
    deadline,
    stopRequested(): boolean {
      if (reason !== undefined) return true;
      if (Atomics.load(cancel, 0) === m.id) reason = "cancelled";
      else if (performance.now() > deadline) reason = "deadline";
      return reason !== undefined;
    },
    stopReason: () => reason,
    retire: () => {
      retire = true;
    },
  };
  const ok = (value: unknown): ReplyMessage => ({ id: m.id, retire, ok: true, value });
  const failed = (e: unknown): ReplyMessage => {
    // After a WebAssembly trap the engine's memory is in doubt.
    if (e instanceof WebAssembly.RuntimeError) retire = true;
    return { id: m.id, retire, ok: false, error: errorToWire(e) };
  };
  try {
    const s = service(m.service);
    const value = s instanceof Promise
      ? s.then((loadedService) => loadedService.run(m.op, m.args, job))
      : s.run(m.op, m.args, job);
    return value instanceof Promise ? value.then(ok, failed) : ok(value);
  } catch (e) {
    return failed(e);
  }
}

function send(m: JobMessage, reply: ReplyMessage): void {
  try {
    port!.postMessage(reply);
  } catch (e) {
    // A value structured clone cannot copy: say so rather than go quiet.
    port!.postMessage({ id: m.id, retire: false, ok: false, error: errorToWire(e) });
  }
}

/** Whether the job is still this worker's to run (see the module comment), now claimed. */
function claim(m: JobMessage): boolean {
  if (m.seq === undefined) return true;
  return Atomics.compareExchange(claims, m.seq % claims.length, m.id, -m.id) === m.id;
}

const port = parentPort;
const waiting: JobMessage[] = [];
let busy = false;
/** After an answer that asked for this worker's replacement, it claims nothing more. */
let retiring = false;

function pump(): void {
  while (!busy && !retiring && waiting.length > 0) {
    const m = waiting.shift()!;
    if (!claim(m)) continue;
    const reply = runJob(m);
    if (reply instanceof Promise) {
      busy = true;
      void reply.then((r) => {
        send(m, r);
        retiring ||= r.retire;
        busy = false;
        pump();
      });
      return;
    }
    send(m, reply);
    retiring ||= reply.retire;
  }
}

port?.on("message", (m: JobMessage) => {
  waiting.push(m);
  pump();
});
// The pool counts a job's deadline from here: starting a thread (and, under
// `deno test`, type-checking it) can take longer than a short deadline.
port?.postMessage({ ready: true });
