/**
 * The subprocess transport (`run --agent-cmd "python3 agent.py"`): worker
 * processes that read one JSON request per line on stdin and write one JSON
 * reply per line on stdout. Each worker takes one request at a time; a
 * worker that exits, writes a line that is not a reply, answers another
 * case or runs out of time makes that case an ERROR (with its last stderr
 * lines) and is replaced for the next case. No worker outlives the run: they
 * are stopped by close(), on exit, and when the harness gets SIGINT, SIGTERM
 * or SIGHUP. docs/agent-protocol.md describes the protocol.
 *
 * @module
 */
import * as path from "node:path";
import process from "node:process";
import { AgentError, UsageError } from "../errors.ts";
import type { AgentContext } from "../eval/agent.ts";
import { AgentProcess, type AgentProcessOptions } from "./_agent_process.ts";
import { ProcessPool } from "./_process_pool.ts";
import { agentRequest, clip, nonJsonNumberHint, parseReplyJson, readReply } from "./_protocol.ts";
import { missingScript } from "./missing_script.ts";
import { splitCommand } from "./split_command.ts";
import type { ClosableAgent } from "./types.ts";

/**
 * Options of {@link commandAgent}.
 *
 * @example
 * ```ts
 * import type { CommandAgentOptions } from "./command_agent.ts";
 * const options: CommandAgentOptions = { command: "python3 agent.py", workers: 2 };
 * options.workers; // 2
 * ```
 */
export interface CommandAgentOptions {
  /**
   * The command: a string split into words as a shell would (quotes and
   * backslashes, no variables or pipes: write `sh -c '...'` for those), or
   * the argv itself.
   */
  readonly command: string | readonly string[];
  /** Worker processes, each answering one request at a time (default 1). */
  readonly workers?: number | undefined;
  /** The folder the workers start in (default: the current folder). */
  readonly cwd?: string | undefined;
  /** Their environment (default: the harness's). */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** The longest reply line accepted, in bytes (default 16 MiB). */
  readonly maxLineBytes?: number | undefined;
  /** stderr lines kept per worker for error messages (default 20). */
  readonly stderrLines?: number | undefined;
}

const DEFAULTS = { maxLineBytes: 16 * 1024 * 1024, stderrLines: 20 };

/**
 * Starts the worker processes of an agent program and returns the agent.
 * Every worker is started before it returns, so a program that is not found
 * or cannot be run is reported at once, as is a script it names (`agent.py`)
 * that is not in `cwd`.
 *
 * @param options the command, the number of workers and limits
 * @returns the agent; `close()` it when the run ends
 * @throws {UsageError} when the command is empty or malformed, not found, or not executable
 * @example
 * ```ts
 * import { commandAgent } from "./command_agent.ts";
 * import { defineCase, runSuite } from "../../mod.ts";
 * // an agent in Python, answering every case with the same row
 * const program = `import json, sys
 * for line in sys.stdin:
 *     request = json.loads(line)
 *     print(json.dumps({"id": request["id"], "rows": [{"n": 2}], "answer": "2"}), flush=True)`;
 * const agent = await commandAgent({ command: ["python3", "-c", program] });
 * try {
 *   const cases = [defineCase({ question: "1 + 1?", expect: { rows: [{ n: 2 }] } })];
 *   (await runSuite(cases, agent)).passed; // 1
 * } finally {
 *   await agent.close();
 * }
 * ```
 */
export async function commandAgent(options: CommandAgentOptions): Promise<ClosableAgent> {
  const argv = typeof options.command === "string"
    ? splitCommand(options.command)
    : [...options.command];
  if (argv.length === 0 || argv[0] === "") {
    throw new UsageError('--agent-cmd: give a program to run, e.g. --agent-cmd "python3 agent.py"');
  }
  const shown = typeof options.command === "string" ? options.command : argv.join(" ");
  const cwd = options.cwd ?? process.cwd();
  const script = missingScript(argv, cwd);
  if (script !== undefined) {
    throw new UsageError(
      `--agent-cmd ${JSON.stringify(shown)}: ${script}: no such file in ${
        path.resolve(cwd)
      }; check the path (the command runs in that folder)`,
    );
  }
  const workers = options.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1) {
    throw new UsageError(
      `--agent-cmd: workers must be a whole number of at least 1, got ${workers}`,
    );
  }
  const worker: AgentProcessOptions = {
    argv,
    label: `--agent-cmd "${shown}"`,
    cwd: options.cwd,
    env: options.env,
    maxLineBytes: options.maxLineBytes ?? DEFAULTS.maxLineBytes,
    stderr: "tail",
    stderrLines: options.stderrLines ?? DEFAULTS.stderrLines,
  };
  const pool = new ProcessPool(() => AgentProcess.start(worker), workers);
  await pool.startFirst();

  const ask = async (question: string, context: AgentContext): Promise<unknown> => {
    const request = agentRequest(question, context);
    const slot = await pool.acquire(context.signal);
    try {
      const worker = await pool.process(slot);
      const line = await worker.request(JSON.stringify(request), context.signal);
      let json: unknown;
      try {
        json = parseReplyJson(line);
      } catch {
        // A reply with Python's NaN is still one reply per request: in step.
        const hint = nonJsonNumberHint(line);
        if (hint !== undefined) throw worker.failure(hint);
        // Out of step: its next line may answer this request.
        throw await worker.killFor(
          `the agent wrote a line that is not JSON: ${JSON.stringify(clip(line))}; ` +
            "write logs to stderr, and one reply line of JSON per request to stdout",
        );
      }
      const outOfStep = (json as { id?: unknown } | null)?.id !== request.id;
      try {
        const reply = readReply(json, request.id);
        if (outOfStep) worker.kill(); // its next line may answer this request
        return reply;
      } catch (error) {
        if (!(error instanceof AgentError)) throw error;
        // Out of step: its next line may answer this request.
        throw outOfStep ? await worker.killFor(error.message) : worker.failure(error.message);
      }
    } finally {
      pool.release(slot);
    }
  };
  return Object.assign(ask, { close: () => pool.close() });
}
