/**
 * What a run sets up from its options before the first case: the options
 * checked and given their defaults, the cases chosen (--case, --tags,
 * --rerun-failed, --shard), the rules and the judge loaded, the
 * counterexample search's settings.
 *
 * @module
 */
import * as path from "node:path";
import process from "node:process";
import { UsageError } from "../errors.ts";
import type { Check, Judge } from "../eval/check.ts";
import type { CaseSource } from "../eval/case_source.ts";
import { readRunFile } from "../eval/run_file.ts";
import { selectCases } from "../eval/select.ts";
import { casesFingerprint, parseShard, shardCases } from "../eval/shard.ts";
import type { CounterexampleSettings } from "../eval/check_sources.ts";
import { RUN_OPTION_ROWS, type RunOptionValues } from "../eval/run_options.ts";
import { cachedJudge } from "../judge/cache.ts";
import { openAiJudge } from "../judge/mod.ts";
import { checkJudgeReachable } from "../judge/openai_judge.ts";
import { type CheckLike, loadChecks, loadFunction } from "./load_module.ts";
import { checkAgentOptions } from "./agent_options.ts";

/**
 * A rule a config file names: a built-in check, or a module export to load.
 *
 * @example
 * ```ts
 * import { ReadOnly, type RuleSpec } from "../../mod.ts";
 * const rules: RuleSpec[] = [{ kind: "builtin", name: "read_only", check: new ReadOnly() }];
 * rules.length; // 1
 * ```
 */
export type RuleSpec =
  | { readonly kind: "builtin"; readonly name: string; readonly check: Check }
  | { readonly kind: "module"; readonly ref: string };

/**
 * The options of a run, as `dbagenteval run` takes them (one property a
 * flag, camelCase: `--db-dir` is `dbDir`; lib/eval/run_options.ts lists
 * them), every one optional: a missing one has the flag's default.
 *
 * @example
 * ```ts
 * import type { RunOptions } from "../../mod.ts";
 * const options: RunOptions = { predictions: "preds.sql", dbDir: "database", score: "spider" };
 * options.score; // "spider"
 * ```
 */
export interface RunOptions {
  /** --agent: your agent function, e.g. shop.ts:myAgent */
  readonly agent?: string;
  /** --agent-cmd: an agent program speaking JSON lines on stdin/stdout, e.g. "python3 agent.py" */
  readonly agentCmd?: string;
  /** --agent-url: an agent service: POST each case's request JSON to this URL */
  readonly agentUrl?: string;
  /** --agent-header: "Name: value" sent with every --agent-url request (repeatable) */
  readonly agentHeader?: readonly string[];
  /** --execute: your executor, for reference_sql */
  readonly execute?: string;
  /** --db: run reference_sql read-only on this database (no executor needed): a SQLite file, postgres://user:pass@host:port/db, pglite:FILE.sql or pglite:DIR */
  readonly db?: string;
  /** --allow-superuser: with a postgres:// --db: accept a superuser login (or a member of pg_read_server_files, pg_write_server_files or pg_execute_server_program), whose SQL could read and write files and run programs on the database server; refused by default */
  readonly allowSuperuser?: boolean;
  /** --db-dir: a folder of SQLite databases, one per case's db: (DIR/<db>/<db>.sqlite or DIR/<db>.sqlite, as Spider and BIRD ship them); each case's SQL runs on its own */
  readonly dbDir?: string;
  /** --predictions: answer each case with SQL a model already wrote: Spider's (one SQL a line) or BIRD's predictions JSON, in the order of the cases file */
  readonly predictions?: string;
  /** --strict-quotes: refuse double-quoted string literals (WHERE name = "Paris") in SQL run on SQLite, as SQLite's recommended build does (default: read them as strings, as the sqlite3 library and Python do) */
  readonly strictQuotes?: boolean;
  /** --strict-columns: fail rows with a column beyond the expected ones, for consumers that read columns by position (a case's strict_columns: wins; default: extra columns are fine) */
  readonly strictColumns?: boolean;
  /** --agent-db: give each case a fresh copy of this SQLite file and check what the agent changed */
  readonly agentDb?: string;
  /** --agent-db-key: in the --agent-db diff, pair the rows of TABLE by these columns, e.g. users=email (repeatable) */
  readonly agentDbKey?: readonly string[];
  /** --agent-db-ignore: leave COLUMN or TABLE.COLUMN out of the --agent-db diff (repeatable, globs), e.g. updated_at */
  readonly agentDbIgnore?: readonly string[];
  /** --agent-db-ignore-table: leave TABLE out of the --agent-db diff (repeatable, globs) */
  readonly agentDbIgnoreTable?: readonly string[];
  /** --rules: a list of rules */
  readonly rules?: string;
  /** --judge: your judge function */
  readonly judge?: string;
  /** --judge-url: an OpenAI-compatible chat-completions endpoint to judge with */
  readonly judgeUrl?: string;
  /** --judge-model: the model for --judge-url */
  readonly judgeModel?: string;
  /** --judge-concurrency: judge calls at the same time, across cases */
  readonly judgeConcurrency?: number;
  /** --tags: run only cases with one of these comma-separated tags */
  readonly tags?: string;
  /** --case: run only this case; a glob such as 'orders-*' picks several (repeatable) */
  readonly case?: readonly string[];
  /** --rerun-failed: run only the cases that did not pass in this saved run */
  readonly rerunFailed?: string;
  /** --resume: finish this run file, left by a run that was stopped (killed, Ctrl-C): ask only the cases it lacks, and write the whole run there (or to --json) */
  readonly resume?: string;
  /** --shard: run only shard i of n (stable by case id; e.g. 2/4), for a CI matrix */
  readonly shard?: string;
  /** --shard-durations: balance --shard by the case durations in this saved run, not by count */
  readonly shardDurations?: string;
  /** --fail-fast: start no new case after the first one that does not pass */
  readonly failFast?: boolean;
  /** --concurrency: cases run at the same time (with --agent-cmd: worker processes) */
  readonly concurrency?: number;
  /** --timeout: seconds a case may take before it is an ERROR (its --agent is stopped) */
  readonly timeout?: number;
  /** --max-result-mb: largest value or result a SQL statement may give, in MB (each SQLite engine may use 8 times that, at least 256 MB) */
  readonly maxResultMb?: number;
  /** --max-temp-mb: most MB of temporary files the SQL engines may hold at once (sorts, temporary tables) */
  readonly maxTempMb?: number;
  /** --repeat: run every case n times; its verdict comes from its pass rate */
  readonly repeat?: number;
  /** --min-pass-rate: with --repeat: the share of attempts a case must pass (default 1: all) */
  readonly minPassRate?: number;
  /** --pass-k: with --repeat: the k of the pass@k and pass^k shown (default: the repeat count) */
  readonly passK?: number;
  /** --cache: keep judge replies in this folder and reuse them on the next run */
  readonly cache?: string | boolean;
  /** --counterexamples: when the agent's rows match the reference's, search for a database (from --db) on which its SQL is wrong */
  readonly counterexamples?: boolean;
  /** --score: also score each question as a leaderboard does, beside our verdict, and list where they disagree: spider (test-suite-sql-eval), bird (EX and Soft-F1), bird-ex, bird-f1, bird-ves (comma-separated) */
  readonly score?: string;
  /** --keep-distinct: with --score spider: keep DISTINCT and every statement, as Spider's evaluator does with its --keep_distinct (default: it removes both) */
  readonly keepDistinct?: boolean;
  /** --verbose: print every check with the case times and the slowest cases; judge calls on stderr */
  readonly verbose?: boolean;
  /** --json: save the full result as JSON (diff reads it; - for stdout) */
  readonly json?: string;
  /** --md: save a short Markdown report (- for stdout) */
  readonly md?: string;
  /** --junit: save a JUnit XML report (GitLab, Jenkins, GitHub actions) */
  readonly junit?: string;
  /** --html: save a self-contained HTML report */
  readonly html?: string;
  /** --github: GitHub Actions annotations and job summary (on by itself when GITHUB_ACTIONS=true) */
  readonly github?: boolean;
  /**
   * The folder --agent-cmd runs in: the config file's folder when the
   * command came from its `agent_cmd:` (like every path there), else the
   * current folder.
   */
  readonly agentCmdDir?: string | undefined;
  /** Rules from --rule flags or the config file's rules: list. */
  readonly ruleSpecs?: readonly RuleSpec[] | undefined;
}

// RunOptions is written out because a published API needs explicit types;
// these two lines make it a compile error for it to differ from the table.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const SAME_AS_THE_TABLE: Same<
  Omit<RunOptions, "agentCmdDir" | "ruleSpecs">,
  Omit<RunOptionValues, "rule" | "config">
> = true;
void SAME_AS_THE_TABLE;

/** The run's options with the flags' defaults filled in. */
export type ResolvedRunOptions = RunOptions & {
  readonly concurrency: number;
  readonly judgeConcurrency: number;
  readonly timeout: number;
  readonly maxResultMb: number;
  readonly maxTempMb: number;
};

/**
 * The options with every flag's default where none is given.
 *
 * @param options the options given
 * @returns the options the run uses
 */
export function withDefaults(options: RunOptions): ResolvedRunOptions {
  const out: Record<string, unknown> = { ...options };
  for (const row of RUN_OPTION_ROWS) {
    if ("default" in row && out[row.key] === undefined) out[row.key] = row.default;
  }
  return out as unknown as ResolvedRunOptions;
}

/**
 * The --tags list.
 *
 * @param tags the option's text
 * @returns the tags, or undefined without the option
 */
export function parseTags(tags: string | undefined): string[] | undefined {
  if (tags === undefined) return undefined;
  const list = tags.split(",").map((t) => t.trim()).filter((t) => t !== "");
  if (list.length === 0) {
    throw new UsageError(`--tags "${tags}": give one or more tags, e.g. easy,money`);
  }
  return list;
}

/**
 * The case timeout in milliseconds.
 *
 * @param seconds --timeout
 * @returns the milliseconds
 */
export function timeoutMs(seconds: number | undefined): number | undefined {
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
 *
 * @param options the run's options
 * @returns the settings, or undefined without --counterexamples
 */
export function counterexampleSettings(options: RunOptions): CounterexampleSettings | undefined {
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

/**
 * Refuses options that do not go together, before anything is loaded.
 *
 * @param options the run's options
 */
export function checkOptions(options: RunOptions): void {
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
 *
 * @param options the run's options
 * @param note where a note for the person goes
 * @returns the judge, if any, and the count of cache hits
 */
export async function loadCachedJudge(
  options: RunOptions,
  note: (line: string) => void,
): Promise<{ judge: Judge | undefined; hits: () => number }> {
  const judge = await loadJudge(options);
  const dir = options.cache;
  if (judge === undefined || typeof dir !== "string") return { judge, hits: () => 0 };
  if ((options.repeat ?? 1) > 1) {
    note("--cache is not used with --repeat: every attempt asks the judge");
    return { judge, hits: () => 0 };
  }
  return cachedJudge(judge, {
    dir,
    endpoint: options.judgeUrl ?? `${options.judge}`,
    model: options.judgeModel ?? "",
  });
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

/**
 * The rules of --rule/config (built-in ones built, modules loaded) and of --rules.
 *
 * @param options the run's options
 * @returns the rules, or undefined when none is given
 */
export async function loadRules(options: RunOptions): Promise<CheckLike[] | undefined> {
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
 * The report files as absolute paths: fixed now, whatever the current
 * folder is later.
 *
 * @param options the run's options
 * @returns the --json, --md and --junit files resolved
 */
export function resolvedOutputs(options: RunOptions): Partial<RunOptions> {
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
 *
 * @param source the cases file
 * @param options the run's options
 * @param tags the --tags list
 * @returns the choice
 */
export async function chooseCases(
  source: CaseSource,
  options: RunOptions,
  tags: string[] | undefined,
) {
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
