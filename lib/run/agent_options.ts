/**
 * The agent options of `run`, in one table: `--agent` (a module loaded
 * in-process), `--agent-cmd` (a subprocess, lib/agents/command_agent.ts) and
 * `--agent-url` (an HTTP service, lib/agents/http_agent.ts). Exactly one is
 * given; each kind turns its value into an agent the suite calls the same
 * way.
 *
 * @module
 */
import process from "node:process";
import { commandAgent } from "../agents/command_agent.ts";
import { AGENT_HEADERS_ENV, parseHeaders } from "../agents/headers.ts";
import { httpAgent } from "../agents/http_agent.ts";
import { moduleAgent } from "../agents/module_agent.ts";
import type { ClosableAgent } from "../agents/types.ts";
import { UsageError } from "../errors.ts";
import { predictionsAgent } from "../eval/predictions.ts";
import type { TestCase } from "../eval/case.ts";

/** The agent options as cli.ts parses them. */
export interface AgentOptions {
  readonly agent?: string | undefined;
  readonly agentCmd?: string | undefined;
  readonly agentUrl?: string | undefined;
  readonly agentHeader?: readonly string[] | undefined;
  /** A predictions file (--predictions): the SQL a model already wrote, as the agent. */
  readonly predictions?: string | undefined;
  /**
   * The folder --agent-cmd runs in: the config file's folder when the
   * command came from its `agent_cmd:` (like every path there), else the
   * current folder.
   */
  readonly agentCmdDir?: string | undefined;
}

/** What a kind needs beside its own value. */
interface AgentSetting {
  readonly options: AgentOptions;
  /** Cases run at once: the number of worker processes for --agent-cmd, of hosts for --agent. */
  readonly workers: number;
  /** Every case of the cases file, in order: a predictions file is aligned with them. */
  readonly cases: readonly TestCase[];
}

/** One kind of agent: its flag and how its value becomes an agent. */
interface AgentKind {
  readonly flag: string;
  load(value: string, setting: AgentSetting): Promise<ClosableAgent>;
}

const AGENT_KINDS: Record<"agent" | "agentCmd" | "agentUrl" | "predictions", AgentKind> = {
  agent: {
    flag: "--agent",
    // In agent hosts (child processes): the run can stop an agent that
    // never yields, and nothing the agent does to its process reaches the run.
    load: (value, setting) => moduleAgent({ module: value, workers: setting.workers }),
  },
  agentCmd: {
    flag: "--agent-cmd",
    load: (value, setting) =>
      commandAgent({
        command: value,
        workers: setting.workers,
        cwd: setting.options.agentCmdDir,
      }),
  },
  agentUrl: {
    flag: "--agent-url",
    load: (value, setting) => {
      const fromEnv = (process.env[AGENT_HEADERS_ENV] ?? "").split(/\r?\n/);
      const headers = parseHeaders(
        setting.options.agentHeader ?? [],
        "--agent-header",
        parseHeaders(fromEnv, AGENT_HEADERS_ENV),
      );
      return Promise.resolve(httpAgent({ url: value, headers }));
    },
  },
  predictions: {
    flag: "--predictions",
    load: async (value, setting) => {
      const agent = await predictionsAgent(value, setting.cases);
      if (agent.unanswered > 0) {
        process.stderr.write(
          `${value}: ${agent.unanswered} of ${setting.cases.length} predictions are not SQL (BIRD's 0 for a question the model did not answer): each of those cases is a FAIL at generate\n`,
        );
      }
      return Object.assign(agent, { close: () => Promise.resolve() });
    },
  },
};

/**
 * Checks that exactly one agent option is given, before anything is loaded.
 *
 * @param options the parsed options
 * @throws {UsageError} when none or several are given, or --agent-header without --agent-url
 */
export function checkAgentOptions(options: AgentOptions): void {
  const given = (Object.keys(AGENT_KINDS) as (keyof typeof AGENT_KINDS)[])
    .filter((k) => options[k] !== undefined);
  if (given.length !== 1) {
    throw new UsageError(
      given.length === 0
        ? 'give the agent: --agent file:export, --agent-cmd "python3 agent.py", --agent-url URL or --predictions FILE (or agent:, agent_cmd:, agent_url: or predictions: in dbagenteval.yaml)'
        : `pass one of ${given.map((k) => AGENT_KINDS[k].flag).join(", ")}, not several`,
    );
  }
  if ((options.agentHeader ?? []).length > 0 && options.agentUrl === undefined) {
    throw new UsageError("--agent-header goes with --agent-url");
  }
}

/**
 * Loads or starts the agent the options name.
 *
 * @param options the parsed options
 * @param workers how many cases run at once
 * @param cases every case of the cases file, in order (for --predictions)
 * @returns the agent; close() it when the run ends
 * @throws {UsageError} when the agent cannot be loaded or started
 */
export function loadAgent(
  options: AgentOptions,
  workers: number,
  cases: readonly TestCase[] = [],
): Promise<ClosableAgent> {
  checkAgentOptions(options);
  const kind = (Object.keys(AGENT_KINDS) as (keyof typeof AGENT_KINDS)[])
    .find((k) => options[k] !== undefined)!;
  return AGENT_KINDS[kind].load(options[kind]!, { options, workers, cases });
}
