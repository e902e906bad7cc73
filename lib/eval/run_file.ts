/**
 * The `--json` run file: a versioned JSON document of a whole run, which
 * `diff` reads back (documented in docs/run-format.md).
 *
 * @module
 */
import { readTextFile } from "../read_text_file.ts";
import { findJsonError } from "./_json_error.ts";
import * as v from "valibot";
import { UsageError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { jsonText } from "./json_text.ts";
import { diffToJson } from "../diff/json.ts";
import { decodeRunFileRows, runFileRows } from "./run_file_json.ts";
import type { CheckResult, CounterexampleFinding, Status } from "./check.ts";
import type { CaseResult, SuiteResult } from "./suite.ts";
import type { Stage } from "./trace.ts";
import { readPartialRun } from "./run_stream.ts";

/**
 * The `format` value of every run file.
 *
 * @example
 * ```ts
 * import { defineCase, RUN_FORMAT, runSuite, toRunFile } from "../../mod.ts";
 * const result = await runSuite([defineCase({ id: "a", question: "Hi?" })], () => "Hello");
 * toRunFile(result).format === RUN_FORMAT; // true
 * ```
 */
export const RUN_FORMAT = "dbagenteval-run";
/**
 * The run file version this library writes, and the newest it reads.
 *
 * @example
 * ```ts
 * import { defineCase, RUN_FORMAT_VERSION, runSuite, toRunFile } from "../../mod.ts";
 * const result = await runSuite([defineCase({ id: "a", question: "Hi?" })], () => "Hello");
 * toRunFile(result).version === RUN_FORMAT_VERSION; // true
 * ```
 */
export const RUN_FORMAT_VERSION = 1;

/**
 * One check's finding in a run file.
 *
 * @example
 * ```ts
 * import { type RunFileCheck, toRunFile } from "./run_file.ts";
 * import { runSuite } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const result = await runSuite([defineCase({ id: "a", question: "Hi?" })], () => "Hello");
 * const check: RunFileCheck | undefined = toRunFile(result).cases[0]?.checks[0];
 * check; // { stage: "answer", name: "no_error", status: "PASS", detail: "" }
 * ```
 */
export interface RunFileCheck {
  readonly stage: string;
  readonly name: string;
  readonly status: Status;
  readonly detail: string;
}

/**
 * One case in a run file.
 *
 * @example
 * ```ts
 * import { type RunFileCase, toRunFile } from "./run_file.ts";
 * import { runSuite } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const result = await runSuite([defineCase({ id: "a", question: "Hi?" })], () => "Hello");
 * const saved: RunFileCase | undefined = toRunFile(result).cases[0];
 * [saved?.id, saved?.verdict, saved?.answer, saved?.sql]; // ["a", "PASS", "Hello", null]
 * ```
 */
export interface RunFileCase {
  readonly id: string;
  readonly question: string;
  readonly tags: readonly string[];
  readonly verdict: Status;
  readonly failed_stage: string | null;
  readonly error: string | null;
  readonly duration_ms: number;
  /** The agent's answer text, when it gave one. */
  readonly answer: string | null;
  /** The agent's SQL (its last generate stage), when it gave one. */
  readonly sql: string | null;
  readonly checks: readonly RunFileCheck[];
  /** The case's reference_sql, when it has one. */
  readonly reference_sql?: string;
  /**
   * With --agent-db: the diff of the case's database copy, in the diff
   * document's JSON form (docs/diff-format.md); otherwise absent.
   */
  readonly db_diff?: unknown;
  /**
   * With --counterexamples, when the counterexample check found a database
   * on which the agent's SQL is wrong: its script and both results on it.
   */
  readonly counterexample?: CounterexampleFinding;
  /** The line the case starts on in its cases file, when known. */
  readonly line?: number;
  /** The agent's trace, stage by stage (rows capped at {@link RUN_FILE_MAX_ROWS}). */
  readonly trace?: readonly RunFileStage[];
  /** The reference_sql's rows, when it ran (capped at {@link RUN_FILE_MAX_ROWS}). */
  readonly reference_rows?: readonly Record<string, unknown>[];
  /**
   * The reference rows' true column names, only when a name repeats (the rows
   * then key the later ones `Name (2)`, ...).
   */
  readonly reference_columns?: readonly string[];
  /** With --repeat: every attempt, in order; the case's verdict comes from its pass rate. */
  readonly attempts?: readonly RunFileAttempt[];
  /** With --repeat: how many attempts passed. */
  readonly passes?: number;
  /** With --repeat: some attempts passed and some did not. */
  readonly flaky?: boolean;
}

/**
 * One stage of a case's trace in a run file. Its rows keep SQLite values as
 * they are (a bigint, a BLOB's bytes); `runFileJson` (run_file_json.ts) writes them.
 *
 * @example
 * ```ts
 * import { type RunFileStage, toRunFile } from "./run_file.ts";
 * import { runSuite } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const result = await runSuite([defineCase({ id: "a", question: "Hi?" })], () => ({ sql: "SELECT 1", rows: [{ n: 1 }] }));
 * const stages: readonly RunFileStage[] | undefined = toRunFile(result).cases[0]?.trace;
 * stages?.map((s) => s.kind); // ["generate", "execute"]
 * ```
 */
export interface RunFileStage {
  readonly kind: string;
  readonly name: string;
  /** The stage's output as text (JSON for a value that is not text), or null. */
  readonly output: string | null;
  readonly rows?: readonly Record<string, unknown>[];
  /** The rows' true column names, only when a name repeats (keys `Name (2)`, ...). */
  readonly columns?: readonly string[];
  /** How many rows the stage had, when more than the run file keeps. */
  readonly row_count?: number;
  readonly error?: string;
}

/**
 * One attempt of a repeated case (`run --repeat N`).
 *
 * @example
 * ```ts
 * import { type RunFileAttempt } from "./run_file.ts";
 * const attempt: RunFileAttempt = {
 *   verdict: "FAIL", failed_stage: "execute", error: null, duration_ms: 12,
 *   answer: null, sql: "SELECT 3", checks: [],
 * };
 * attempt.verdict; // "FAIL"
 * ```
 */
export interface RunFileAttempt {
  readonly verdict: Status;
  readonly failed_stage: string | null;
  readonly error: string | null;
  readonly duration_ms: number;
  readonly answer: string | null;
  readonly sql: string | null;
  readonly checks: readonly RunFileCheck[];
}

/**
 * How many rows of each stage (and of the reference query) a run file
 * keeps: enough to show and compare in a report, small enough that a run of
 * a thousand cases stays a file one can open.
 *
 * @example
 * ```ts
 * import { RUN_FILE_MAX_ROWS } from "./run_file.ts";
 * RUN_FILE_MAX_ROWS; // 100
 * ```
 */
export const RUN_FILE_MAX_ROWS = 100;

/**
 * Which part of a sharded run a run file holds (`run --shard i/n`).
 *
 * @example
 * ```ts
 * import type { RunFileShard } from "./run_file.ts";
 * const shard: RunFileShard = { index: 1, total: 3, of: 10, fingerprint: "9f2c1a0b" };
 * shard.total; // 3
 * ```
 */
export interface RunFileShard {
  /** 1-based: shard `index` of `total`. */
  readonly index: number;
  readonly total: number;
  /** How many cases the whole (unsharded) selection has. */
  readonly of: number;
  /** A hash of the whole selection's case ids: shards of one run share it. */
  readonly fingerprint: string;
}

/**
 * One leaderboard score of a run (`run --score`): its total beside our pass
 * rate over the same questions, and every question where the two disagree.
 *
 * @example
 * ```ts
 * import type { RunFileScore } from "./run_file.ts";
 * const score: RunFileScore = {
 *   name: "spider", total: 45.5, ours: 42.6, questions: 972, no_verdict: 0,
 *   disagreements: [{ id: "55", value: 1, official: true, ours: false, detail: "the same rows", reason: "DISTINCT" }],
 * };
 * ```
 */
export interface RunFileScore {
  readonly name: string;
  /** The leaderboard's number, in percent. */
  readonly total: number;
  /** Our pass rate over the same questions, in percent. */
  readonly ours: number;
  readonly questions: number;
  /** Questions left out because their gold SQL failed. */
  readonly no_verdict: number;
  /** How it was run, when not as its evaluator's defaults: `test-suite accuracy (4 databases a question)`. */
  readonly variant?: string;
  readonly disagreements: readonly {
    readonly id: string;
    readonly value: number;
    readonly official: boolean;
    readonly ours: boolean;
    readonly detail: string;
    readonly reason: string;
  }[];
}

/**
 * A whole run, as `run --json` saves it.
 *
 * @example
 * ```ts
 * import { parseRunFile, type RunFile, toRunFile } from "./run_file.ts";
 * import { runFileJson } from "./run_file_json.ts";
 * import { runSuite } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const result = await runSuite([defineCase({ id: "a", question: "Hi?" })], () => "Hello");
 * const json = runFileJson(toRunFile(result)); // what `run --json` saves
 * const run: RunFile = parseRunFile(json, "run.json");
 * run.format; // "dbagenteval-run"
 * run.totals; // { total: 1, passed: 1, failed: 0, errors: 0, skipped: 0 }
 * ```
 */
export interface RunFile {
  readonly format: typeof RUN_FORMAT;
  readonly version: number;
  readonly tool_version: string;
  readonly created_at: string;
  readonly totals: {
    readonly total: number;
    readonly passed: number;
    readonly failed: number;
    readonly errors: number;
    readonly skipped: number;
  };
  readonly failures_by_stage: Readonly<Record<string, number>>;
  readonly judge_calls: number;
  readonly duration_ms: number;
  readonly cases: readonly RunFileCase[];
  /** The cases file the run read, as given on the command line. */
  readonly cases_file?: string;
  /** With --shard: which part of the cases this file holds. */
  readonly shard?: RunFileShard;
  /** With --repeat: attempts per case. */
  readonly repeat?: number;
  /** With --repeat: the share of attempts a case must pass (--min-pass-rate). */
  readonly min_pass_rate?: number;
  /** With --score: each leaderboard score beside ours, and the questions where they disagree. */
  readonly scores?: readonly RunFileScore[];
  /**
   * Only when read back from a run that was stopped before its end (killed,
   * Ctrl-C): true. Its totals count the cases it has; `run --resume` finishes it.
   */
  readonly partial?: boolean;
}

/**
 * The most characters the run file keeps of one text: an answer, SQL, a
 * stage's output or error, a check's detail, a case's error. Past it, the
 * text is cut and ends with how long it was, so that an agent answering
 * 100 MB per case does not make a run file of gigabytes.
 *
 * @example
 * ```ts
 * import { RUN_FILE_MAX_TEXT } from "./run_file.ts";
 * RUN_FILE_MAX_TEXT; // 100000
 * ```
 */
export const RUN_FILE_MAX_TEXT = 100_000;

function cap(value: string): string {
  if (value.length <= RUN_FILE_MAX_TEXT) return value;
  return `${value.slice(0, RUN_FILE_MAX_TEXT)}... [cut: ${value.length} characters in all]`;
}

function text(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return cap(typeof value === "string" ? value : jsonText(value));
}

/**
 * The run file of a suite result (a plain, JSON-safe object).
 *
 * @param result what runSuite returned
 * @param createdAt the time stamp to record; now by default
 * @returns the run file; write it with `runFileJson` (run_file_json.ts)
 * @example
 * ```ts
 * import { toRunFile } from "./run_file.ts";
 * import { runFileJson } from "./run_file_json.ts";
 * import { runSuite } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const result = await runSuite([defineCase({ question: "Q" })], () => "an answer");
 * runFileJson(toRunFile(result), 2);
 * ```
 */
export function toRunFile(result: SuiteResult, createdAt: Date = new Date()): RunFile {
  return {
    format: RUN_FORMAT,
    version: RUN_FORMAT_VERSION,
    tool_version: VERSION,
    created_at: createdAt.toISOString(),
    totals: {
      total: result.total,
      passed: result.passed,
      failed: result.failed,
      errors: result.errors,
      skipped: result.skipped,
    },
    failures_by_stage: { ...result.failuresByStage },
    judge_calls: result.judgeCalls,
    duration_ms: round(result.durationMs),
    cases: result.cases.map(caseOf),
  };
}

function attemptOf(c: CaseResult): RunFileAttempt {
  return {
    verdict: c.verdict,
    failed_stage: c.failedStage ?? null,
    error: c.error === undefined ? null : cap(c.error),
    duration_ms: round(c.durationMs),
    answer: text(c.scorecard.trace?.lastOf("answer")?.output),
    sql: text(c.scorecard.trace?.lastOf("generate")?.output),
    checks: c.checks.map((r) => ({
      stage: r.stage,
      name: r.name,
      status: r.status,
      detail: cap(r.detail),
    })),
  };
}

function counterexampleOf(
  checks: readonly CheckResult[],
): { counterexample?: CounterexampleFinding } {
  const found = checks.find((r) => r.counterexample !== undefined)?.counterexample;
  return found === undefined ? {} : { counterexample: found };
}

/**
 * One case of the run file, as `run --json` writes it.
 *
 * @param c a case's result
 * @returns the case, JSON-safe
 * @example
 * ```ts
 * import { runFileCase } from "./run_file.ts";
 * import { runSuite } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const result = await runSuite([defineCase({ id: "a", question: "Q" })], () => "an answer");
 * runFileCase(result.cases[0]!).answer; // "an answer"
 * ```
 */
export function runFileCase(c: CaseResult): RunFileCase {
  return caseOf(c);
}

function caseOf(c: CaseResult): RunFileCase {
  const attempt = attemptOf(c);
  const trace = c.scorecard.trace;
  const reference = c.scorecard.referenceRows;
  const attempts = c.attempts;
  const passes = attempts?.filter((a) => a.verdict === "PASS").length;
  return {
    id: c.id,
    question: c.question,
    tags: [...c.tags],
    verdict: attempt.verdict,
    failed_stage: attempt.failed_stage,
    error: attempt.error,
    duration_ms: attempt.duration_ms,
    answer: attempt.answer,
    sql: attempt.sql,
    checks: attempt.checks,
    ...(c.scorecard.referenceSql !== undefined
      ? { reference_sql: cap(c.scorecard.referenceSql) }
      : {}),
    ...(c.scorecard.dbDiff !== undefined
      ? { db_diff: JSON.parse(diffToJson(c.scorecard.dbDiff)) as unknown }
      : {}),
    ...counterexampleOf(c.checks),
    ...(c.line !== undefined ? { line: c.line } : {}),
    ...(trace !== undefined ? { trace: trace.stages.map(stageOf) } : {}),
    ...(reference !== undefined
      ? { reference_rows: runFileRows(reference.slice(0, RUN_FILE_MAX_ROWS)) }
      : {}),
    ...(reference !== undefined && c.scorecard.referenceColumns !== undefined
      ? { reference_columns: [...c.scorecard.referenceColumns] }
      : {}),
    ...(attempts !== undefined && passes !== undefined
      ? {
        attempts: attempts.map(attemptOf),
        passes,
        flaky: passes > 0 && passes < attempts.length,
      }
      : {}),
  };
}

function stageOf(s: Stage): RunFileStage {
  return {
    kind: s.kind,
    name: s.name,
    output: text(s.output),
    ...(s.rows !== undefined ? { rows: runFileRows(s.rows.slice(0, RUN_FILE_MAX_ROWS)) } : {}),
    ...(s.rows !== undefined && s.columns !== undefined ? { columns: [...s.columns] } : {}),
    ...(s.rows !== undefined && s.rows.length > RUN_FILE_MAX_ROWS
      ? { row_count: s.rows.length }
      : {}),
    ...(s.error !== undefined ? { error: cap(s.error) } : {}),
  };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

const StatusSchema = v.picklist(["PASS", "FAIL", "ERROR", "SKIP"]);
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

const Checks = v.array(v.object({
  stage: v.string(),
  name: v.string(),
  status: StatusSchema,
  detail: v.string(),
}));
const RowsSchema = v.array(v.record(v.string(), v.unknown()));

const RunFileSchema = v.object({
  format: v.literal(RUN_FORMAT),
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
  tool_version: v.string(),
  created_at: v.string(),
  totals: v.object({
    total: Count,
    passed: Count,
    failed: Count,
    errors: Count,
    skipped: Count,
  }),
  failures_by_stage: v.record(v.string(), Count),
  judge_calls: Count,
  duration_ms: v.number(),
  cases: v.array(v.object({
    id: v.string(),
    question: v.string(),
    tags: v.array(v.string()),
    verdict: StatusSchema,
    failed_stage: v.nullable(v.string()),
    error: v.nullable(v.string()),
    duration_ms: v.number(),
    answer: v.nullable(v.string()),
    sql: v.nullable(v.string()),
    checks: Checks,
    reference_sql: v.optional(v.string()),
    db_diff: v.optional(v.unknown()),
    counterexample: v.optional(v.object({
      database_sql: v.string(),
      reference_rows: v.array(v.record(v.string(), v.unknown())),
      candidate_rows: v.array(v.record(v.string(), v.unknown())),
      tried: Count,
      seed: Count,
    })),
    line: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
    trace: v.optional(v.array(v.object({
      kind: v.string(),
      name: v.string(),
      output: v.nullable(v.string()),
      rows: v.optional(RowsSchema),
      columns: v.optional(v.array(v.string())),
      row_count: v.optional(Count),
      error: v.optional(v.string()),
    }))),
    reference_rows: v.optional(RowsSchema),
    reference_columns: v.optional(v.array(v.string())),
    attempts: v.optional(v.array(v.object({
      verdict: StatusSchema,
      failed_stage: v.nullable(v.string()),
      error: v.nullable(v.string()),
      duration_ms: v.number(),
      answer: v.nullable(v.string()),
      sql: v.nullable(v.string()),
      checks: Checks,
    }))),
    passes: v.optional(Count),
    flaky: v.optional(v.boolean()),
  })),
  cases_file: v.optional(v.string()),
  shard: v.optional(v.object({
    index: v.pipe(v.number(), v.integer(), v.minValue(1)),
    total: v.pipe(v.number(), v.integer(), v.minValue(1)),
    of: Count,
    fingerprint: v.string(),
  })),
  repeat: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  min_pass_rate: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
  scores: v.optional(v.array(v.object({
    name: v.string(),
    total: v.number(),
    ours: v.number(),
    questions: Count,
    no_verdict: Count,
    variant: v.optional(v.string()),
    disagreements: v.array(v.object({
      id: v.string(),
      value: v.number(),
      official: v.boolean(),
      ours: v.boolean(),
      detail: v.string(),
      reason: v.string(),
    })),
  }))),
  partial: v.optional(v.boolean()),
});

/** The error JSON.parse gives for a text, for the message. */
function attemptParse(text: string): unknown {
  try {
    JSON.parse(text);
    return undefined;
  } catch (e) {
    return e;
  }
}

function bad(file: string, why: string): UsageError {
  return new UsageError(`${file}: not a dbagenteval run file (${why}); write one with run --json`);
}

/**
 * Reads a run file from its text, validating it.
 *
 * @param text the JSON text
 * @param fileName the name used in error messages
 * @returns the run file
 * @throws {UsageError} when the text is not a run file this version can read
 * @example
 * ```ts
 * import { parseRunFile, toRunFile } from "./run_file.ts";
 * import { runFileJson } from "./run_file_json.ts";
 * import { runSuite } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const result = await runSuite([defineCase({ question: "Q" })], () => "an answer");
 * parseRunFile(runFileJson(toRunFile(result)), "run.json").totals.total; // 1
 * // parseRunFile("{}", "before.json") throws: before.json: not a dbagenteval run file (...)
 * ```
 */
export function parseRunFile(text: string, fileName: string): RunFile {
  let value: unknown;
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    value = JSON.parse(body);
  } catch {
    // A run written case by case and stopped before its end.
    value = readPartialRun(body);
  }
  if (value === undefined) {
    const e = attemptParse(body);
    // One line, the same under every runtime, with the line of the mistake.
    const found = findJsonError(body);
    const why = found === undefined
      ? (e instanceof Error ? e.message : String(e)).split("\n")[0]
      : `line ${body.slice(0, found.offset).split("\n").length}: ${found.message}`;
    throw bad(fileName, `not valid JSON: ${why}`);
  }
  const head = value as { format?: unknown; version?: unknown } | null;
  if (head === null || typeof head !== "object" || head.format !== RUN_FORMAT) {
    throw bad(fileName, `"format" is not "${RUN_FORMAT}"`);
  }
  if (typeof head.version === "number" && head.version > RUN_FORMAT_VERSION) {
    throw new UsageError(
      `${fileName}: run file version ${head.version} is newer than this dbagenteval reads (${RUN_FORMAT_VERSION}); upgrade dbagenteval`,
    );
  }
  const parsed = v.safeParse(RunFileSchema, value);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = v.getDotPath(issue) ?? "";
    throw bad(fileName, `${path === "" ? "" : `${path}: `}${issue.message}`);
  }
  const seen = new Set<string>();
  for (const c of parsed.output.cases) {
    if (seen.has(c.id)) throw bad(fileName, `case id "${c.id}" appears twice`);
    seen.add(c.id);
    decodeRunFileRows(c as RunFileCase);
  }
  return parsed.output as RunFile;
}

/**
 * Reads and validates a run file written by `run --json`.
 *
 * @param path the file
 * @returns the run file
 * @throws {UsageError} when it cannot be read or is not a run file
 * @example
 * ```ts
 * import * as fs from "node:fs";
 * import * as os from "node:os";
 * import * as path from "node:path";
 * import { readRunFile, toRunFile } from "./run_file.ts";
 * import { runFileJson } from "./run_file_json.ts";
 * import { runSuite } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "run-")), "before.json");
 * const result = await runSuite([defineCase({ question: "Q" })], () => "an answer");
 * fs.writeFileSync(file, runFileJson(toRunFile(result), 2));
 * (await readRunFile(file)).totals.total; // 1
 * ```
 */
export async function readRunFile(path: string): Promise<RunFile> {
  let content: string;
  try {
    content = await readTextFile(path);
  } catch (e) {
    const code = (e as { code?: string }).code;
    const why = code === "ENOENT"
      ? "no such file; check the path"
      : code === "EISDIR"
      ? "it is a folder, not a run file; give the file run --json wrote"
      : code === "ENOTREG"
      ? (e as Error).message
      : `cannot read it (${e instanceof Error ? e.message : String(e)})`;
    throw new UsageError(`${path}: ${why}`, { cause: e });
  }
  return parseRunFile(content, path);
}
