/**
 * Checking one trace against one case, and one question against its
 * reference SQL.
 *
 * @module
 */
import type { DiffOptions } from "../diff/options.ts";
import type { DatabaseDiff } from "../diff/types.ts";
import type { MatchExplanation } from "../../selector/explain.ts";
import { type CheckContext, type CheckResult, ERROR, type Judge, type Status } from "./check.ts";
import type { TestCase } from "./case.ts";
import { type CaseInput, defineCase } from "./cases.ts";
import { builtinChecks } from "./checks/builtin.ts";
import { jsonText } from "./json_text.ts";
import { Scorecard } from "./scorecard.ts";
import { type Row, type StageInput, Trace } from "./trace.ts";
import { type Agent, type AgentContext, readRows, toTrace } from "./agent.ts";
import { AgentError, NotRunError, SqliteQueryError, UsageError } from "../errors.ts";
import { agentDbSetup } from "./agent_db.ts";
import { type CheckSource, type CounterexampleSettings, sourcedChecks } from "./check_sources.ts";

/**
 * A check as the harness accepts it: a {@link Check} from any copy of the
 * library, or anything with a string `name` and a `run` function.
 *
 * @example
 * ```ts
 * import { type CheckLike, evaluate } from "./evaluate.ts";
 * import { Trace } from "./trace.ts";
 * // a plain object works as a check: a name and a run function
 * const politeAnswer: CheckLike = {
 *   name: "polite",
 *   run: (trace) => ({
 *     stage: "answer",
 *     status: String(trace.lastOf("answer")?.output).includes("please") ? "PASS" : "FAIL",
 *     detail: "",
 *   }),
 * };
 * const card = await evaluate(Trace.simple("Hi?", { answer: "Hello." }), { question: "Hi?" }, {
 *   rules: [politeAnswer],
 * });
 * card.verdict; // "FAIL"
 * ```
 */
export interface CheckLike {
  readonly name: string;
  run(trace: Trace, testCase: TestCase, context: CheckContext): unknown;
}

/**
 * What {@link evaluate} takes beside the trace and the case.
 *
 * @example
 * ```ts
 * import { evaluate, type EvaluateOptions } from "./evaluate.ts";
 * import { Trace } from "./trace.ts";
 * import { ReadOnly } from "../../rules/read_only.ts";
 * const options: EvaluateOptions = {
 *   rules: [new ReadOnly()],
 *   referenceRows: [{ total: 2 }],
 * };
 * const trace = Trace.simple("How many?", { sql: "SELECT 2 AS total", rows: [{ total: 2 }] });
 * (await evaluate(trace, { question: "How many?" }, options)).verdict; // "PASS"
 * ```
 */
export interface EvaluateOptions {
  /** Rules and custom checks to run after the built-in checks. */
  readonly rules?: readonly CheckLike[] | undefined;
  /** A judge: adds the judge checks (reference_answer, faithful, relevant). */
  readonly judge?: Judge | undefined;
  /** The rows of the case's reference SQL, when it ran. */
  readonly referenceRows?: readonly Row[] | undefined;
  /** The reference rows' column names, when a name repeats (see {@link CheckContext}). */
  readonly referenceColumns?: readonly string[] | undefined;
  /** The diff of the agent's database copy (--agent-db). */
  readonly dbDiff?: DatabaseDiff | undefined;
  /** Selectors asked while that diff ran (see {@link CheckContext.explainDb}). */
  readonly explainDb?: ((selector: unknown) => MatchExplanation | undefined) | undefined;
  /** The original --agent-db file, for checks that run a reference agent on their own copy. */
  readonly agentDb?: string | undefined;
  /** The options the agentDb diff was made with, for checks that diff a reference agent's copy. */
  readonly agentDbDiff?: DiffOptions | undefined;
  /** The SQLite file the SQL runs on (default: agentDb), for the SQL rules. */
  readonly database?: string | undefined;
  /** The SQL dialect of the reference database, for rules not given one (see {@link CheckContext}). */
  readonly dialect?: string | undefined;
  /** Why the test itself could not fully run, e.g. the reference SQL failed. */
  readonly error?: string | undefined;
  /** Search for a database on which the agent's SQL is wrong (run --counterexamples). */
  readonly counterexamples?: CounterexampleSettings | undefined;
  /**
   * The rooms that add checks when asked (the judge's with `judge`, the
   * counterexample search's with `counterexamples`). None by default here;
   * mod.ts's `evaluate`, `runCase`, `runSuite` and the CLI pass
   * `DEFAULT_CHECK_SOURCES`.
   */
  readonly checkSources?: readonly CheckSource[] | undefined;
}

const STATUSES: readonly string[] = ["PASS", "FAIL", "ERROR", "SKIP"];

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads what a check returned; anything malformed becomes an ERROR finding. */
function findings(check: CheckLike, value: unknown): CheckResult[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((r: unknown) => {
    const o = r as Record<string, unknown> | null;
    if (
      o === null || typeof o !== "object" || typeof o["stage"] !== "string" ||
      !STATUSES.includes(o["status"] as string)
    ) {
      return {
        name: check.name,
        stage: "check",
        status: ERROR,
        detail: `the check returned ${jsonText(r)}; return this.result(stage, status, detail)`,
      };
    }
    const evidence = o["counterexample"];
    return {
      name: typeof o["name"] === "string" ? o["name"] : check.name,
      stage: o["stage"] as string,
      status: o["status"] as Status,
      detail: typeof o["detail"] === "string"
        ? o["detail"]
        : o["detail"] == null
        ? ""
        : String(o["detail"]),
      ...(evidence !== null && typeof evidence === "object"
        ? { counterexample: evidence as CheckResult["counterexample"] & object }
        : {}),
    };
  });
}

/**
 * Runs every check on a trace: the built-in checks, the checks registered
 * to run before the rules (the counterexample search, with
 * `counterexamples`), the rules, then those registered to run after them
 * (the judge checks, with a judge; see `check_sources.ts`). A check that throws gives an ERROR
 * finding for that check; the others still run.
 *
 * @param trace what the agent did
 * @param testCase the case (fields as in a cases file; only `question` is needed)
 * @param options rules, judge, reference rows, database diff
 * @returns the scorecard
 * @example
 * ```ts
 * import { evaluate } from "./evaluate.ts";
 * import { Trace } from "./trace.ts";
 * const trace = Trace.simple("How many orders are delivered?", { sql: "SELECT 2 AS total", rows: [{ total: 2 }], answer: "2" });
 * const card = await evaluate(trace, { question: "How many orders are delivered?", expect: { rows: [{ total: 2 }] } });
 * card.verdict; // "PASS"
 * ```
 */
export async function evaluate(
  trace: Trace,
  testCase: TestCase | CaseInput,
  options: EvaluateOptions = {},
): Promise<Scorecard> {
  const c = isTestCase(testCase) ? testCase : defineCase(testCase);
  const context: CheckContext = {
    ...(options.referenceRows !== undefined ? { referenceRows: options.referenceRows } : {}),
    ...(options.referenceColumns !== undefined
      ? { referenceColumns: options.referenceColumns }
      : {}),
    ...(options.judge !== undefined ? { judge: options.judge } : {}),
    ...(options.dbDiff !== undefined ? { dbDiff: options.dbDiff } : {}),
    ...(options.explainDb !== undefined ? { explainDb: options.explainDb } : {}),
    ...(options.agentDb !== undefined ? { agentDb: options.agentDb } : {}),
    ...(options.agentDbDiff !== undefined ? { agentDbDiff: options.agentDbDiff } : {}),
    ...((options.database ?? options.agentDb) !== undefined
      ? { database: (options.database ?? options.agentDb)! }
      : {}),
    ...(options.dialect !== undefined ? { dialect: options.dialect } : {}),
  };
  const checks: CheckLike[] = [
    ...builtinChecks(),
    ...sourcedChecks(options.checkSources ?? [], "before-rules", options),
    ...(options.rules ?? []),
    ...sourcedChecks(options.checkSources ?? [], "after-rules", options),
  ];
  const results = await Promise.all(checks.map(async (check): Promise<CheckResult[]> => {
    try {
      return findings(check, await check.run(trace, c, context));
    } catch (e) {
      return [{
        name: check.name,
        stage: "check",
        status: ERROR,
        detail: `the check raised: ${message(e)}`,
      }];
    }
  }));
  return new Scorecard({
    question: trace.question,
    id: c.id,
    checks: results.flat(),
    trace,
    dbDiff: options.dbDiff,
    referenceRows: options.referenceRows,
    referenceColumns: options.referenceColumns,
    referenceSql: c.reference_sql,
    ...(options.error !== undefined ? { error: options.error } : {}),
  });
}

/** The selectors a check asks of the agent's diff (a db_change check's own), to ask while diffing. */
function watchedBy(check: CheckLike, testCase: TestCase): readonly unknown[] {
  const ask = (check as { dbSelectors?: (c: TestCase) => readonly unknown[] }).dbSelectors;
  return typeof ask === "function" ? ask.call(check, testCase) : [];
}

function isTestCase(value: TestCase | CaseInput): value is TestCase {
  return typeof value.id === "string" && Array.isArray(value.tags) &&
    typeof value.ordered === "boolean" && typeof value.precision === "number";
}

/**
 * Runs SQL on your database and returns the rows as a list of objects, or as
 * `{ columns, rows }` with each row a list of values in column order (which
 * keeps two columns of the same name), or a Promise of either. The harness
 * passes a second argument an executor may use or ignore: `signal`, aborted
 * when the case has timed out, and `timeoutMs`, the time the statement has.
 * An executor that could not run the SQL at all for a reason of its own (a
 * shared engine busy past the statement's deadline) throws a
 * {@link NotRunError}: the case is an ERROR, not the agent's FAIL.
 */
export type Executor = (
  sql: string,
  options?: { readonly signal?: AbortSignal; readonly timeoutMs?: number | undefined },
) => unknown;

/**
 * Per-case work around the agent call, e.g. a fresh database copy (--agent-db).
 *
 * @example
 * ```ts
 * import { type CaseSession, runCase } from "./evaluate.ts";
 * import { defineCase } from "./cases.ts";
 * let finished = false;
 * const session: CaseSession = {
 *   context: { dbPath: "/tmp/scratch.db" },
 *   finish: () => {
 *     finished = true; // e.g. remove the scratch database
 *     return Promise.resolve();
 *   },
 * };
 * await runCase(defineCase({ question: "Q" }), (_q, ctx) => ({ answer: String(ctx?.dbPath) }), {
 *   setup: () => Promise.resolve(session),
 * });
 * finished; // true
 * ```
 */
export interface CaseSession {
  /** What the agent gets as its second argument. */
  readonly context: AgentContext;
  /**
   * Aborted when the session must end the case early (its database copy
   * grew past its cap): the agent is stopped and the case is an ERROR with
   * the signal's reason.
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Called after the agent finished (or failed); may return the database
   * diff, and the answers of selectors asked while it ran (see
   * {@link CheckContext.explainDb}).
   */
  finish(): Promise<
    {
      readonly dbDiff?: DatabaseDiff | undefined;
      readonly explainDb?: ((selector: unknown) => MatchExplanation | undefined) | undefined;
    } | void
  >;
}

/**
 * Starts a {@link CaseSession} for a case.
 *
 * @example
 * ```ts
 * import { type CaseSetup, runCase } from "./evaluate.ts";
 * import { defineCase } from "./cases.ts";
 * // each case gets its own context, named after the case
 * const setup: CaseSetup = (testCase) =>
 *   Promise.resolve({ context: { dbPath: `/tmp/${testCase.id}.db` }, finish: () => Promise.resolve() });
 * const card = await runCase(defineCase({ id: "c1", question: "Q" }), (_q, ctx) => ({
 *   answer: String(ctx?.dbPath),
 * }), { setup });
 * card.verdict; // "PASS"
 * ```
 */
export type CaseSetup = (testCase: TestCase) => Promise<CaseSession>;

/**
 * What {@link runCase} takes.
 *
 * @example
 * ```ts
 * import { runCase, type RunCaseOptions } from "./evaluate.ts";
 * import { defineCase } from "./cases.ts";
 * const options: RunCaseOptions = {
 *   execute: (_sql) => [{ n: 2 }], // runs the reference SQL on your database
 *   timeoutMs: 1_000,
 * };
 * const testCase = defineCase({ question: "How many?", reference_sql: "SELECT 2 AS n" });
 * (await runCase(testCase, () => ({ rows: [{ n: 2 }], answer: "2" }), options)).verdict; // "PASS"
 * ```
 */
export interface RunCaseOptions {
  /** Runs the reference SQL; needed when the case has reference_sql. */
  readonly execute?: Executor | undefined;
  /**
   * The executor of a case's own database (a case with `db:`, e.g. from
   * `run --db-dir`); `execute` serves the cases it gives none for.
   */
  readonly executeFor?:
    | ((testCase: TestCase) => Executor | undefined | Promise<Executor | undefined>)
    | undefined;
  /** Rules and custom checks. */
  readonly rules?: readonly CheckLike[] | undefined;
  /** A judge: adds the judge checks. */
  readonly judge?: Judge | undefined;
  /** Milliseconds the agent and the reference SQL may take before the case is an ERROR. */
  readonly timeoutMs?: number | undefined;
  /** Per-case setup and teardown around the agent call. */
  readonly setup?: CaseSetup | undefined;
  /**
   * A SQLite file the agent may change: each case gets a fresh copy
   * (`context.dbPath`), and the db_change, db_unchanged and db_no_change
   * checks read the diff of the copy (--agent-db). Used when `setup` is not given.
   */
  readonly agentDb?: string | undefined;
  /**
   * With `agentDb`: how many bytes an agent may add to its copy before its
   * case stops as an ERROR (`--max-temp-mb`). Default 2 GB.
   */
  readonly agentDbMaxGrowthBytes?: number | undefined;
  /**
   * With `agentDb`: the options of its diff (`keys`, `ignore`,
   * `ignoreTables`; --agent-db-key, --agent-db-ignore, --agent-db-ignore-table),
   * also those of a db_diff_change reference agent's diff.
   */
  readonly agentDbDiff?: DiffOptions | undefined;
  /** Search for a database on which the agent's SQL is wrong (run --counterexamples). */
  readonly counterexamples?: CounterexampleSettings | undefined;
  /**
   * The SQL dialect of the database the reference SQL runs on (`postgres`
   * for a PostgreSQL server or PGlite): the SQL rules not given a dialect
   * read the agent's SQL in it. Default: their own default, `sqlite`.
   */
  readonly dialect?: string | undefined;
  /**
   * Extra columns fail for every case that does not set `strict_columns`
   * itself (`run --strict-columns`). Default false.
   */
  readonly strictColumns?: boolean | undefined;
  /** The rooms that add checks (see {@link EvaluateOptions.checkSources}). */
  readonly checkSources?: readonly CheckSource[] | undefined;
}

const TIMED_OUT = Symbol("timed out");
const STOPPED = Symbol("stopped by the case's session");

/** How much longer than its deadline an executor's statement is waited for. */
const LATE_MS = 2000;

/**
 * The reference SQL's own deadline: a moment before the case's, so that
 * what it fails with (its result is too large, say) is what the case says,
 * not the case's time running out at the same instant.
 */
function referenceMs(caseMs: number | undefined): number | undefined {
  return caseMs === undefined ? undefined : Math.max(1, caseMs - Math.min(200, caseMs / 10));
}

/** The agent's answer as a trace, its SQL-only answer run; or why there is none. */
interface Traced {
  readonly trace?: Trace;
  /** Why the answer is not a trace (undefined: the agent raised, said elsewhere). */
  readonly error?: string | undefined;
}

/** Races a promise with a timer that is always cleared. */
async function within<T>(
  work: Promise<T>,
  ms: number | undefined,
  signal?: AbortSignal,
): Promise<T | typeof TIMED_OUT | typeof STOPPED> {
  if (ms === undefined && signal === undefined) return work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const late = new Promise<typeof TIMED_OUT | typeof STOPPED>((resolve) => {
    if (ms !== undefined) timer = setTimeout(() => resolve(TIMED_OUT), ms);
    if (signal !== undefined) {
      onAbort = () => resolve(STOPPED);
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    }
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
  }
}

function raised(error: unknown): string {
  if (error instanceof Error) {
    return error.name === "Error" ? error.message : `${error.name}: ${error.message}`;
  }
  return jsonText(error);
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function attempt<T>(work: () => T | Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error };
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/**
 * Runs one case: asks the agent (with the case's setup around it) while the
 * reference SQL runs, then {@link evaluate}s the trace. Never throws for a
 * misbehaving agent: an agent that raises, hangs past `timeoutMs` or returns
 * something that is not a trace, and a reference SQL that fails, give an
 * ERROR scorecard.
 *
 * @param caseAsGiven the case
 * @param agent the agent
 * @param options executor, rules, judge, timeout, setup, strictColumns
 * @returns the scorecard
 * @throws {UsageError} when the case has reference_sql and no executor is given
 * @example
 * ```ts
 * import { runCase } from "./evaluate.ts";
 * import { defineCase } from "./cases.ts";
 * const card = await runCase(defineCase({ question: "Q" }), () => { throw new Error("boom"); });
 * card.error; // "agent raised: boom"
 * ```
 */
export async function runCase(
  caseAsGiven: TestCase,
  agent: Agent,
  options: RunCaseOptions = {},
): Promise<Scorecard> {
  const testCase: TestCase =
    options.strictColumns === true && caseAsGiven.strict_columns === undefined
      ? { ...caseAsGiven, strict_columns: true }
      : caseAsGiven;
  const sql = testCase.reference_sql;
  const errorCard = (error: string): Scorecard =>
    new Scorecard({
      question: testCase.question,
      id: testCase.id,
      checks: [],
      error,
      referenceSql: testCase.reference_sql,
    });
  const executeFor = options.executeFor;
  const own = executeFor === undefined ? undefined : await attempt(() => executeFor(testCase));
  if (own !== undefined && !own.ok) {
    return errorCard(`the case's database could not be opened: ${raised(own.error)}`);
  }
  const execute = own?.value ?? options.execute;
  if (sql !== undefined && execute === undefined) {
    throw new UsageError("some cases have reference_sql; pass --execute");
  }

  const setup = options.setup ??
    (options.agentDb === undefined ? undefined : agentDbSetup(
      options.agentDb,
      (c) => (options.rules ?? []).flatMap((r) => watchedBy(r, c)),
      options.agentDbMaxGrowthBytes,
      options.agentDbDiff,
    ));
  const session = setup === undefined ? undefined : await attempt(() => setup(testCase));
  if (session !== undefined && !session.ok) {
    return errorCard(`the case setup failed: ${raised(session.error)}`);
  }
  // The agent is stopped only if it has not answered: an agent that has
  // (a subprocess that is ready for the next case) is not killed because
  // the reference SQL ran out of time. The case's SQL has its own signal.
  const stop = new AbortController();
  const stopSql = new AbortController();
  const context: AgentContext = {
    caseId: testCase.id,
    tags: testCase.tags,
    ...(testCase.db !== undefined ? { db: testCase.db } : {}),
    ...(testCase.evidence !== undefined ? { evidence: testCase.evidence } : {}),
    signal: stop.signal,
    ...session?.value.context,
  };

  // The case's time starts here: its database open and its setup are not in it.
  const started = performance.now();
  let agentDone = false;
  const answer = attempt(() => agent(testCase.question, context)).finally(() => agentDone = true);
  // An answer that is only SQL runs as soon as the agent gives it, beside
  // the reference SQL: both get what is left of the case's time, and each
  // statement's own deadline ends it (the agent's SQL failing is the
  // agent's FAIL, not the case's time running out; its SQL not run at all,
  // for another case's, is the case's ERROR).
  const traced = answer.then(async (outcome): Promise<Traced> => {
    if (!outcome.ok) return { error: undefined };
    let trace: Trace;
    try {
      trace = toTrace(testCase.question, outcome.value);
    } catch (e) {
      return { error: message(e) };
    }
    if (execute === undefined) return { trace };
    const left = options.timeoutMs === undefined
      ? undefined
      : Math.max(1, options.timeoutMs - (performance.now() - started));
    try {
      return {
        trace: await runAgentSql(trace, execute, {
          left,
          caseMs: options.timeoutMs,
          signal: stopSql.signal,
        }),
      };
    } catch (e) {
      if (e instanceof NotRunError) return { error: `the agent's SQL: ${e.message}` };
      throw e;
    }
  });
  let referenceDone = false;
  const reference = sql === undefined || execute === undefined
    ? Promise.resolve(undefined)
    : attempt(() =>
      execute(sql, { signal: stopSql.signal, timeoutMs: referenceMs(options.timeoutMs) })
    )
      .finally(() => referenceDone = true);
  const sessionStop = session?.value.signal;
  const both = await within(Promise.all([answer, reference]), options.timeoutMs, sessionStop);
  const who = !agentDone ? "the agent" : !referenceDone ? "the reference SQL" : "the agent";
  let stopped = "";
  if (both === STOPPED) {
    stopSql.abort(sessionStop?.reason);
    if (!agentDone) stop.abort(sessionStop?.reason);
    await attempt(() => session!.value.finish());
    return errorCard(message(sessionStop?.reason));
  }
  let notRun: NotRunError | undefined;
  if (both === TIMED_OUT) {
    // Tells an agent that can stop (a subprocess, an HTTP request) to stop,
    // and keeps what it says when it does (a subprocess's last stderr lines).
    stopSql.abort(new Error("the case timed out"));
    if (!agentDone) stop.abort(new Error("the case timed out"));
    const last = await within(answer, 100);
    if (typeof last !== "symbol" && !last.ok && last.error instanceof AgentError) {
      stopped = `\n${last.error.message}`;
    }
    // Reference SQL that never started (a shared engine busy with another
    // case's statement) says so when stopped, rather than "did not finish".
    if (who === "the reference SQL") {
      const ref = await within(reference, 100);
      if (
        typeof ref !== "symbol" && ref !== undefined && !ref.ok && ref.error instanceof NotRunError
      ) {
        notRun = ref.error;
      }
    }
  }

  const finished = session === undefined ? undefined : await attempt(() => session.value.finish());
  if (both === TIMED_OUT) {
    return errorCard(
      notRun === undefined
        ? `timed out after ${seconds(options.timeoutMs!)}: ${who} did not finish${stopped}`
        : `timed out after ${seconds(options.timeoutMs!)}: the reference SQL: ${notRun.message}`,
    );
  }
  const [agentOutcome, referenceOutcome] = both;
  if (!agentOutcome.ok) {
    // A transport's own failure (the process exited, the server said 500) is
    // not something the agent raised.
    const error = agentOutcome.error;
    return errorCard(
      error instanceof AgentError ? error.message : `agent raised: ${raised(error)}`,
    );
  }
  const t = await traced;
  if (t.trace === undefined) return errorCard(t.error ?? "the agent gave no trace");
  const trace = t.trace;
  let referenceRows: Row[] | undefined;
  let referenceColumns: readonly string[] | undefined;
  let error: string | undefined;
  if (referenceOutcome !== undefined) {
    const e = referenceOutcome.ok ? undefined : referenceOutcome.error;
    if (
      e instanceof SqliteQueryError && e.code === 9 && options.timeoutMs !== undefined &&
      /did not finish within/.test(e.message)
    ) {
      // Its deadline was the case's, a moment early: the case ran out of time.
      return errorCard(
        `timed out after ${seconds(options.timeoutMs)}: the reference SQL did not finish`,
      );
    }
    if (e instanceof NotRunError) {
      error = `the reference SQL: ${e.message}`;
    } else if (!referenceOutcome.ok) {
      error = `the reference SQL failed to run: ${raised(referenceOutcome.error)}`;
    } else {
      try {
        const read = readRows(referenceOutcome.value, "the executor's rows");
        referenceRows = read.rows;
        referenceColumns = read.columns;
      } catch (e) {
        error = `the reference SQL gave no usable rows: ${message(e)}`;
      }
    }
  }
  if (finished !== undefined && !finished.ok) {
    error ??= `the case teardown failed: ${raised(finished.error)}`;
  }
  const dbDiff = finished?.ok ? finished.value?.dbDiff : undefined;
  const explainDb = finished?.ok ? finished.value?.explainDb : undefined;
  return evaluate(trace, testCase, {
    explainDb,
    rules: options.rules,
    judge: options.judge,
    referenceRows,
    referenceColumns,
    dbDiff,
    agentDb: options.agentDb,
    agentDbDiff: options.agentDbDiff,
    database: sqlitePathOf(execute),
    checkSources: options.checkSources,
    counterexamples: options.counterexamples === undefined || sqlitePathOf(execute) === undefined
      ? options.counterexamples
      : { ...options.counterexamples, db: sqlitePathOf(execute)! },
    dialect: options.dialect,
    error,
  });
}

/**
 * What {@link checkQuestion} takes: {@link runCase}'s options but the setup.
 *
 * @example
 * ```ts
 * import { checkQuestion, type CheckQuestionOptions } from "./evaluate.ts";
 * import { NoJoins } from "../../rules/no_joins.ts";
 * const options: CheckQuestionOptions = { execute: () => [{ n: 1 }], rules: [new NoJoins()] };
 * const agent = () => ({ sql: "SELECT 1 AS n FROM a JOIN b ON a.id = b.id", rows: [{ n: 1 }] });
 * const card = await checkQuestion(agent, "How many?", "SELECT 1 AS n", options);
 * card.verdict; // "FAIL"
 * ```
 */
export type CheckQuestionOptions = Omit<RunCaseOptions, "setup">;

/**
 * Asks the agent one question and checks what it did against the reference
 * SQL, which runs through `execute`. An agent that raises, or a reference
 * SQL that fails, gives an ERROR scorecard.
 *
 * @param agent the agent
 * @param question the question
 * @param referenceSql the correct query, or undefined to run the checks without one
 * @param options execute, rules, judge, timeout
 * @returns the scorecard
 * @throws {UsageError} when `referenceSql` is given without `execute`
 * @example
 * ```ts
 * import { checkQuestion } from "./evaluate.ts";
 * const execute = (_sql: string) => [{ "COUNT(*)": 2 }];
 * const agent = () => ({ sql: "SELECT COUNT(*) AS total FROM orders", rows: [{ total: 2 }], answer: "2" });
 * const card = await checkQuestion(agent, "How many orders?", "SELECT COUNT(*) FROM orders", { execute });
 * console.log(card.summary());
 * ```
 */
export function checkQuestion(
  agent: Agent,
  question: string,
  referenceSql: string | undefined,
  options: CheckQuestionOptions = {},
): Promise<Scorecard> {
  if (referenceSql !== undefined && options.execute === undefined) {
    return Promise.reject(
      new UsageError("checkQuestion() needs { execute } to run the reference SQL"),
    );
  }
  const testCase = defineCase({
    question,
    ...(referenceSql !== undefined ? { reference_sql: referenceSql } : {}),
  });
  return runCase(testCase, agent, options);
}

/**
 * An answer that is only SQL (a generate stage, no execute or answer stage) gets its
 * rows the way the reference SQL does: the harness runs the SQL on the
 * case's database, within the case's time left. A failure is the agent's:
 * an execute stage with the error, which `no_error` fails at execute. SQL
 * the database did not run ({@link NotRunError}) is thrown: no fault of the
 * agent's.
 */
async function runAgentSql(
  trace: Trace,
  execute: Executor,
  limits: {
    /** What is left of the case's time. */
    readonly left: number | undefined;
    /** The case's time (--timeout), for the message. */
    readonly caseMs: number | undefined;
    readonly signal: AbortSignal;
  },
): Promise<Trace> {
  if (trace.lastOf("execute") !== undefined || trace.lastOf("answer") !== undefined) return trace;
  const generate = trace.lastOf("generate");
  const sql = generate?.output;
  if (generate === undefined || typeof sql !== "string" || generate.error !== undefined) {
    return trace;
  }
  // The statement stops itself at its deadline (the SQLite executor's pool);
  // an executor that cannot is raced, a moment longer.
  const ran = await within(
    attempt(() => execute(sql, { signal: limits.signal, timeoutMs: limits.left })),
    limits.left === undefined ? undefined : limits.left + LATE_MS,
  );
  const late = `the agent's SQL did not finish within ${seconds(limits.caseMs ?? 0)} (--timeout)`;
  let stage: StageInput;
  if (typeof ran === "symbol") {
    stage = { kind: "execute", error: late };
  } else if (!ran.ok) {
    const e = ran.error;
    // Not the agent's doing: the case is an ERROR (runCase).
    if (e instanceof NotRunError) throw e;
    stage = {
      kind: "execute",
      error: e instanceof SqliteQueryError && e.code === 9 && limits.left !== undefined &&
          /did not finish within/.test(e.message)
        ? late
        : message(e),
    };
  } else {
    try {
      const read = readRows(ran.value, "the executor's rows");
      stage = {
        kind: "execute",
        rows: read.rows,
        ...(read.columns !== undefined ? { columns: read.columns } : {}),
      };
    } catch (e) {
      stage = { kind: "execute", error: message(e) };
    }
  }
  const at = trace.stages.lastIndexOf(generate) + 1;
  return new Trace(trace.question, [
    ...trace.stages.slice(0, at),
    stage,
    ...trace.stages.slice(at),
  ]);
}

/** The file of an executor over a SQLite file (`sqliteExecutor`, `--db`), else undefined. */
function sqlitePathOf(execute: Executor | undefined): string | undefined {
  const path = (execute as { path?: unknown } | undefined)?.path;
  return typeof path === "string" ? path : undefined;
}
