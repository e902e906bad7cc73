/**
 * Everything `dbagenteval run` does, as one call: the cases file read and
 * chosen, the databases opened, the agent loaded or started, the one case
 * loop run with its observers (the run file, streamed, and --resume; the
 * tally and exit code; --score; the counterexample notes; progress), the
 * summary printed and the reports written.
 *
 * @module
 */
import { diffKeys } from "../option_values.ts";
import process from "node:process";
import type { ClosableAgent } from "../agents/types.ts";
import type { TestCase } from "../eval/case.ts";
import { CaseSource, HAS_REFERENCE_SQL, WANTS_DB } from "../eval/case_source.ts";
import { readRunFile, RUN_FORMAT, RUN_FORMAT_VERSION, type RunFile } from "../eval/run_file.ts";
import { checkResumable } from "../eval/run_stream.ts";
import { runLoop, type RunObserver } from "../eval/run_loop.ts";
import { checkRepeat, repeatedCases, repeatFeed } from "../eval/repeat.ts";
import { shardLine } from "../eval/shard.ts";
import { verboseReport } from "../eval/report_text.ts";
import type { SuiteOptions, SuiteTotals } from "../eval/suite.ts";
import { DATABASE_KINDS } from "../databases/registry.ts";
import { closeDefaultPool, configureDefaultPool, defaultPool } from "../isolation/pool.ts";
import { limitsForResultMb } from "../isolation/service.ts";
import { sweepLeftovers } from "../isolation/temp_storage.ts";
import { UsageError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { loadAgent } from "./agent_options.ts";
import { counterexampleNotes } from "./counterexample_notes.ts";
import { isStdout } from "./output.ts";
import { executorCases, loadExecutor } from "./reference_sql.ts";
import { checkReportPaths, githubWanted, reportOutputs, writeReports } from "./reports.ts";
import { RunFileObserver } from "./run_file_observer.ts";
import {
  checkOptions,
  chooseCases,
  counterexampleSettings,
  loadCachedJudge,
  loadRules,
  parseTags,
  resolvedOutputs,
  type RunOptions,
  timeoutMs,
  withDefaults,
} from "./run_setup.ts";
import { parseScores, RunScores } from "./scores.ts";
import { DEFAULT_CHECK_SOURCES } from "./check_sources.ts";

/**
 * Where a run's text goes: anything with a `write(text)`.
 *
 * @example
 * ```ts
 * import type { TextSink } from "../../mod.ts";
 * const lines: string[] = [];
 * const sink: TextSink = { write: (text: string) => lines.push(text) };
 * sink.write("PASS  a\n");
 * ```
 */
export interface TextSink {
  write(text: string): unknown;
}

/**
 * How a run talks to its caller, beside its options.
 *
 * @example
 * ```ts
 * import type { RunIo } from "../../mod.ts";
 * const done: string[] = [];
 * const io: RunIo = { stdout: { write: () => {} }, observers: [{ caseDone: (r) => void done.push(r.id) }] };
 * io.observers?.length; // 1
 * ```
 */
export interface RunIo {
  /** The run output (the summary, the scores); default process.stdout. */
  readonly stdout?: TextSink | undefined;
  /** Notes beside it (--verbose's judge calls, --fail-fast's stop); default process.stderr. */
  readonly stderr?: TextSink | undefined;
  /** More observers of the run's cases (a progress line, your own). */
  readonly observers?: readonly RunObserver[] | undefined;
  /**
   * The command that finishes the run from its run file, printed when a
   * signal stops it (the CLI gives its own arguments with `--resume FILE`).
   */
  readonly resumeCommand?: ((file: string) => string) | undefined;
}

/**
 * What a run gives back.
 *
 * @example
 * ```ts
 * import type { RunOutcome } from "../../mod.ts";
 * const outcome: RunOutcome = {
 *   exitCode: 0,
 *   totals: { total: 1, passed: 1, failed: 0, errors: 0, skipped: 0 },
 *   run: undefined,
 * };
 * outcome.exitCode; // 0
 * ```
 */
export interface RunOutcome {
  /** 0 when every case passed (or was skipped), 1 otherwise: the CLI's exit code. */
  readonly exitCode: 0 | 1;
  /** The run's totals (a --resume's cases included). */
  readonly totals: SuiteTotals;
  /** The run file, when the run kept one it read back (--verbose, --repeat, a report). */
  readonly run: RunFile | undefined;
}

/**
 * Runs a cases file against an agent, exactly as `dbagenteval run FILE`
 * with the same options: prints the run output to `io.stdout`, writes the
 * run file (`json`) as the cases finish and every report asked for, and
 * gives the exit code.
 *
 * @param file the cases file (.yaml, .yml, .json or .jsonl)
 * @param given the options, one property a flag of `run` (`dbDir` for `--db-dir`)
 * @param io where the text goes, and more observers
 * @returns the exit code, the totals and the run file
 * @throws {UsageError} for options that cannot run (the CLI's exit code 2)
 * @example
 * ```ts
 * import * as fs from "node:fs";
 * import * as os from "node:os";
 * import * as path from "node:path";
 * import { runEval } from "../../mod.ts";
 * const dir = fs.mkdtempSync(path.join(os.tmpdir(), "run-"));
 * fs.writeFileSync(path.join(dir, "cases.yaml"), "- {id: two, question: '1 + 1?', reference_sql: SELECT 2 AS n}\n");
 * fs.writeFileSync(path.join(dir, "preds.sql"), "SELECT 1 + 1\n");
 * fs.writeFileSync(path.join(dir, "empty.db"), "");
 * const text: string[] = [];
 * const outcome = await runEval(path.join(dir, "cases.yaml"), {
 *   predictions: path.join(dir, "preds.sql"),
 *   db: path.join(dir, "empty.db"),
 *   json: path.join(dir, "run.json"),
 * }, { stdout: { write: (t: string) => text.push(t) } });
 * outcome.exitCode; // 0
 * text.join("").startsWith("PASS  two"); // true
 * ```
 */
export async function runEval(
  file: string,
  given: RunOptions = {},
  io: RunIo = {},
): Promise<RunOutcome> {
  let options = withDefaults(given);
  checkOptions(options);
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const note = (line: string) => void stderr.write(`${line}\n`);
  const repeat = options.repeat;
  if (repeat !== undefined) {
    checkRepeat({ repeat, minPassRate: options.minPassRate, failFast: options.failFast });
  }
  const tags = parseTags(options.tags);
  const timeout = timeoutMs(options.timeout);
  // SQL runs in the worker pool: two statements a case at most (the
  // reference SQL and the agent's), under the engines' limits.
  configureDefaultPool({
    size: 2 * options.concurrency,
    limits: limitsForResultMb(options.maxResultMb, options.maxTempMb),
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
  // What needs the cases themselves (--score, --counterexamples) reads them all once.
  let heldCases: TestCase[] | undefined;
  const held = (): TestCase[] => heldCases ??= source.cases(positions);
  const resumed = options.resume === undefined ? undefined : await readRunFile(options.resume);
  if (resumed !== undefined) {
    if (repeat !== undefined) {
      throw new UsageError("--resume finishes a run without --repeat; leave one out");
    }
    checkResumable(resumed, options.resume!, ids);
  }
  const answered = new Set(resumed?.cases.map((c) => c.id));
  const remaining = ids.filter((id) => !answered.has(id)).length;
  checkReportPaths(options);
  options = { ...options, ...resolvedOutputs(options) };
  if (rerun !== undefined && of === 0) {
    note(`${options.rerunFailed}: no case failed there; nothing to rerun`);
  }
  const outputs = reportOutputs(options);
  // With an output on stdout (-), the text for a person goes to stderr.
  const human = Object.values(outputs).some(isStdout) ? stderr : stdout;
  const counterexamples = counterexampleSettings(options);
  // On PostgreSQL, one PGlite per database for the whole run, not per case.
  const keepPg = counterexamples !== undefined && options.db !== undefined &&
    DATABASE_KINDS.find((k) => k.matches(options.db!))?.name !== "sqlite";
  const pgGiven = keepPg ? await import("../counterexample/pg_given.ts") : undefined;
  await pgGiven?.keepPgEngines(true);
  const scores = parseScores(options.score, { keepDistinct: options.keepDistinct });
  const runScores = scores === undefined ? undefined : new RunScores(scores, held());
  const reference = await loadExecutor(options, file, executorCases(source, positions), timeout);
  // The searches read the database the reference SQL runs on: one PGlite for both.
  if (pgGiven !== undefined && reference?.database !== undefined) {
    pgGiven.lendPgDatabase(options.db!, reference.database);
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
  let runFile: RunFileObserver | undefined;
  try {
    agent = await loadAgent(
      options,
      Math.max(1, Math.min(options.concurrency, remaining)),
      // A predictions file is aligned with every case of the file.
      options.predictions === undefined ? [] : source.cases(source.ids.map((_, i) => i)),
    );
    const rules = await loadRules(options);
    const { judge, hits } = await loadCachedJudge(options, note);
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
        ? {
          agentDb: options.agentDb,
          agentDbMaxGrowthBytes: options.maxTempMb * 2 ** 20,
          agentDbDiff: {
            ...(options.agentDbKey === undefined ? {} : { keys: diffKeys(options.agentDbKey) }),
            ...(options.agentDbIgnore === undefined ? {} : { ignore: options.agentDbIgnore }),
            ...(options.agentDbIgnoreTable === undefined
              ? {}
              : { ignoreTables: options.agentDbIgnoreTable }),
          },
        }
        : {}),
      ...(counterexamples !== undefined ? { counterexamples } : {}),
      ...(reference?.database !== undefined ? { dialect: reference.database.dialect } : {}),
      ...(options.failFast === true ? { failFast: true } : {}),
      ...(options.strictColumns === true ? { strictColumns: true } : {}),
    };
    const notSearched = counterexampleNotes(
      held,
      [outputs["--json"], outputs["--md"], outputs["--html"]].every((o) => o === undefined),
    );
    let scored: Awaited<ReturnType<RunScores["score"]>> | undefined;
    // The run file is written as the cases finish, and only totals stay
    // in memory; what needs every case (--verbose, --repeat's report, a
    // report but --json FILE) reads the file back.
    const readBack = repeat !== undefined || options.verbose === true ||
      options.json === "-" ||
      Object.entries(outputs).some(([flag, out]) => flag !== "--json" && out !== undefined) ||
      githubWanted(options);
    const target = typeof options.json === "string" && options.json !== "-"
      ? options.json
      : options.resume;
    runFile = new RunFileObserver({
      ids,
      header: {
        format: RUN_FORMAT,
        version: RUN_FORMAT_VERSION,
        tool_version: VERSION,
        created_at: new Date().toISOString(),
        cases_file: file,
        ...(shard === undefined ? {} : { shard: { ...shard, of, fingerprint: fingerprint! } }),
        ...(repeat === undefined ? {} : { repeat, min_pass_rate: options.minPassRate ?? 1 }),
      },
      file: target,
      keep: readBack,
      resumed,
      resumeWith: target === undefined ? undefined : io.resumeCommand?.(target),
      scores: () => scored?.scores,
    });
    const todo = runFile.positions.map((p) => positions[p]!);
    // Every consumer of the cases is an observer of the one loop; the
    // scores are computed at its end, before the run file records them.
    const observers: RunObserver[] = [
      ...(runScores === undefined ? [] : [{
        caseDone: runScores.add.bind(runScores),
        finish: async () => {
          scored = await runScores.score({
            timeoutMs: timeout,
            db: options.db,
            dbDir: options.dbDir,
            strictQuotes: options.strictQuotes,
          });
        },
      }]),
      ...(counterexamples === undefined ? [] : [notSearched]),
      runFile,
      ...io.observers ?? [],
    ];
    const feed = source.feed(todo);
    const needs = {
      referenceSql: source.having(todo, HAS_REFERENCE_SQL).length > 0,
      wantsDb: source.having(todo, WANTS_DB).length > 0,
    };
    const end = repeat === undefined
      ? await runLoop(feed, agent, suiteOptions, needs, observers)
      : await runLoop(repeatFeed(feed, repeat), agent, suiteOptions, needs, [
        repeatedCases(repeat, options.minPassRate ?? 1, observers),
      ]);
    const tally = runFile.tally;
    const run = runFile.run;
    // stdout is the documented run output (docs/harness.md) unless --verbose asks for more.
    human.write(
      `${
        (options.verbose === true || repeat !== undefined) && run !== undefined
          ? verboseReport(run, { k: options.passK })
          : tally.summary()
      }\n`,
    );
    if (shard !== undefined) human.write(`${shardLine({ ...shard, of }, ids.length)}\n`);
    if (options.failFast === true && tally.totals.total < ids.length) {
      note(
        `--fail-fast: stopped after the first case that did not pass; ${
          ids.length - tally.totals.total
        } case(s) not run`,
      );
    }
    if (counterexamples !== undefined) {
      for (const line of notSearched.lines()) human.write(`${line}\n`);
    }
    if (scored !== undefined) human.write(`${scored.lines.join("\n")}\n`);
    // What a run cost goes beside stdout; a run without a judge cost no judge calls.
    if (options.verbose === true && judge !== undefined) {
      note(`judge calls: ${end.judgeCalls}`);
      if (typeof options.cache === "string") note(`judge cache hits: ${hits()}`);
    }
    // The run file is written already; --json - prints it.
    if (run !== undefined) {
      const { json, ...others } = options;
      await writeReports(run, json === "-" ? options : others);
    }
    return { exitCode: tally.exitCode, totals: tally.totals, run };
  } finally {
    runFile?.close();
    await agent?.close();
    await reference?.database?.close();
    await databases?.close();
    (execute as { close?: () => void } | undefined)?.close?.();
    await pgGiven?.keepPgEngines(false);
    await closeDefaultPool();
  }
}
