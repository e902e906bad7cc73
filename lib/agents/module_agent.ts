/**
 * The module transport (`run --agent file.ts:agent`): the agent function is
 * called in host processes (module_host.ts), one call at a time per host,
 * from the same pool of agent processes as `--agent-cmd`'s workers
 * (_process_pool.ts, _agent_process.ts): each host runs in a process group
 * of its own, killed with everything the agent started when its case times
 * out, when the run ends and when the harness gets a signal. So the run can
 * stop an agent that never yields, and nothing the agent does to its
 * process (exit, chdir, unhandled errors, replaced globals) reaches the run.
 * The agent's stderr (and what it prints) is the harness's stderr. Calls
 * and replies cross as JSON with every value kept (bigints, BLOBs, NaN and
 * the infinities: lib/sqlite/value_json.ts).
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import process from "node:process";
import { TraceError, UsageError } from "../errors.ts";
import type { AgentContext } from "../eval/agent.ts";
import { Trace } from "../eval/trace.ts";
import { decodeJsonAnywhere, encodeJsonAnywhere } from "../sqlite/value_json.ts";
import { selfCommand } from "../host_process.ts";
import { AgentProcess } from "./_agent_process.ts";
import { ProcessPool } from "./_process_pool.ts";
import { clip } from "./_protocol.ts";
import type { ClosableAgent } from "./types.ts";

/**
 * Options of {@link moduleAgent}.
 *
 * @example
 * ```ts
 * import type { ModuleAgentOptions } from "./module_agent.ts";
 * const options: ModuleAgentOptions = { module: "agent.ts:agent", workers: 2 };
 * options.workers; // 2
 * ```
 */
export interface ModuleAgentOptions {
  /** The agent as `--agent` names it: `file.ts:export` (or `file.ts`, its `agent` export). */
  readonly module: string;
  /** Host processes, each running one call at a time (default 1). */
  readonly workers?: number | undefined;
  /**
   * The program that hosts the module, given the module and a token as its
   * last two arguments (default: this CLI's hidden `__agent-host` command).
   */
  readonly hostCommand?: readonly string[] | undefined;
}

/** What a host writes for a call (module_host.ts). */
interface Reply {
  readonly ready?: boolean;
  readonly fatal?: string;
  readonly trace?: { question: string; stages: unknown[] };
  readonly traceError?: string;
  readonly error?: { name: string; message: string };
  readonly thrown?: unknown;
}

/**
 * Starts the first host and waits until it has loaded the agent module, so
 * that a module that cannot load is a usage error before any case runs; the
 * other hosts start when first needed.
 *
 * @param options the module and the number of hosts
 * @returns the agent; `close()` it when the run ends
 * @throws {UsageError} when the module cannot be loaded or has no such function
 * @example
 * ```ts
 * import * as fs from "node:fs";
 * import * as os from "node:os";
 * import * as path from "node:path";
 * import { moduleAgent } from "./module_agent.ts";
 * import { defineCase, runSuite } from "../../mod.ts";
 * const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent-"));
 * fs.writeFileSync(path.join(dir, "agent.ts"), 'export const agent = () => ({ rows: [{ n: 2 }] });\n');
 * const agent = await moduleAgent({ module: `${path.join(dir, "agent.ts")}:agent` });
 * try {
 *   const cases = [defineCase({ question: "1 + 1?", expect: { rows: [{ n: 2 }] } })];
 *   (await runSuite(cases, agent)).passed; // 1
 * } finally {
 *   await agent.close();
 *   fs.rmSync(dir, { recursive: true });
 * }
 * ```
 */
export async function moduleAgent(options: ModuleAgentOptions): Promise<ClosableAgent> {
  const command = [...(options.hostCommand ?? [...selfCommand(), "__agent-host"])];
  const workers = options.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1) {
    throw new UsageError(`--agent: workers must be a whole number of at least 1, got ${workers}`);
  }
  const pool = new ProcessPool(() => startHost(command, options.module), workers);
  await pool.startFirst(1);
  let nextId = 0;
  const ask = async (question: string, context: AgentContext): Promise<unknown> => {
    const slot = await pool.acquire(context.signal);
    try {
      let host: AgentProcess;
      try {
        host = await pool.process(slot);
      } catch (e) {
        throw new Error(e instanceof Error ? e.message : String(e));
      }
      const request = { id: nextId++, question, context: wireContext(context) };
      let line: string;
      try {
        line = await host.request(encodeJsonAnywhere(request), context.signal);
      } catch {
        // Not an AgentError: the suite's own timeout message says it all.
        throw new Error(
          context.signal?.aborted
            ? "the agent did not finish in time"
            : `the agent ended its process before answering (it ${host.exit ?? "was stopped"})`,
        );
      }
      return fromReply(decodeJsonAnywhere(line) as Reply);
    } finally {
      pool.release(slot);
    }
  };
  return Object.assign(ask, { close: () => pool.close() });
}

/** Starts one host and waits until it has loaded the module. */
async function startHost(command: readonly string[], module: string): Promise<AgentProcess> {
  const token = randomUUID();
  const host = await AgentProcess.start({
    argv: [...command, module, token],
    label: "--agent",
    // A trace may be as large as the agent makes it, as it may in-process.
    maxLineBytes: Infinity,
    stderr: "inherit",
    replyPrefix: token,
    // The agent wrote to the real stdout: its output, kept off ours.
    otherLine: (line) => process.stderr.write(`${line}\n`),
  });
  let greeting: string;
  try {
    greeting = await host.read();
  } catch {
    host.kill();
    throw new UsageError(
      `--agent: the agent's process ${host.exit ?? "ended"} while loading the module`,
    );
  }
  const hello = decodeJsonAnywhere(greeting) as Reply;
  if (hello.ready === true) return host;
  host.kill();
  throw new UsageError(
    hello.fatal ?? `--agent: the agent's host said ${clip(greeting)} instead of loading the module`,
  );
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
