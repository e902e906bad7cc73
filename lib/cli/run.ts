/**
 * `dbagenteval run CASES --agent file:export ...`: asks the agent every case,
 * prints the results and the summary, and saves them on request.
 *
 * @module
 */
import process from "node:process";
import { setTimeout } from "node:timers";
import { UsageError } from "../errors.ts";
import type { ClosableAgent } from "../agents/types.ts";
import type { Judge } from "../eval/check.ts";
import type { TestCase } from "../eval/case.ts";
import { loadCases } from "../eval/cases.ts";
import { markdownReport } from "../eval/report_md.ts";
import { toRunFile } from "../eval/run_file.ts";
import type { Executor } from "../eval/evaluate.ts";
import { runSuite, type SuiteOptions, type SuiteResult } from "../eval/suite.ts";
import { type CounterexampleSettings, searchableQueries } from "../eval/checks/counterexample.ts";
import { openAiJudge } from "../judge/mod.ts";
import { DATABASE_KINDS, openReferenceDatabase } from "../databases/registry.ts";
import type { ReferenceDatabase } from "../databases/database.ts";
import { checkJudgeReachable } from "../judge/openai_judge.ts";
import { type CheckLike, loadChecks, loadFunction } from "./_load_module.ts";
import { type AgentOptions, checkAgentOptions, loadAgent } from "./_agent.ts";
import { progressLine } from "./_progress.ts";
import { checkOutputs, humanStream, writeOutput } from "./_output.ts";
import type { RuleSpec } from "./_builtin_rules.ts";

/** The options of `run`, as cli.ts parses them. */
export interface RunOptions extends AgentOptions {
  readonly execute?: string;
  readonly db?: string;
  readonly agentDb?: string;
  readonly rules?: string;
  /** Rules from --rule flags or the config file's rules: list. */
  readonly ruleSpecs?: readonly RuleSpec[] | undefined;
  readonly judge?: string;
  readonly judgeUrl?: string;
  readonly judgeModel?: string;
  readonly tags?: string;
  readonly concurrency: number;
  readonly judgeConcurrency: number;
  readonly timeout?: number;
  readonly json?: string;
  readonly md?: string;
  readonly verbose?: boolean;
  readonly counterexamples?: boolean;
}

function parseTags(tags: string | undefined): string[] | undefined {
  if (tags === undefined) return undefined;
  const list = tags.split(",").map((t) => t.trim()).filter((t) => t !== "");
  if (list.length === 0) {
    throw new UsageError(`--tags "${tags}": give one or more tags, e.g. easy,money`);
  }
  return list;
}

function timeoutMs(seconds: number | undefined): number | undefined {
  if (seconds === undefined) return undefined;
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(`--timeout: expected a number of seconds above 0, e.g. 30`);
  }
  return seconds * 1000;
}

/**
 * The counterexample search's settings for a run (--counterexamples): it
 * runs on the --db file, the embedded SQLite executor's database.
 */
function counterexampleSettings(options: RunOptions): CounterexampleSettings | undefined {
  if (options.counterexamples !== true) return undefined;
  if (options.db === undefined) {
    throw new UsageError(
      "--counterexamples searches a SQLite database: pass --db FILE (a SQLite copy of the database the reference SQL runs on)",
    );
  }
  if (DATABASE_KINDS.find((k) => k.matches(options.db!))?.name !== "sqlite") {
    throw new UsageError(
      `--counterexamples searches a SQLite database, and --db ${
        options.db.replace(/\/\/[^@/]*@/, "//")
      } is PostgreSQL; leave --counterexamples out, or pass --db FILE (a SQLite copy)`,
    );
  }
  return { db: options.db };
}

/** The summary's one line on cases the search could not look at. */
function notSearchedLine(result: SuiteResult, cases: readonly TestCase[]): string | undefined {
  const byId = new Map(cases.map((c) => [c.id, c]));
  let n = 0;
  for (const c of result.cases) {
    const testCase = byId.get(c.id);
    const trace = c.scorecard.trace;
    if (testCase === undefined || testCase.counterexample === false || trace === undefined) {
      continue;
    }
    if (searchableQueries(trace, testCase) === undefined) n++;
  }
  return n === 0
    ? undefined
    : `counterexample search: ${n} case(s) not searched (no reference_sql, or the agent gave no SQL)`;
}

function checkOptions(options: RunOptions): void {
  checkAgentOptions(options);
  if (options.execute !== undefined && options.db !== undefined) {
    throw new UsageError("pass --execute or --db, not both: both run the reference SQL");
  }
  if (options.judge !== undefined && options.judgeUrl !== undefined) {
    throw new UsageError("pass --judge or --judge-url, not both");
  }
  if ((options.judgeUrl === undefined) !== (options.judgeModel === undefined)) {
    throw new UsageError("--judge-url and --judge-model go together: pass both");
  }
}

interface ReferenceSql {
  readonly execute: Executor;
  readonly database?: ReferenceDatabase;
}

async function loadExecutor(
  options: RunOptions,
  cases: readonly TestCase[],
  timeout: number | undefined,
): Promise<ReferenceSql | undefined> {
  if (options.db !== undefined) {
    // A missing file, an unreachable server or bad credentials stop the run here, before any case.
    const database = await openReferenceDatabase(options.db, {
      statementTimeoutMs: timeout,
      connections: options.concurrency,
    });
    // The SQLite executor itself (it carries its path, which the SQLite rules read).
    return { execute: database.execute, database };
  }
  if (options.execute !== undefined) {
    return { execute: await loadFunction("--execute", options.execute) as Executor };
  }
  if (cases.some((c) => c.reference_sql !== undefined)) {
    throw new UsageError(
      "some cases have reference_sql; pass --execute file:function, or --db FILE for a SQLite database (or --db postgres://... or --db pglite:FILE.sql for PostgreSQL)",
    );
  }
  return undefined;
}

async function loadJudge(options: RunOptions): Promise<Judge | undefined> {
  if (options.judge !== undefined) return await loadFunction("--judge", options.judge) as Judge;
  if (options.judgeUrl === undefined || options.judgeModel === undefined) return undefined;
  // An empty variable counts as unset, so an empty DBAGENTEVAL_JUDGE_API_KEY falls back.
  const apiKey = process.env["DBAGENTEVAL_JUDGE_API_KEY"] || process.env["OPENAI_API_KEY"];
  // Once, before any case: a URL that refuses connections is a usage error
  // (exit 2), not retries in every judge call.
  await checkJudgeReachable(options.judgeUrl);
  return openAiJudge({
    url: options.judgeUrl,
    model: options.judgeModel,
    ...(apiKey !== undefined && apiKey !== "" ? { apiKey } : {}),
  });
}

/** The rules of --rule/config (built-in ones built, modules loaded) and of --rules. */
async function loadRules(options: RunOptions): Promise<CheckLike[] | undefined> {
  if (options.ruleSpecs === undefined && options.rules === undefined) return undefined;
  const rules: CheckLike[] = [];
  for (const spec of options.ruleSpecs ?? []) {
    if (spec.kind === "builtin") rules.push(spec.check);
    else rules.push(...await loadChecks("rules", spec.ref));
  }
  if (options.rules !== undefined) rules.push(...await loadChecks("--rules", options.rules));
  return rules;
}

/** Refuses --tags that select no case: a typo must not pass as an empty, green run. */
function checkSelection(
  tags: string[] | undefined,
  cases: readonly TestCase[],
  count: number,
): void {
  if (tags === undefined || count > 0) return;
  const known = [...new Set(cases.flatMap((c) => c.tags))].sort();
  throw new UsageError(
    `--tags ${tags.join(",")}: no case has any of these tags; ` +
      (known.length === 0 ? "the cases have no tags" : `the cases' tags are ${known.join(", ")}`),
  );
}

/**
 * An agent that hung past --timeout (or left a timer or socket open) would
 * keep the process alive after the results are printed, and a CI job would
 * hang. An unref'd timer does not keep the process alive itself: when
 * nothing else is pending the process ends as usual; otherwise it ends one
 * second after the run, with the run's exit code.
 *
 * @param code the exit code
 */
function exitSoonAfter(code: number): void {
  setTimeout(() => process.exit(code), 1000).unref();
}

/**
 * Runs a cases file against an agent.
 *
 * @param file the cases file
 * @param options the parsed command-line options
 * @returns the exit code: 0 when every case passed, 1 otherwise
 */
export async function runCommand(file: string | undefined, options: RunOptions): Promise<number> {
  if (file === undefined) {
    throw new UsageError(
      "give a cases file: dbagenteval run cases.yaml, or cases: in dbagenteval.yaml",
    );
  }
  checkOptions(options);
  const tags = parseTags(options.tags);
  const timeout = timeoutMs(options.timeout);
  const cases = await loadCases(file);
  const selected = tags === undefined
    ? cases
    : cases.filter((c) => c.tags.some((t) => tags.includes(t)));
  checkSelection(tags, cases, selected.length);
  checkOutputs({ "--json": options.json, "--md": options.md });
  // With an output on stdout (-), the text for a person goes to stderr.
  const human = humanStream([options.json, options.md]);
  const counterexamples = counterexampleSettings(options);
  const reference = await loadExecutor(options, selected, timeout);
  const execute = reference?.execute;
  let agent: ClosableAgent | undefined;
  try {
    agent = await loadAgent(options, Math.max(1, Math.min(options.concurrency, selected.length)));
    const rules = await loadRules(options);
    const judge = await loadJudge(options);
    const progress = progressLine();
    const suiteOptions: SuiteOptions = {
      concurrency: options.concurrency,
      judgeConcurrency: options.judgeConcurrency,
      ...(execute !== undefined ? { execute } : {}),
      ...(rules !== undefined ? { rules } : {}),
      ...(judge !== undefined ? { judge } : {}),
      ...(timeout !== undefined ? { timeoutMs: timeout } : {}),
      ...(tags !== undefined ? { tags } : {}),
      ...(options.agentDb !== undefined ? { agentDb: options.agentDb } : {}),
      ...(counterexamples !== undefined ? { counterexamples } : {}),
      ...(reference?.database !== undefined ? { dialect: reference.database.dialect } : {}),
      onProgress: (done: number, total: number) => progress.update(done, total),
    };
    const result = await runSuite(cases, agent, suiteOptions).finally(() => progress.done());
    human.write(`${result.summary()}\n`);
    const notSearched = counterexamples === undefined ? undefined : notSearchedLine(result, cases);
    if (notSearched !== undefined) human.write(`${notSearched}\n`);
    // stdout is the spec's run output; what a run cost goes beside it.
    if (options.verbose === true) process.stderr.write(`judge calls: ${result.judgeCalls}\n`);
    if (options.json !== undefined) {
      writeOutput("--json", options.json, JSON.stringify(toRunFile(result), null, 2));
    }
    if (options.md !== undefined) writeOutput("--md", options.md, markdownReport(result));
    exitSoonAfter(result.exitCode);
    return result.exitCode;
  } finally {
    await agent?.close();
    await reference?.database?.close();
    (execute as { close?: () => void } | undefined)?.close?.();
  }
}
