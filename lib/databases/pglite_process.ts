/**
 * The parent's side of a PGlite host process (pglite_host.ts): it starts the
 * host (this CLI again, `__pglite-host`, in a process group of its own),
 * sends it one request at a time, and kills it when a request passes its
 * deadline, when the host's memory grows past its allowance, or when the
 * data directory it writes to grows past its allowance. A killed or crashed
 * host fails only the request it was running; the owner starts a new one.
 *
 * Every host is killed when the run exits, normally or by SIGINT, SIGTERM or
 * SIGHUP (lib/isolation/shutdown.ts); a run killed with SIGKILL leaves hosts
 * that end themselves within half a second.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { selfCommand } from "../host_process.ts";
import { onShutdown } from "../isolation/shutdown.ts";
import { decodeJsonAnywhere, encodeJsonAnywhere } from "../sqlite/value_json.ts";
import type { EngineSource } from "./_pglite_engine.ts";
import type { HostRequest } from "./pglite_host.ts";
import { tooLargeMessage } from "./result_limit.ts";

/** What bounds a host. */
export interface HostLimits {
  /** PostgreSQL's temp_file_limit, in bytes. */
  readonly tempFileBytes: number;
  /** How much a host's memory may grow past what it holds once open. */
  readonly memoryBytes: number;
  /** The most bytes of one answer. */
  readonly resultBytes: number;
  /** A data directory the host writes to, and how much it may grow. */
  readonly watchDir?: { readonly path: string; readonly growthBytes: number } | undefined;
}

/** Raised when the host was killed or ended while running a request. */
export class HostStopped extends Error {
  /** A code the harness's messages do not mistake for a SQLSTATE. */
  readonly code = "PGLITE_STOPPED";
}

/** A reply's error, as the host sends it. */
export interface HostError {
  readonly message: string;
  readonly code?: string;
  readonly script?: boolean;
}

const isWindows = process.platform === "win32";
/** How often memory is looked at while a request runs; a data directory's size, every tenth time. */
const POLL_MS = 50;
const DIR_EVERY = 10;
const MB = 1024 * 1024;

/** Every live host, killed when the run ends. */
const live = new Set<PgliteProcess>();
let listening = false;

function killAll(): void {
  for (const host of live) host.kill();
}

function listen(): void {
  if (listening) return;
  listening = true;
  process.on("exit", killAll);
  onShutdown(killAll);
}

/** Resident memory of a process, from /proc (Linux); undefined elsewhere. */
function residentBytes(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m === null ? undefined : Number(m[1]) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * The bytes of the files under a folder.
 *
 * @param dir the folder
 * @returns their total size
 */
export function folderBytes(dir: string): number {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += folderBytes(p);
    else if (e.isFile()) {
      try {
        total += fs.statSync(p).size;
      } catch {
        // removed meanwhile
      }
    }
  }
  return total;
}

/** A PGlite engine the harness talks to: in a host process, or (where none can start) here. */
export interface PgliteHost {
  /** How many WebAssembly engines its start made. */
  readonly engines: number;
  /** Whether its start wrote the tar file it was asked for. */
  readonly dumped: boolean;
  /** Whether it can take a request. */
  readonly alive: boolean;
  /** Whether it holds far more memory than when it opened: better started again. */
  readonly bloated: boolean;
  /**
   * Runs one request.
   *
   * @param op `query` (one read-only statement) or `exec` (a script)
   * @param sql the SQL
   * @param timeoutMs its deadline, from when it is sent: past it the host is killed
   * @returns the reply's data
   * @throws {HostStopped} when the host was killed or ended; an Error with a {@link HostError} `cause` when the statement failed
   */
  request(op: "query" | "exec", sql: string, timeoutMs: number): Promise<Record<string, unknown>>;
  /**
   * Kills the host at once, as at a request's deadline: the running request
   * fails with {@link HostStopped} and `why` (absent where it cannot be done).
   */
  stop?(why: string): void;
  /** Stops the engine (and its host process, when it was the last one there). */
  close(): Promise<void>;
}

/**
 * Starts a PGlite engine in a host process of its own, or beside another
 * engine in that one's process (one WebAssembly compile for both; a kill
 * ends both). Where this module cannot start a process (it was imported
 * from a URL, not a file, so there is no CLI to run), in this process,
 * where a statement that never ends cannot be stopped.
 *
 * @param source what the engine starts from
 * @param limits what bounds it
 * @param options `dumpTo`, where its start may write a tar file of the database; `beside`, an engine whose process it joins
 * @returns the engine
 * @throws {HostStopped} when the host cannot start; an Error with the host's {@link HostError} as `cause` when the engine cannot open
 */
export async function startPgliteHost(
  source: EngineSource,
  limits: HostLimits,
  options: { readonly dumpTo?: string | undefined; readonly beside?: PgliteHost | undefined } = {},
): Promise<PgliteHost> {
  if (options.beside instanceof HostedEngine && options.beside.alive) {
    return options.beside.process.open(source, limits, options.dumpTo);
  }
  let command: string[];
  try {
    command = selfCommand();
  } catch {
    return (await import("./_pglite_local.ts")).LocalPglite.start(source, limits);
  }
  const host = await PgliteProcess.spawn(command, limits);
  try {
    return await host.open(source, limits, options.dumpTo);
  } catch (e) {
    host.kill();
    throw e;
  }
}

interface Pending {
  readonly resolve: (reply: Record<string, unknown>) => void;
  readonly reject: (error: Error) => void;
}

/** One engine in a host process. */
class HostedEngine implements PgliteHost {
  readonly process: PgliteProcess;
  readonly #id: number;
  readonly engines: number;
  readonly dumped: boolean;

  constructor(process: PgliteProcess, id: number, engines: number, dumped: boolean) {
    this.process = process;
    this.#id = id;
    this.engines = engines;
    this.dumped = dumped;
  }

  get alive(): boolean {
    return this.process.alive;
  }

  get bloated(): boolean {
    return this.process.bloated;
  }

  request(op: "query" | "exec", sql: string, timeoutMs: number): Promise<Record<string, unknown>> {
    return this.process.ask({ op, engine: this.#id, sql }, timeoutMs);
  }

  stop(why: string): void {
    this.process.kill(why);
  }

  close(): Promise<void> {
    return this.process.closeEngine(this.#id);
  }
}

/** One PGlite host process: one request at a time, to whichever of its engines. */
export class PgliteProcess {
  readonly #child: ChildProcess;
  readonly #token: string;
  #memoryBytes: number;
  #resultBytes: number;
  #pending: Pending | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #chunks: Buffer[] = [];
  #bytes = 0;
  #nextId = 0;
  /** Why it is gone, once it is. */
  #gone: string | undefined;
  /** Why it was killed, when the harness killed it. */
  #killedFor: string | undefined;
  /** Its memory once its engines opened. */
  #memoryBase = 0;
  /** Its memory when the running request was sent: what that request is measured from. */
  #requestBase = 0;
  /** The data directories its engines write to: each one's size when it opened, and allowance. */
  readonly #dirs: { path: string; base: number; growth: number }[] = [];
  readonly #engines = new Set<number>();
  readonly #exited: Promise<void>;

  private constructor(child: ChildProcess, token: string, limits: HostLimits) {
    this.#child = child;
    this.#token = `${token} `;
    this.#memoryBytes = limits.memoryBytes;
    this.#resultBytes = limits.resultBytes;
    child.stdout!.on("data", (chunk: Buffer) => this.#read(chunk));
    // PGlite's own messages (and a crash's) stay here: the harness says in one line what happened.
    child.stderr!.resume();
    child.stdin!.on("error", () => {});
    this.#exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        live.delete(this);
        const how = signal !== null ? `was killed by ${signal}` : `exited with code ${code}`;
        this.#fail(this.#killedFor ?? `PGlite stopped (its process ${how})`);
        resolve();
      });
    });
    live.add(this);
    listen();
  }

  /**
   * Starts a host process, with no engine yet.
   *
   * @param command how to start this CLI ({@link selfCommand})
   * @param limits its memory allowance and result limit
   * @returns the process
   * @throws {HostStopped} when it cannot start
   */
  static async spawn(command: readonly string[], limits: HostLimits): Promise<PgliteProcess> {
    const [program, ...args] = command;
    const token = randomUUID();
    const child = spawn(program!, [...args, "__pglite-host", token], {
      stdio: ["pipe", "pipe", "pipe"],
      // A process group of its own: the terminal's Ctrl-C goes to the run, which kills it.
      detached: !isWindows,
      windowsHide: true,
    });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", (e) => reject(new HostStopped(`PGlite could not start: ${e.message}`)));
    });
    return new PgliteProcess(child, token, limits);
  }

  /**
   * Opens an engine here.
   *
   * @param source what it starts from
   * @param limits what bounds it
   * @param dumpTo where its start may write a tar file of the database
   * @returns the engine
   */
  async open(source: EngineSource, limits: HostLimits, dumpTo?: string): Promise<PgliteHost> {
    this.#memoryBytes = Math.max(this.#memoryBytes, limits.memoryBytes);
    this.#resultBytes = Math.max(this.#resultBytes, limits.resultBytes);
    const opened = await this.ask({
      op: "open",
      source,
      tempFileLimitKb: limits.tempFileBytes / 1024,
      resultLimitBytes: this.#resultBytes,
      ...(dumpTo !== undefined ? { dumpTo } : {}),
    }, Number.POSITIVE_INFINITY);
    // What it holds now is the baseline its statements' growth is measured from.
    this.#memoryBase = residentBytes(this.#child.pid!) ?? 0;
    if (limits.watchDir !== undefined) {
      const { path, growthBytes } = limits.watchDir;
      this.#dirs.push({ path, base: folderBytes(path), growth: growthBytes });
    }
    const id = Number(opened["engine"]);
    this.#engines.add(id);
    return new HostedEngine(this, id, Number(opened["engines"] ?? 0), opened["dumped"] === true);
  }

  /** Whether it can take a request. */
  get alive(): boolean {
    return this.#gone === undefined;
  }

  /**
   * Whether it holds far more memory than when its engines opened (a
   * statement grew PostgreSQL's heap, which WebAssembly never gives back):
   * its owner should start a new one rather than keep it.
   */
  get bloated(): boolean {
    const rss = residentBytes(this.#child.pid!);
    return rss !== undefined && rss - this.#memoryBase > this.#memoryBytes / 3;
  }

  /**
   * Sends a request when the ones before it are answered.
   *
   * @param request the request, without its id
   * @param timeoutMs its deadline, from when it is sent
   * @returns the reply
   */
  ask(request: Omit<HostRequest, "id">, timeoutMs: number): Promise<Record<string, unknown>> {
    const next = this.#queue.then(() => this.#send(request, timeoutMs));
    this.#queue = next.catch(() => {});
    return next;
  }

  /**
   * Stops one engine; the process with its last one.
   *
   * @param id the engine
   */
  async closeEngine(id: number): Promise<void> {
    if (!this.#engines.delete(id)) return;
    if (this.#engines.size === 0) return this.close();
    await this.ask({ op: "close", engine: id }, 30_000).catch(() => {});
    this.#memoryBase = residentBytes(this.#child.pid!) ?? this.#memoryBase;
  }

  #send(request: Omit<HostRequest, "id">, timeoutMs: number): Promise<Record<string, unknown>> {
    if (this.#gone !== undefined) return Promise.reject(new HostStopped(this.#gone));
    const id = this.#nextId++;
    const pid = this.#child.pid!;
    this.#requestBase = residentBytes(pid) ?? this.#memoryBase;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let poll: ReturnType<typeof setInterval> | undefined;
    const done = () => {
      clearTimeout(timer);
      clearInterval(poll);
      this.#pending = undefined;
    };
    const reply = new Promise<Record<string, unknown>>((resolve, reject) => {
      this.#pending = {
        resolve: (r) => {
          done();
          if (r["id"] !== id) return reject(new HostStopped("PGlite answered out of turn"));
          const error = r["error"] as HostError | undefined;
          if (error !== undefined) reject(new Error(error.message, { cause: error }));
          else resolve(r);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      };
    });
    if (Number.isFinite(timeoutMs)) {
      timer = setTimeout(
        () => this.kill(`the statement did not finish within ${seconds(timeoutMs)}`),
        Math.max(0, timeoutMs),
      );
    }
    // Memory and the data directories are looked at while a request runs
    // (not while an engine opens: what it holds then is its baseline).
    let polls = 0;
    if (request.op !== "open") {
      poll = setInterval(() => this.#watch(pid, ++polls % DIR_EVERY === 0), POLL_MS);
    }
    this.#child.stdin!.write(`${encodeJsonAnywhere({ id, ...request })}\n`);
    return reply;
  }

  #watch(pid: number, dirsToo: boolean): void {
    const rss = residentBytes(pid);
    if (rss !== undefined && rss - this.#requestBase > this.#memoryBytes) {
      return this.kill(
        `the statement used more than ${Math.round(this.#memoryBytes / MB)} MB of memory`,
      );
    }
    if (!dirsToo) return;
    for (const dir of this.#dirs) {
      if (folderBytes(dir.path) - dir.base > dir.growth) {
        return this.kill(
          `the statement wrote more than ${
            Math.round(dir.growth / MB)
          } MB into the data directory's copy`,
        );
      }
    }
  }

  #read(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl < 0) break;
      this.#take(chunk.subarray(start, nl));
      this.#line();
      start = nl + 1;
    }
    if (start < chunk.length) this.#take(chunk.subarray(start));
  }

  #take(part: Buffer): void {
    if (this.#gone !== undefined || part.length === 0) return;
    this.#bytes += part.length;
    // JSON text of values a little larger than the values; the host weighs them first.
    if (this.#bytes > 2 * this.#resultBytes + MB) {
      this.kill(tooLargeMessage(this.#resultBytes));
      return;
    }
    this.#chunks.push(part);
  }

  #line(): void {
    if (this.#gone !== undefined) return;
    const line = Buffer.concat(this.#chunks).toString("utf8");
    this.#chunks = [];
    this.#bytes = 0;
    if (!line.startsWith(this.#token)) return;
    const pending = this.#pending;
    if (pending === undefined) return;
    let reply: Record<string, unknown>;
    try {
      reply = decodeJsonAnywhere(line.slice(this.#token.length), JSON.parse, {
        bigints: "always",
      }) as Record<string, unknown>;
    } catch {
      this.kill("PGlite answered with a line that is not JSON");
      return;
    }
    pending.resolve(reply);
  }

  #fail(why: string): void {
    if (this.#gone === undefined) this.#gone = why;
    this.#pending?.reject(new HostStopped(this.#gone));
  }

  /**
   * Kills the host's process group at once.
   *
   * @param why what the request that was running is told
   */
  kill(why = "PGlite was stopped"): void {
    this.#killedFor ??= why;
    this.#fail(why);
    const pid = this.#child.pid;
    if (pid === undefined) return;
    try {
      if (isWindows) this.#child.kill("SIGKILL");
      else process.kill(-pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }

  /**
   * Ends the host. It is killed, not asked to stop: nothing it holds
   * outlives it (an in-memory database, a copy about to be removed), and
   * PGlite's own shutdown took a second.
   */
  async close(): Promise<void> {
    this.kill("PGlite was closed");
    await this.#exited;
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
