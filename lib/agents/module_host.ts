/**
 * The host of an `--agent` module: the process module_agent.ts calls the
 * agent in (`dbagenteval __agent-host MODULE TOKEN`). The agent runs apart
 * from the run, so whatever it does cannot stop, move or end the run: a loop
 * that never yields is ended by killing this process (and its group) at the
 * case's timeout; `process.exit()`, `process.chdir()`, a replaced
 * `JSON.stringify`, an unhandled rejection or a throw in a timer stay here.
 *
 * Protocol: one JSON request per line on stdin (`{ id, question, context }`);
 * one reply per line on stdout, prefixed by TOKEN and a space (anything else
 * the agent writes to stdout is passed on as its output): `{ ready: true }`
 * or `{ fatal }` once the module is loaded, then per request `{ id, trace }`,
 * `{ id, traceError }` (what the agent returned is not a trace), `{ id,
 * error: { name, message } }` or `{ id, thrown }` (it raised). Values cross
 * exactly (lib/sqlite/value_json.ts). The host ends when stdin closes.
 *
 * @module
 */
import process from "node:process";
import * as readline from "node:readline";
import { TraceError } from "../errors.ts";
import { type Agent, toTrace } from "../eval/agent.ts";
import { decodeJsonAnywhere, encodeJsonAnywhere } from "../sqlite/value_json.ts";
import { watchParent } from "../host_process.ts";

/**
 * What {@link serveModuleAgent} needs.
 *
 * @example
 * ```ts
 * import type { ModuleHostOptions } from "./module_host.ts";
 * const options: ModuleHostOptions = { token: "t0k3n", load: () => Promise.resolve(() => "hi") };
 * ```
 */
export interface ModuleHostOptions {
  /** The prefix of every reply line. */
  readonly token: string;
  /** Loads the agent function (a UsageError's message is sent as `fatal`). */
  readonly load: () => Promise<unknown>;
}

/**
 * Runs the host until stdin closes: loads the agent, says it is ready, then
 * answers each request line; the process then exits.
 *
 * @param options the token and how to load the agent
 * @returns a promise that never settles (the host ends by exiting)
 * @example
 * ```ts ignore
 * import { serveModuleAgent } from "./module_host.ts";
 * // the entry point of a host process: module_agent.ts starts it
 * await serveModuleAgent({ token: process.argv[3]!, load: () => import("./agent.ts").then((m) => m.agent) });
 * ```
 */
export async function serveModuleAgent(options: ModuleHostOptions): Promise<void> {
  const { token } = options;
  // Taken before the agent module loads, which may replace them.
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const { stdout, stderr } = process;
  const stdoutWrite = stdout.write.bind(stdout);
  const stderrWrite = stderr.write.bind(stderr);
  const exit = process.exit.bind(process);
  const send = (message: Record<string, unknown>, then?: () => void): void => {
    let text: string;
    try {
      text = encodeJsonAnywhere(message, stringify);
    } catch (e) {
      // A cycle in a stage's output, say: the case gets the reason.
      const why = e instanceof Error ? e.message : String(e);
      text = encodeJsonAnywhere(
        { id: message["id"], traceError: `the agent's trace is not data: ${why}` },
        stringify,
      );
    }
    stdoutWrite(`${token} ${text}\n`, then);
  };
  // The agent's own output goes to stderr: stdout carries the replies.
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  for (const name of ["log", "info", "debug"] as const) console[name] = console.error;
  const warn = (what: string, error: unknown): void => {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    stderrWrite(`warning: the agent ${what}: ${text.split("\n")[0]}\n`);
  };
  watchParent();
  process.on("unhandledRejection", (e) => warn("left a promise rejection unhandled", e));
  process.on("uncaughtException", (e) => warn("threw outside a call (in a timer?)", e));

  let agent: Agent;
  try {
    agent = await options.load() as Agent;
  } catch (e) {
    // Exit once the message is out (a pipe may be written asynchronously).
    send({ fatal: e instanceof Error ? e.message : String(e) }, () => exit(2));
    return ENDS_BY_EXIT;
  }
  send({ ready: true });
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    const request = decodeJsonAnywhere(line, parse) as {
      id: number;
      question: string;
      context: Record<string, unknown>;
    };
    void answer(agent, request).then((reply) => send({ id: request.id, ...reply }));
  });
  // What the agent wrote to stderr reaches the run first: under Bun a
  // write to a pipe may still be queued, and exit() would drop it (an
  // empty write's callback does not wait for it; end()'s does). The run
  // kills the host a second after closing its stdin in any case.
  lines.on("close", () => {
    setTimeout(() => exit(0), 900);
    stderr.end(() => stdout.end(() => exit(0)));
  });
  return ENDS_BY_EXIT;
}

/**
 * The host's promise: it never settles, since the host ends by exit() when
 * its stdin closes. A command that returned would let the CLI end the
 * process after its command is done (cli.ts does, a second later), in the
 * middle of the run.
 */
const ENDS_BY_EXIT: Promise<void> = new Promise(() => {});

async function answer(
  agent: Agent,
  request: { question: string; context: Record<string, unknown> },
): Promise<Record<string, unknown>> {
  let value: unknown;
  try {
    value = await agent(request.question, request.context);
  } catch (e) {
    if (e instanceof Error) return { error: { name: e.name, message: e.message } };
    return { thrown: e };
  }
  try {
    const trace = toTrace(request.question, value);
    return { trace: { question: trace.question, stages: trace.stages } };
  } catch (e) {
    if (e instanceof TraceError) return { traceError: e.message };
    return { error: { name: "Error", message: e instanceof Error ? e.message : String(e) } };
  }
}
