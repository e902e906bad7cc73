/**
 * The one case loop of a run: a feed of cases, an agent, the options every
 * case takes, and observers told of the run's start, of each case as it
 * finishes and of the run's end. Whatever a run produces (the collected
 * {@link SuiteResult} of `runSuite`, the streamed run file and its totals,
 * the progress line, the leaderboard scores, the reports) is an observer of
 * this loop; the loop itself keeps no case.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { ERROR, FAIL, type Judge } from "./check.ts";
import type { TestCase } from "./case.ts";
import type { Agent } from "./agent.ts";
import { runCase, type RunCaseOptions } from "./evaluate.ts";
import { caseLine } from "./cases.ts";
import { Scorecard } from "./scorecard.ts";
import { openDatabase } from "../sqlite/database.ts";
import { readSchema } from "../diff/schema.ts";
import type { CaseFeed } from "./case_source.ts";
import type { CaseResult, SuiteOptions } from "./suite.ts";

/**
 * What a run's observers hear when it starts.
 *
 * @example
 * ```ts
 * import type { RunStart } from "../../mod.ts";
 * const start: RunStart = { total: 3 };
 * start.total; // 3
 * ```
 */
export interface RunStart {
  /** How many cases the feed hands out (a run stopped early runs fewer). */
  readonly total: number;
}

/**
 * What a run's observers hear when its last case is done.
 *
 * @example
 * ```ts
 * import type { RunEnd } from "../../mod.ts";
 * const end: RunEnd = { ran: 2, judgeCalls: 0, durationMs: 12.5, stopped: false };
 * end.ran; // 2
 * ```
 */
export interface RunEnd {
  /** Cases that ran. */
  readonly ran: number;
  /** Judge calls made. */
  readonly judgeCalls: number;
  /** Wall time of the loop, in milliseconds. */
  readonly durationMs: number;
  /** Whether `failFast` stopped the run before its last case. */
  readonly stopped: boolean;
}

/**
 * A consumer of a run: told of its start, of each case as it finishes (in
 * the order cases finish, with its position in the feed), and of its end.
 * `finish` is awaited, observer after observer in the list's order, so an
 * observer may use what one before it made (the scores, then the run file
 * that records them).
 *
 * @example
 * ```ts
 * import { defineCase, type RunObserver, runSuite } from "../../mod.ts";
 * const verdicts: string[] = [];
 * const observer: RunObserver = { caseDone: (r) => void verdicts.push(r.verdict) };
 * await runSuite([defineCase({ question: "Hi?" })], () => "Hello", { observers: [observer] });
 * verdicts; // ["PASS"]
 * ```
 */
export interface RunObserver {
  start?(start: RunStart): void;
  caseDone?(result: CaseResult, index: number): void;
  finish?(end: RunEnd): void | Promise<void>;
}

/**
 * What the feed's cases need, found before the loop starts.
 *
 * @example
 * ```ts
 * import type { FeedNeeds } from "../../mod.ts";
 * const needs: FeedNeeds = { referenceSql: false, wantsDb: false };
 * needs.referenceSql; // false
 * ```
 */
export interface FeedNeeds {
  /** Some case has reference_sql. */
  readonly referenceSql: boolean;
  /** Some case expects database changes (db_change, db_unchanged, db_no_change). */
  readonly wantsDb: boolean;
}

/** A judge that counts its calls and lets at most `limit` run at once. */
function limitedJudge(
  judge: Judge,
  limit: number,
  timeoutMs: number | undefined,
): { judge: Judge; calls: () => number } {
  let calls = 0;
  let running = 0;
  const waiting: (() => void)[] = [];
  const wrapped: Judge = async (prompt) => {
    calls++;
    while (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      // The case's timeout bounds each judge call too, counted from when it
      // gets its turn: a judge that never answers must not hang the run.
      return await answerWithin(judge(prompt), timeoutMs);
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
  return { judge: wrapped, calls: () => calls };
}

async function answerWithin(
  reply: string | Promise<string>,
  ms: number | undefined,
): Promise<string> {
  if (ms === undefined) return await reply;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the judge did not answer within ${ms / 1000} s (--timeout)`)),
      ms,
    );
  });
  try {
    return await Promise.race([reply, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Opens the --agent-db file and reads its schema as each case's diff will,
 * so that a file no case could use (missing, not SQLite, a malformed schema)
 * stops the run before it starts instead of making every case an ERROR.
 */
async function checkAgentDb(path: string): Promise<void> {
  const db = await openDatabase(path);
  try {
    readSchema(db, "main");
  } finally {
    db.close();
  }
}

/**
 * A whole number of at least 1, or the fallback.
 *
 * @param name the option, for the message
 * @param value the value given
 * @param fallback the default
 * @returns the number
 * @throws {UsageError} for anything else
 */
export function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new UsageError(`${name} must be a whole number of at least 1, got ${value}`);
  }
  return value;
}

/**
 * Runs every case of the feed against the agent, up to `concurrency` at a
 * time, telling the observers. A case whose agent raises, hangs past
 * `timeoutMs` or returns something that is not a trace is an ERROR; the
 * run always finishes (a feed whose file changed under it stops it, after
 * the cases in flight, with that error, and no observer's `finish` runs).
 *
 * @param feed the cases, in order
 * @param agent the agent
 * @param options what every case takes, and how many run at once
 * @param needs whether any of the cases has reference_sql, or expects database changes
 * @param observers told of the start, each case and the end, in this order
 * @returns the run's figures
 * @throws {UsageError} when a case needs what the options do not give
 * @example
 * ```ts
 * import { defineCase, runLoop } from "../../mod.ts";
 * const cases = [defineCase({ question: "Hi?" }), defineCase({ question: "Bye?" })];
 * let k = 0;
 * const feed = { length: cases.length, next: () => cases[k++], close() {} };
 * const ids: string[] = [];
 * const end = await runLoop(feed, () => "ok", {}, { referenceSql: false, wantsDb: false }, [
 *   { caseDone: (r, i) => void (ids[i] = r.id) },
 * ]);
 * [end.ran, ids]; // [2, ["hi", "bye"]]
 * ```
 */
export async function runLoop(
  feed: CaseFeed,
  agent: Agent,
  options: SuiteOptions,
  needs: FeedNeeds,
  observers: readonly RunObserver[],
): Promise<RunEnd> {
  const started = performance.now();
  const concurrency = positive("concurrency", options.concurrency, 4);
  if (options.execute === undefined && options.executeFor === undefined && needs.referenceSql) {
    throw new UsageError("some cases have reference_sql; pass --execute");
  }
  if (needs.wantsDb && options.agentDb === undefined && options.setup === undefined) {
    throw new UsageError(
      "some cases expect database changes (db_change, db_unchanged or db_no_change); pass --agent-db",
    );
  }
  if (options.agentDb !== undefined) await checkAgentDb(options.agentDb);
  const limited = options.judge === undefined ? undefined : limitedJudge(
    options.judge,
    positive("judgeConcurrency", options.judgeConcurrency, 2),
    options.timeoutMs,
  );
  const caseOptions = {
    execute: options.execute,
    executeFor: options.executeFor,
    rules: options.rules,
    judge: limited?.judge,
    timeoutMs: options.timeoutMs,
    setup: options.setup,
    agentDb: options.agentDb,
    agentDbMaxGrowthBytes: options.agentDbMaxGrowthBytes,
    agentDbDiff: options.agentDbDiff,
    counterexamples: options.counterexamples,
    checkSources: options.checkSources,
    dialect: options.dialect,
    strictColumns: options.strictColumns,
    // Every option of a case, so that one added there is not left out here.
  } satisfies Required<RunCaseOptions>;

  const total = feed.length;
  for (const o of observers) o.start?.({ total });
  let next = 0;
  let done = 0;
  let stopped = false;
  let broken: { readonly error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < total && !stopped) {
      const i = next++;
      let testCase: TestCase;
      try {
        testCase = feed.next()!;
      } catch (error) {
        // The cases file changed under the run: the cases in flight finish,
        // then the run stops with the error.
        broken ??= { error };
        stopped = true;
        return;
      }
      const t0 = performance.now();
      const card = await runCase(testCase, agent, caseOptions).catch((e: unknown) =>
        // A bug of ours or of a check must not stop the other cases.
        new Scorecard({
          question: testCase.question,
          id: testCase.id,
          checks: [],
          error: `internal error: ${e instanceof Error ? e.message : String(e)}`,
        })
      );
      const result: CaseResult = {
        id: testCase.id,
        question: testCase.question,
        tags: testCase.tags,
        verdict: card.verdict,
        failedStage: card.failedStage,
        error: card.error,
        checks: card.checks,
        durationMs: performance.now() - t0,
        line: caseLine(testCase),
        scorecard: card,
      };
      if (options.failFast === true && (result.verdict === FAIL || result.verdict === ERROR)) {
        stopped = true;
      }
      done++;
      for (const o of observers) o.caseDone?.(result, i);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  } finally {
    feed.close();
  }
  if (broken !== undefined) throw broken.error;
  const end: RunEnd = {
    ran: done,
    judgeCalls: limited?.calls() ?? 0,
    durationMs: performance.now() - started,
    stopped: done < total,
  };
  for (const o of observers) await o.finish?.(end);
  return end;
}
