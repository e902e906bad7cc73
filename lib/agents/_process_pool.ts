/**
 * The pool of agent processes both process transports use (`--agent-cmd`
 * workers, `--agent` module hosts): a fixed number of slots, each holding a
 * process or none, one request at a time per slot; a process that died or
 * fell out of step is replaced when its slot is next used. No process
 * outlives the run: they are stopped by close(), killed on exit, and killed
 * when the harness gets SIGINT, SIGTERM or SIGHUP (each runs in a process
 * group of its own, so a Ctrl-C on the terminal does not reach them).
 *
 * @module
 */
import process from "node:process";
import { AgentError } from "../errors.ts";
import type { AgentProcess } from "./_agent_process.ts";

/** How long a process may take to exit after its stdin closes. */
const GRACE_MS = 1000;
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * A fixed number of slots of agent processes.
 */
export class ProcessPool {
  readonly #start: () => Promise<AgentProcess>;
  readonly #slots: (AgentProcess | undefined)[];
  readonly #free: number[];
  readonly #waiting: ((slot: number) => void)[] = [];
  readonly #onSignal: (signal: NodeJS.Signals) => void;
  readonly #onExit: () => void;
  #closed = false;

  /**
   * @param start starts one process, ready for a request
   * @param size the number of slots
   */
  constructor(start: () => Promise<AgentProcess>, size: number) {
    this.#start = start;
    this.#slots = new Array(size).fill(undefined);
    // Taken from the end: slot 0 first.
    this.#free = Array.from({ length: size }, (_, i) => size - 1 - i);
    // The harness stops them, then lets the signal do what it would have
    // done (other handlers, or the default exit).
    this.#onSignal = (signal) => {
      this.#killAll();
      this.#unlisten();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    this.#onExit = () => this.#killAll();
    for (const s of SIGNALS) process.on(s, this.#onSignal);
    process.on("exit", this.#onExit);
  }

  /**
   * Starts the processes of the first `count` slots, one after another, so
   * that a program that cannot start is reported before any case runs.
   *
   * @param count how many to start now (the others start when first used)
   * @throws what starting one threw; the pool is closed then
   */
  async startFirst(count: number = this.#slots.length): Promise<void> {
    try {
      for (let i = 0; i < Math.min(count, this.#slots.length); i++) {
        this.#slots[i] = await this.#fresh();
      }
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  async #fresh(): Promise<AgentProcess> {
    if (this.#closed) throw new AgentError("the agent was closed");
    const started = await this.#start();
    if (this.#closed) {
      started.kill();
      throw new AgentError("the agent was closed");
    }
    return started;
  }

  /**
   * Waits for a free slot.
   *
   * @param signal gives up waiting when it aborts (the case ran out of time)
   * @returns the slot; release() it
   */
  acquire(signal: AbortSignal | undefined): Promise<number> {
    const slot = this.#free.pop();
    if (slot !== undefined) return Promise.resolve(slot);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const at = this.#waiting.indexOf(take);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(new AgentError("the case ran out of time while waiting for a free agent worker"));
      };
      const take = (slot: number) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(slot);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(take);
    });
  }

  /**
   * The slot's process, started anew when it died or was never started.
   *
   * @param slot a slot from acquire()
   * @returns the process
   * @throws {AgentError} when it cannot be started again, or the pool is closed
   */
  async process(slot: number): Promise<AgentProcess> {
    const current = this.#slots[slot];
    if (current?.alive) return current;
    current?.kill(); // whatever it left running goes with it
    this.#slots[slot] = undefined;
    let fresh: AgentProcess;
    try {
      fresh = await this.#fresh();
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new AgentError(`the agent could not be restarted: ${why}`, { cause: error });
    }
    this.#slots[slot] = fresh;
    return fresh;
  }

  /**
   * Gives the slot back, to the next request waiting or to the free list.
   *
   * @param slot a slot from acquire()
   */
  release(slot: number): void {
    const next = this.#waiting.shift();
    if (next !== undefined) next(slot);
    else this.#free.push(slot);
  }

  #killAll(): void {
    for (const worker of this.#slots) worker?.kill();
  }

  #unlisten(): void {
    for (const s of SIGNALS) process.off(s, this.#onSignal);
    process.off("exit", this.#onExit);
  }

  /** Stops every process (end of stdin, a grace second, then its group killed). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(this.#slots.map((w) => w?.stop(GRACE_MS)));
    this.#slots.fill(undefined);
    this.#unlisten();
  }
}
