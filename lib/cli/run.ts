/**
 * `dbagenteval run CASES --agent file:export ...`: asks the agent every case,
 * prints the results and the summary, and saves them on request.
 *
 * @module
 */
import * as path from "node:path";
import process from "node:process";
import { setTimeout } from "node:timers";
import { UsageError } from "../errors.ts";
import type { ClosableAgent } from "../agents/types.ts";
import type { Judge } from "../eval/check.ts";
import type { TestCase } from "../eval/case.ts";
import { CaseSource, HAS_REFERENCE_SQL, WANTS_DB } from "../eval/case_source.ts";
import { executorCases, loadExecutor } from "./_reference_sql.ts";
import {
  readRunFile,
  RUN_FORMAT,
  RUN_FORMAT_VERSION,
  type RunFile,
  toRunFile,
} from "../eval/run_file.ts";
import { checkResumable } from "../eval/run_stream.ts";
import { StreamedRun } from "./_streamed_run.ts";
import { VERSION } from "../version.ts";
import { selectCases } from "../eval/select.ts";
import { casesFingerprint, parseShard, shardCases, shardLine } from "../eval/shard.ts";
import { runRepeated } from "../eval/repeat.ts";
import { verboseReport } from "../eval/report_text.ts";
import { cachedJudge } from "../judge/cache.ts";
import { checkReportPaths, githubWanted, reportOutputs, writeReports } from "./_reports.ts";
import { type CaseResult, runCaseFeed, type SuiteOptions } from "../eval/suite.ts";
import { searchableQueries } from "../counterexample/check.ts";
import { DATABASE_KINDS } from "../databases/registry.ts";
import type { CounterexampleSettings } from "../eval/check_sources.ts";
import { openAiJudge } from "../judge/mod.ts";
import { checkJudgeReachable } from "../judge/openai_judge.ts";
import { type CheckLike, loadChecks, loadFunction } from "./_load_module.ts";
import { type AgentOptions, checkAgentOptions, loadAgent } from "./_agent.ts";
import { progressLine } from "./_progress.ts";
import { humanStream } from "./_output.ts";
import { parseScores, RunScores } from "./_scores.ts";
import { closeDefaultPool, configureDefaultPool, defaultPool } from "../isolation/pool.ts";
import { limitsForResultMb } from "../isolation/service.ts";
import { sweepLeftovers } from "../isolation/temp_storage.ts";
import type { RuleSpec } from "./_builtin_rules.ts";
import type { ParsedRunOptions } from "../eval/run_options.ts";
import { DEFAULT_CHECK_SOURCES } from "../run/check_sources.ts";

/**
 * The options of `run`, as cli.ts parses them: the rows of
 * lib/eval/run_options.ts, with the rules and the agent's folder the config
 * file adds.
 */
export type RunOptions =
  & Omit<ParsedRunOptions, "rule" | "config">
  & Pick<AgentOptions, "agentCmdDir">
  & {
    /** Rules from --rule flags or the config file's rules: list. */
    readonly ruleSpecs?: readonly RuleSpec[] | undefined;
  };

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
 * runs on the --db database (a SQLite file, PGlite, or a PostgreSQL server,
 * which it only reads).
 */
function counterexampleSettings(options: RunOptions): CounterexampleSettings | undefined {
  if (options.counterexamples !== true) return undefined;
  // With --db-dir, each case's search runs on its own database (runCase).
  if (options.db === undefined && options.dbDir !== undefined) return { db: options.dbDir };
  if (options.db === undefined) {
    throw new UsageError(
      "--counterexamples searches the database the reference SQL runs on: pass --db (a SQLite file, pglite:FILE.sql or a postgres:// URL)",
    );
  }
  return {
    db: options.db,
    ...(options.allowSuperuser === true ? { allowSuperuser: true } : {}),
  };
}

/** The options but --json: a streamed run file is written already. */
function withoutJson(options: RunOptions): RunOptions {
  const { json: _json, ...rest } = options;
  return rest;
}

/**
 * What the counterexample search did beside the checks: the cases it could
 * not look at, and, for a run that writes no file to keep them in (no --json,
 * --md or --html), the script of each database it found.
 */
function counterexampleNotes(
  cases: () => readonly TestCase[],
  keepScripts: boolean,
): { add(c: CaseResult): void; lines(): string[] } {
  let byId: Map<string, TestCase> | undefined;
  let n = 0;
  const scripts = new Map<string, string>();
  return {
    add(c: CaseResult): void {
      // Built on first use: only --counterexamples counts.
      byId ??= new Map(cases().map((t) => [t.id, t]));
      const testCase = byId.get(c.id);
      const trace = c.scorecard.trace;
      if (testCase === undefined || testCase.counterexample === false || trace === undefined) {
        return;
      }
      if (searchableQueries(trace, testCase) === undefined) n++;
      const found = c.checks.find((r) => r.counterexample !== undefined)?.counterexample;
      if (keepScripts && found !== undefined) scripts.set(c.id, found.database_sql);
    },
    lines: () => [
      ...(n === 0 ? [] : [
        `counterexample search: ${n} case(s) not searched (no reference_sql, or the agent gave no SQL)`,
      ]),
      // In the cases' order, whatever order they finished in.
      ...(scripts.size === 0 ? [] : [
        "counterexample databases (--json, --md or --html keeps them):",
        ...[...(byId ?? new Map()).keys()].flatMap((id) => {
          const sql = scripts.get(id);
          return sql === undefined ? [] : [`-- ${id}`, sql];
        }),
      ]),
    ],
  };
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

/**
 * The judge, behind the reply cache when --cache DIR is given. Repeats
 * bypass the cache: asking again is what a repeat is for.
 */
async function loadCachedJudge(
  options: RunOptions,
): Promise<{ judge: Judge | undefined; hits: () => number }> {
  const judge = await loadJudge(options);
  const dir = options.cache;
  if (judge === undefined || typeof dir !== "string") return { judge, hits: () => 0 };
  if ((options.repeat ?? 1) > 1) {
    process.stderr.write("--cache is not used with --repeat: every attempt asks the judge\n");
    return { judge, hits: () => 0 };
  }
  const cached = cachedJudge(judge, {
    dir,
    endpoint: options.judgeUrl ?? `${options.judge}`,
    model: options.judgeModel ?? "",
  });
  return cached;
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

function resolvedOutputs(options: RunOptions): Partial<RunOptions> {
  const out: Record<string, string> = {};
  for (const key of ["json", "md", "junit"] as const) {
    const file = options[key];
    if (typeof file === "string" && file !== "-") out[key] = path.resolve(file);
  }
  return out;
}

/**
 * The cases a run takes (--case, --tags, --rerun-failed, --shard): their
 * positions in the file and their ids. The objects the choice is made on
 * are dropped with it, so a long run holds two arrays, not an object a case.
 */
async function chooseCases(source: CaseSource, options: RunOptions, tags: string[] | undefined) {
  const rerun = options.rerunFailed === undefined
    ? undefined
    : await readRunFile(options.rerunFailed);
  const chosen = selectCases(source.keys(), { ids: options.case, tags, rerunFailed: rerun });
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  if (options.shardDurations !== undefined && shard === undefined) {
    throw new UsageError("--shard-durations balances --shard; pass --shard i/n too");
  }
  const durations = options.shardDurations === undefined
    ? undefined
    : new Map((await readRunFile(options.shardDurations)).cases.map((c) => [c.id, c.duration_ms]));
  const selected = shard === undefined ? chosen : shardCases(chosen, shard, { durations });
  return {
    rerun,
    shard,
    of: chosen.length,
    fingerprint: shard === undefined ? undefined : casesFingerprint(chosen.map((c) => c.id)),
    positions: Int32Array.from(selected, (c) => c.index),
    // Every case chosen (the usual long run): the file's own array of ids.
    ids: selected.length === source.ids.length ? source.ids : selected.map((c) => c.id),
  };
}

/** A word as a POSIX shell reads it back. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * The command that finishes this run from its run file: the same
 * arguments, and `--resume FILE` unless they have it.
 */
function resumeCommand(file: string): string {
  const args = process.argv.slice(2);
  const rest = args.includes("--resume") ? args : [...args, "--resume", file];
  return ["dbagenteval", ...rest].map(shellWord).join(" ");
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
  // SQL runs in the worker pool: two statements a case at most (the
  // reference SQL and the agent's), under the engines' limits.
  configureDefaultPool({
    size: 2 * options.concurrency,
    limits: limitsForResultMb(options.maxResultMb ?? 32, options.maxTempMb),
  });
  sweepLeftovers();
  // The cases are validated now and read again as the run takes them: only
  // their ids and tags are held (lib/eval/case_source.ts).
  const source = await CaseSource.open(file);
  const { rerun, shard, of, fingerprint, positions, ids } = await chooseCases(
    source,
    options,
    tags,
  );
  // What needs the cases themselves (--score, --counterexamples, --repeat)
  // reads them all once.
  let heldCases: TestCase[] | undefined;
  const held = (): TestCase[] => heldCases ??= source.cases(positions);
  const resumed = options.resume === undefined ? undefined : await readRunFile(options.resume);
  if (resumed !== undefined) {
    if (options.repeat !== undefined) {
      throw new UsageError("--resume finishes a run without --repeat; leave one out");
    }
    checkResumable(resumed, options.resume!, ids);
  }
  const answered = new Set(resumed?.cases.map((c) => c.id));
  const remaining = ids.filter((id) => !answered.has(id)).length;
  checkReportPaths(options);
  // Report paths are fixed now, whatever the current folder is later.
  options = { ...options, ...resolvedOutputs(options) };
  if (rerun !== undefined && of === 0) {
    process.stderr.write(`${options.rerunFailed}: no case failed there; nothing to rerun\n`);
  }
  // With an output on stdout (-), the text for a person goes to stderr.
  const human = humanStream(Object.values(reportOutputs(options)));
  const counterexamples = counterexampleSettings(options);
  // On PostgreSQL, one PGlite per database for the whole run, not per case.
  const keepPg = counterexamples !== undefined && options.db !== undefined &&
    DATABASE_KINDS.find((k) => k.matches(options.db!))?.name !== "sqlite";
  if (keepPg) await (await import("../counterexample/pg_given.ts")).keepPgEngines(true);
  const scores = parseScores(options.score, { keepDistinct: options.keepDistinct });
  const runScores = scores === undefined ? undefined : new RunScores(scores, held());
  const reference = await loadExecutor(
    options,
    file,
    executorCases(source, positions),
    timeout,
  );
  // The searches read the database the reference SQL runs on: one PGlite for both.
  if (keepPg && reference?.database !== undefined) {
    (await import("../counterexample/pg_given.ts")).lendPgDatabase(options.db!, reference.database);
  }
  const execute = reference?.execute;
  const databases = reference?.databases;
  const ready = reference?.database?.ready?.bind(reference.database);
  // A SQLite engine starts before the cases, not inside their --timeout
  // (opening --db has started it already); more start as slow statements
  // need them, up to two a case (lib/isolation/pool.ts).
  if (reference?.database?.kind === "sqlite" || databases !== undefined) {
    await defaultPool().warm(1, "sqlite");
  }
  let agent: ClosableAgent | undefined;
  let streamed: StreamedRun | undefined;
  try {
    agent = await loadAgent(
      options,
      Math.max(1, Math.min(options.concurrency, remaining)),
      // A predictions file is aligned with every case of the file.
      options.predictions === undefined ? [] : source.cases(source.ids.map((_, i) => i)),
    );
    const rules = await loadRules(options);
    const { judge, hits } = await loadCachedJudge(options);
    const progress = progressLine();
    const suiteOptions: SuiteOptions = {
      checkSources: DEFAULT_CHECK_SOURCES,
      concurrency: options.concurrency,
      judgeConcurrency: options.judgeConcurrency,
      ...(execute !== undefined ? { execute } : {}),
      ...(databases !== undefined
        ? {
          executeFor: async (c: TestCase) =>
            c.db === undefined ? undefined : (await databases.open(c.db)).execute,
        }
        : ready !== undefined
        ? {
          // Before the case's clock starts: PGlite started again after
          // another case's runaway is not this case's time.
          executeFor: async () => {
            await ready();
            return undefined;
          },
        }
        : {}),
      ...(rules !== undefined ? { rules } : {}),
      ...(judge !== undefined ? { judge } : {}),
      ...(timeout !== undefined ? { timeoutMs: timeout } : {}),
      ...(options.agentDb !== undefined
        ? { agentDb: options.agentDb, agentDbMaxGrowthBytes: (options.maxTempMb ?? 2048) * 2 ** 20 }
        : {}),
      ...(counterexamples !== undefined ? { counterexamples } : {}),
      ...(reference?.database !== undefined ? { dialect: reference.database.dialect } : {}),
      ...(options.failFast === true ? { failFast: true } : {}),
      ...(options.strictColumns === true ? { strictColumns: true } : {}),
      onProgress: (done: number, total: number) => progress.update(done, total),
    };
    const repeat = options.repeat;
    const fields = {
      cases_file: file,
      ...(shard === undefined ? {} : {
        shard: {
          ...shard,
          of,
          fingerprint: fingerprint!,
        },
      }),
    };
    const outputs = reportOutputs(options);
    const notSearched = counterexampleNotes(
      held,
      [outputs["--json"], outputs["--md"], outputs["--html"]].every((o) => o === undefined),
    );
    let scored: Awaited<ReturnType<RunScores["score"]>> | undefined;
    const scoreRun = () =>
      runScores?.score({
        timeoutMs: timeout,
        db: options.db,
        dbDir: options.dbDir,
        strictQuotes: options.strictQuotes,
      });
    let exitCode: 0 | 1;
    let judgeCalls: number;
    let ran: number;
    let run: RunFile | undefined;
    if (repeat === undefined) {
      // The run file is written as the cases finish, and only totals stay
      // in memory; the reports that need every case read the file back.
      const readBack = options.verbose === true || options.json === "-" ||
        Object.entries(reportOutputs(options)).some(([flag, out]) =>
          flag !== "--json" && out !== undefined
        ) || githubWanted(options);
      const target = typeof options.json === "string" && options.json !== "-"
        ? options.json
        : options.resume;
      streamed = new StreamedRun(
        ids,
        {
          format: RUN_FORMAT,
          version: RUN_FORMAT_VERSION,
          tool_version: VERSION,
          created_at: new Date().toISOString(),
          ...fields,
        },
        target,
        readBack,
        resumed,
        target === undefined ? undefined : resumeCommand(target),
      );
      const stream = streamed;
      const todo = stream.positions.map((p) => positions[p]!);
      const result = await runCaseFeed(source.feed(todo), agent, {
        ...suiteOptions,
        keepResults: false,
        onResult: (r, i) => {
          stream.add(r, i);
          if (counterexamples !== undefined) notSearched.add(r);
          runScores?.add(r);
        },
      }, {
        referenceSql: source.having(todo, HAS_REFERENCE_SQL).length > 0,
        wantsDb: source.having(todo, WANTS_DB).length > 0,
      }).finally(() => progress.done());
      scored = await scoreRun();
      run = await stream.finish(result.judgeCalls, result.durationMs, readBack, scored?.scores);
      exitCode = stream.tally.exitCode;
      judgeCalls = result.judgeCalls;
      ran = stream.tally.totals.total;
      // stdout is the documented run output (docs/harness.md) unless --verbose asks for more.
      human.write(
        `${
          options.verbose === true && run !== undefined
            ? verboseReport(run, { k: options.passK })
            : stream.tally.summary()
        }\n`,
      );
    } else {
      const result = await runRepeated(held(), agent, {
        ...suiteOptions,
        repeat,
        minPassRate: options.minPassRate,
        onProgress: (done: number, total: number, r: CaseResult) => {
          progress.update(done, total);
          if (counterexamples !== undefined) notSearched.add(r);
          runScores?.add(r);
        },
      }).finally(() => progress.done());
      scored = await scoreRun();
      run = {
        ...toRunFile(result),
        ...fields,
        repeat,
        min_pass_rate: options.minPassRate ?? 1,
        ...(scored === undefined ? {} : { scores: scored.scores }),
      };
      exitCode = result.exitCode;
      judgeCalls = result.judgeCalls;
      ran = result.total;
      human.write(`${verboseReport(run, { k: options.passK })}\n`);
    }
    if (shard !== undefined) {
      human.write(`${shardLine({ ...shard, of }, ids.length)}\n`);
    }
    if (options.failFast === true && ran < ids.length) {
      process.stderr.write(
        `--fail-fast: stopped after the first case that did not pass; ${
          ids.length - ran
        } case(s) not run\n`,
      );
    }
    if (counterexamples !== undefined) {
      for (const line of notSearched.lines()) human.write(`${line}\n`);
    }
    if (scored !== undefined) human.write(`${scored.lines.join("\n")}\n`);
    // What a run cost goes beside stdout; a run without a judge cost no judge calls.
    if (options.verbose === true && judge !== undefined) {
      process.stderr.write(`judge calls: ${judgeCalls}\n`);
      if (typeof options.cache === "string") process.stderr.write(`judge cache hits: ${hits()}\n`);
    }
    if (run !== undefined) {
      // A streamed run file is written already; --json - prints it.
      writeReports(
        run,
        repeat === undefined && options.json !== "-" ? withoutJson(options) : options,
      );
    }
    exitSoonAfter(exitCode);
    return exitCode;
  } finally {
    streamed?.close();
    await agent?.close();
    await reference?.database?.close();
    await databases?.close();
    (execute as { close?: () => void } | undefined)?.close?.();
    if (keepPg) await (await import("../counterexample/pg_given.ts")).keepPgEngines(false);
    await closeDefaultPool();
  }
}
