/**
 * One agent process, for both transports that run one: a worker of
 * `--agent-cmd` and a host of an `--agent` module (module_agent.ts). All
 * process management is here: the process is spawned in a process group of
 * its own, so that a timeout, the end of the run or a signal kills it and
 * everything it started; a request is one line on its stdin and the reply
 * the next line on its stdout (with a byte cap); the last lines of its
 * stderr are kept for error messages, or its stderr is the harness's own.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import { AgentError, UsageError } from "../errors.ts";
import { clip } from "./_protocol.ts";

/** What starting an agent process takes. */
export interface AgentProcessOptions {
  /** The program and its arguments. */
  readonly argv: readonly string[];
  /** How the user names it in messages: `--agent-cmd "python3 agent.py"`. */
  readonly label: string;
  readonly cwd?: string | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** The longest line accepted, in bytes (Infinity: no cap). */
  readonly maxLineBytes: number;
  /**
   * Its stderr: the last `stderrLines` lines kept for error messages
   * (`tail`), or the harness's own stderr, written as it comes (`inherit`).
   */
  readonly stderr: "tail" | "inherit";
  /** How many stderr lines `tail` keeps. */
  readonly stderrLines?: number | undefined;
  /**
   * When set, only stdout lines starting with it (and a space) are replies,
   * given without it; any other line is the process's own output, passed to
   * `otherLine`.
   */
  readonly replyPrefix?: string | undefined;
  readonly otherLine?: ((line: string) => void) | undefined;
}

/** A line, or why there will be none. */
type LineWaiter = (line: string | AgentError) => void;

const isWindows = process.platform === "win32";

/** The last `max` lines written to a stream, each cut to a readable length. */
class Tail {
  readonly #max: number;
  readonly #lines: string[] = [];
  #partial = "";

  constructor(max: number) {
    this.#max = max;
  }

  push(chunk: string): void {
    const parts = (this.#partial + chunk).split(/\r?\n/);
    this.#partial = clip(parts.pop() ?? "", 2000);
    for (const line of parts) this.#keep(line);
  }

  #keep(line: string): void {
    this.#lines.push(clip(line, 500));
    if (this.#lines.length > this.#max) this.#lines.shift();
  }

  lines(): string[] {
    return this.#partial === ""
      ? [...this.#lines]
      : [...this.#lines, this.#partial].slice(-this.#max);
  }
}

/**
 * A running agent process.
 */
export class AgentProcess {
  readonly #child: ChildProcess;
  readonly #options: AgentProcessOptions;
  readonly #stderr: Tail | undefined;
  readonly #prefix: string | undefined;
  /** Complete reply lines that arrived with no request waiting. */
  readonly #unasked: string[] = [];
  #chunks: Buffer[] = [];
  #bytes = 0;
  #waiter: LineWaiter | undefined;
  /** Why it cannot answer any more, once it cannot. */
  #dead: AgentError | undefined;
  /** Why it is being killed, until its output has been read to the end. */
  #killedFor: string | undefined;
  /** How it ended: `exited with code 3`, `was killed by SIGKILL`. */
  #exit: string | undefined;
  #closed: Promise<void>;

  /** Use {@link AgentProcess.start}. */
  constructor(child: ChildProcess, options: AgentProcessOptions) {
    this.#child = child;
    this.#options = options;
    this.#prefix = options.replyPrefix === undefined ? undefined : `${options.replyPrefix} `;
    child.stdout!.on("data", (chunk: Buffer) => this.#read(chunk));
    if (options.stderr === "tail") {
      const tail = this.#stderr = new Tail(options.stderrLines ?? 20);
      // Decoded by the stream, so a character split between two chunks stays whole.
      child.stderr!.setEncoding("utf8");
      child.stderr!.on("data", (chunk: string) => tail.push(chunk));
    }
    // A process that exits while we write to it must not crash the harness.
    child.stdin!.on("error", () => {});
    this.#closed = new Promise((resolve) => {
      let exited = false;
      const settle = (code: number | null, signal: string | null) => {
        if (exited) return;
        exited = true;
        this.#exit = signal !== null ? `was killed by ${signal}` : `exited with code ${code}`;
        this.#fail(this.#killedFor ?? `the agent ${this.#exit}`);
        resolve();
      };
      // close comes after the output is read; exit may come without it when
      // a grandchild keeps the pipes open.
      child.once("close", settle);
      child.once("exit", (code, signal) => setTimeout(() => settle(code, signal), 200).unref());
    });
  }

  /**
   * Starts a process and waits until it runs.
   *
   * @param options the command and limits
   * @returns the process
   * @throws {UsageError} when the program is not found or cannot be run
   */
  static start(options: AgentProcessOptions): Promise<AgentProcess> {
    const [program, ...args] = options.argv;
    const child = spawn(program!, args, {
      cwd: options.cwd,
      env: options.env === undefined ? process.env : { ...options.env },
      stdio: ["pipe", "pipe", options.stderr === "tail" ? "pipe" : "inherit"],
      // A process group of its own: a timeout kills the process and all it started.
      detached: !isWindows,
      windowsHide: true,
    });
    return new Promise((resolve, reject) => {
      child.once("spawn", () => resolve(new AgentProcess(child, options)));
      child.once("error", (error: NodeJS.ErrnoException) => {
        const why = error.code === "ENOENT"
          ? `${program} was not found (is it installed, and on the PATH?)`
          : error.code === "EACCES"
          ? `${program} cannot be run (permission denied: is it an executable file? try chmod +x, or name its interpreter, e.g. python3 ${program})`
          : `${program} could not be started (${error.message})`;
        reject(new UsageError(`${options.label}: ${why}`, { cause: error }));
      });
    });
  }

  /** The process id (also the process group id). */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Whether it can take a request. */
  get alive(): boolean {
    return this.#dead === undefined && this.#killedFor === undefined;
  }

  /** How it ended (`exited with code 3`, `was killed by SIGKILL`), once it has. */
  get exit(): string | undefined {
    return this.#exit;
  }

  /**
   * Sends one request line and waits for the reply line.
   *
   * @param line the request, one line
   * @param signal aborts the wait (a timeout): the process is then killed
   * @returns the reply line
   * @throws {AgentError} when the process exits, wrote a line it was not asked for, or writes a line too long
   */
  request(line: string, signal?: AbortSignal): Promise<string> {
    if (this.#dead !== undefined) return Promise.reject(this.#dead);
    const early = this.#unasked.shift();
    if (early !== undefined) {
      this.kill();
      return Promise.reject(
        this.failure(
          `the agent wrote a line it was not asked for: ${JSON.stringify(clip(early))}; ` +
            "write logs to stderr, and one reply line per request to stdout",
        ),
      );
    }
    const reply = this.read(signal);
    if (this.alive) this.#child.stdin!.write(`${line}\n`);
    return reply;
  }

  /**
   * Waits for the next reply line without sending anything (a line already
   * written is taken first): the greeting a process writes when it is ready.
   *
   * @param signal aborts the wait: the process is then killed
   * @returns the line
   * @throws {AgentError} when the process exits or writes a line too long
   */
  read(signal?: AbortSignal): Promise<string> {
    const early = this.#unasked.shift();
    if (early !== undefined) return Promise.resolve(early);
    if (this.#dead !== undefined) return Promise.reject(this.#dead);
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        this.#waiter = undefined;
        this.kill();
        reject(this.failure("the agent did not answer in time and was stopped"));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiter = (reply) => {
        signal?.removeEventListener("abort", onAbort);
        if (typeof reply === "string") resolve(reply);
        else reject(reply);
      };
    });
  }

  /**
   * An error whose message ends with the process's last stderr lines (when
   * they are kept).
   *
   * @param why what went wrong
   * @returns the error
   */
  failure(why: string): AgentError {
    if (this.#stderr === undefined) return new AgentError(why);
    const lines = this.#stderr.lines();
    const log = lines.length === 0
      ? " (it wrote nothing to stderr)"
      : `\nlast lines of its stderr:\n${lines.map((l) => `  ${l}`).join("\n")}`;
    return new AgentError(`${why}${log}`);
  }

  #fail(why: string): void {
    if (this.#dead !== undefined) return;
    this.#dead = this.failure(why);
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.(this.#dead);
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
    if (this.#dead !== undefined || this.#killedFor !== undefined || part.length === 0) return;
    this.#bytes += part.length;
    if (this.#bytes > this.#options.maxLineBytes) {
      const max = this.#options.maxLineBytes;
      const size = max % (1024 * 1024) === 0 ? `${max / 1024 / 1024} MiB` : `${max} bytes`;
      void this.killFor(
        `the agent wrote a line longer than ${size}; a reply must be one line of JSON of at most ${size}`,
      );
      return;
    }
    this.#chunks.push(part);
  }

  #line(): void {
    if (this.#dead !== undefined || this.#killedFor !== undefined) return;
    let line = Buffer.concat(this.#chunks).toString("utf8").replace(/\r$/, "");
    this.#chunks = [];
    this.#bytes = 0;
    if (this.#prefix !== undefined) {
      if (!line.startsWith(this.#prefix)) return this.#options.otherLine?.(line);
      line = line.slice(this.#prefix.length);
    }
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (waiter !== undefined) waiter(line);
    else this.#unasked.push(line);
  }

  /** Kills the process's whole group at once. */
  kill(): void {
    this.#killGroup();
    this.#fail("the agent was stopped");
  }

  /**
   * Kills the process because of what it did, and gives the error once its
   * stdout and stderr have been read to the end, so that the stderr lines it
   * wrote just before (`Traceback ...`) are in the message whichever pipe
   * the system delivered first.
   *
   * @param why what the process did
   * @returns the error, with its last stderr lines
   */
  async killFor(why: string): Promise<AgentError> {
    if (this.#dead === undefined && this.#killedFor === undefined) {
      this.#killedFor = why;
      this.#killGroup();
    }
    await this.#closed;
    return this.#dead ?? this.failure(why);
  }

  #killGroup(): void {
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
   * Ends the process: closes its stdin (a well-behaved agent exits on end of
   * input), waits up to `graceMs`, then kills its process group, which also
   * ends anything it left running.
   *
   * @param graceMs how long it may take to exit by itself
   */
  async stop(graceMs: number): Promise<void> {
    this.#child.stdin!.end();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.#closed,
      new Promise<void>((resolve) => timer = setTimeout(resolve, graceMs)),
    ]);
    clearTimeout(timer);
    this.kill();
  }
}
