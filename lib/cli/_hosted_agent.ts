/**
 * `run --agent file:export` calls the agent in agent hosts (_agent_host.ts),
 * child processes of its own, up to one per case running at once, so that
 * the run can stop an agent that never yields (it kills that host at the
 * case's timeout) and nothing the agent does to its process (exit, chdir,
 * unhandled errors, replaced globals) reaches the run. To the suite it is an
 * ordinary {@link Agent}.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import * as path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { TraceError, UsageError } from "../errors.ts";
import type { Agent, AgentContext } from "../eval/agent.ts";
import { Trace } from "../eval/trace.ts";
import { decodeWire, encodeWire } from "./_wire.ts";

/** An agent in host processes; `close()` ends them. */
export type HostedAgent = Agent & { close(): void };

interface Reply {
  readonly id?: number;
  readonly ready?: boolean;
  readonly fatal?: string;
  readonly trace?: { question: string; stages: unknown[] };
  readonly traceError?: string;
  readonly error?: { name: string; message: string };
  readonly thrown?: unknown;
}

/** The command that starts this CLI again: the binary, or the runtime on cli.ts. */
export function selfCommand(): string[] {
  const bun = (globalThis as { Bun?: { main?: string } }).Bun;
  const here = import.meta.url;
  // In a bun-compiled binary the sources live in a virtual folder.
  if (bun !== undefined && (here.includes("$bunfs") || here.includes("~BUN"))) {
    return [process.execPath];
  }
  const cli = path.resolve(path.dirname(fileURLToPath(here)), "..", "..", "cli.ts");
  return bun !== undefined
    ? [process.execPath, cli]
    : [process.execPath, "run", "--allow-all", "--quiet", cli];
}

class Host {
  readonly #child: ChildProcess;
  readonly #token = randomUUID();
  readonly #pending = new Map<number, (reply: Reply) => void>();
  #ready: Promise<void>;
  #ended: string | null = null;
  #buffer = "";
  busy = false;

  constructor(ref: string) {
    const [cmd, ...pre] = selfCommand();
    this.#child = spawn(cmd!, [...pre, "__agent-host", ref, this.#token], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    let ready!: () => void;
    let failed!: (e: Error) => void;
    this.#ready = new Promise((resolve, reject) => {
      ready = resolve;
      failed = reject;
    });
    this.#child.stdout!.setEncoding("utf8");
    this.#child.stdout!.on("data", (chunk: string) => {
      this.#buffer += chunk;
      let nl: number;
      while ((nl = this.#buffer.indexOf("\n")) >= 0) {
        const line = this.#buffer.slice(0, nl);
        this.#buffer = this.#buffer.slice(nl + 1);
        if (!line.startsWith(`${this.#token} `)) {
          // The agent wrote to the real stdout: its output, kept off ours.
          process.stderr.write(`${line}\n`);
          continue;
        }
        const reply = decodeWire(line.slice(this.#token.length + 1)) as Reply;
        if (reply.ready === true) ready();
        else if (reply.fatal !== undefined) failed(new UsageError(reply.fatal));
        else if (reply.id !== undefined) this.#pending.get(reply.id)?.(reply);
      }
    });
    this.#child.stdin!.on("error", () => {}); // a host that died: its exit says so
    this.#child.on("error", (e) => this.#end(`could not start (${e.message})`, failed));
    this.#child.on("exit", (code, signal) => {
      const how = signal !== null ? `was killed (${signal})` : `exited with code ${code}`;
      this.#end(how, failed);
    });
  }

  #end(how: string, failed: (e: Error) => void): void {
    if (this.#ended !== null) return;
    this.#ended = how;
    failed(new UsageError(`--agent: the agent's process ${how} while loading the module`));
    for (const [id, settle] of this.#pending) {
      this.#pending.delete(id);
      settle({
        error: {
          name: "Error",
          message: `the agent ended its process before answering (it ${how})`,
        },
      });
    }
  }

  get ended(): boolean {
    return this.#ended !== null;
  }

  ready(): Promise<void> {
    return this.#ready;
  }

  call(id: number, question: string, context: Record<string, unknown>): Promise<Reply> {
    return new Promise((resolve) => {
      this.#pending.set(id, (reply) => {
        this.#pending.delete(id);
        resolve(reply);
      });
      this.#child.stdin!.write(`${encodeWire({ id, question, context }, JSON.stringify)}\n`);
    });
  }

  kill(): void {
    if (this.#ended === null) this.#child.kill("SIGKILL");
  }

  close(): void {
    this.#child.stdin!.end();
    // A host kept alive by the agent's timers or sockets is not waited for.
    setTimeout(() => this.kill(), 2000).unref();
  }
}

/**
 * Starts the first host and waits until it has loaded the agent module, so
 * that a module that cannot load is a usage error before any case runs.
 *
 * @param ref the agent's `file:export`
 * @param options the case timeout in milliseconds: a call still running
 * then has its host killed
 * @returns the agent
 * @throws {UsageError} when the module cannot be loaded or has no such function
 */
export async function hostedAgent(
  ref: string,
  options: { readonly timeoutMs?: number | undefined },
): Promise<HostedAgent> {
  const hosts: Host[] = [];
  const first = new Host(ref);
  hosts.push(first);
  try {
    await first.ready();
  } catch (e) {
    first.kill();
    throw e;
  }
  let nextId = 0;
  const idle = (): Host => {
    const free = hosts.find((h) => !h.busy && !h.ended);
    if (free !== undefined) return free;
    const host = new Host(ref);
    hosts.push(host);
    return host;
  };
  const agent = async (question: string, context: AgentContext): Promise<unknown> => {
    const host = idle();
    host.busy = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // The time counts from the call, as the suite's does, host start included.
      const limit = options.timeoutMs;
      const late = limit === undefined ? null : new Promise<Reply>((resolve) => {
        // Just after the suite's own timer, which makes the case an ERROR.
        timer = setTimeout(() => {
          host.kill();
          resolve({ error: { name: "Error", message: "the agent did not finish in time" } });
        }, limit + 100);
      });
      const call = host.ready().then(() =>
        host.ended
          ? { error: { name: "Error", message: "the agent did not finish in time" } }
          : host.call(nextId++, question, wireContext(context))
      ).catch((e: unknown): Reply => ({
        error: { name: "Error", message: e instanceof Error ? e.message : String(e) },
      }));
      return fromReply(await (late === null ? call : Promise.race([call, late])));
    } finally {
      clearTimeout(timer);
      host.busy = false;
      if (host.ended) hosts.splice(hosts.indexOf(host), 1);
    }
  };
  // However the run ends, no host outlives it.
  const killAll = (): void => hosts.forEach((h) => h.kill());
  process.on("exit", killAll);
  return Object.assign(agent, {
    close: () => {
      process.off("exit", killAll);
      // A host still busy is one whose case timed out: it is not waited for.
      for (const h of hosts) h.busy ? h.kill() : h.close();
    },
  });
}

// What can cross to the host: the context's data (not an AbortSignal).
function wireContext(context: AgentContext): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(context).filter(([, v]) =>
      v === null || ["string", "number", "boolean"].includes(typeof v) || Array.isArray(v)
    ),
  );
}

function fromReply(reply: Reply): unknown {
  if (reply.trace !== undefined) {
    return new Trace(reply.trace.question, reply.trace.stages as Trace["stages"]);
  }
  if (reply.traceError !== undefined) {
    // What the agent returned was no trace: the suite reads this as it would
    // have read the value itself, and reports the host's message.
    const message = reply.traceError;
    return Object.defineProperty({}, "stages", {
      get: () => {
        throw new TraceError(message);
      },
      enumerable: true,
    });
  }
  if (reply.error !== undefined) {
    const error = new Error(reply.error.message);
    error.name = reply.error.name;
    throw error;
  }
  throw reply.thrown;
}
