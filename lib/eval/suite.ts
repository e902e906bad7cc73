/**
 * Running a whole list of cases against an agent, a few at a time, into a
 * {@link SuiteResult} that prints the documented run output.
 *
 * @module
 */
import { type CheckResult, ERROR, FAIL, PASS, SKIP, type Status } from "./check.ts";
import type { TestCase } from "./case.ts";
import type { Agent } from "./agent.ts";
import type { RunCaseOptions } from "./evaluate.ts";
import type { Scorecard } from "./scorecard.ts";
import { DB_EXPECT_KEYS } from "./checks/db_expect.ts";
import type { CaseFeed } from "./case_source.ts";
import { type FeedNeeds, runLoop, type RunObserver } from "./run_loop.ts";

/**
 * What {@link runSuite} takes: everything {@link runCase} takes (executor,
 * rules, judge, timeout, setup, agentDb), applied to every case, and how
 * the suite runs them.
 *
 * @example
 * ```ts
 * import { defineCase, ReadOnly, runSuite, type SuiteOptions } from "../../mod.ts";
 * const options: SuiteOptions = { rules: [new ReadOnly()], concurrency: 1, tags: ["easy"] };
 * const cases = [defineCase({ id: "two", question: "1 + 1?", tags: ["easy"] })];
 * (await runSuite(cases, () => ({ sql: "SELECT 2", answer: "2" }), options)).total; // 1
 * ```
 */
export interface SuiteOptions extends RunCaseOptions {
  /** Judge calls in flight at once, across all cases. Default 2. */
  readonly judgeConcurrency?: number | undefined;
  /** Cases run at the same time. Default 4. */
  readonly concurrency?: number | undefined;
  /** Run only the cases with one of these tags. */
  readonly tags?: readonly string[] | undefined;
  /**
   * Start no new case once one has not passed (FAIL or ERROR); the cases
   * not started are left out of the result.
   */
  readonly failFast?: boolean | undefined;
  /** Called after each case, in the order cases finish. */
  readonly onProgress?:
    | ((done: number, total: number, result: CaseResult) => void)
    | undefined;
  /**
   * Called with each case's result and its position among the cases, in the
   * order cases finish (before `onProgress`): a run writes it to its run file
   * as it goes.
   */
  readonly onResult?: ((result: CaseResult, index: number) => void) | undefined;
  /**
   * false: the result holds no case (its `cases` is empty and its totals
   * 0), so a long run's memory does not grow with its length; take each
   * case from `onResult`. Default true.
   */
  readonly keepResults?: boolean | undefined;
  /** Told of the run's start, of each case and of its end (lib/eval/run_loop.ts). */
  readonly observers?: readonly RunObserver[] | undefined;
}

/**
 * The result of one case in a suite.
 *
 * @example
 * ```ts
 * import { type CaseResult, runSuite } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const cases = [defineCase({ id: "two", question: "1 + 1?", expect: { rows: [{ n: 2 }] } })];
 * const result = await runSuite(cases, () => ({ rows: [{ n: 3 }] }));
 * const first: CaseResult | undefined = result.cases[0];
 * first?.verdict; // "FAIL"
 * first?.failedStage; // "execute"
 * ```
 */
export interface CaseResult {
  readonly id: string;
  readonly question: string;
  readonly tags: readonly string[];
  readonly verdict: Status;
  /** The first stage with a failed check, for a FAIL. */
  readonly failedStage: string | undefined;
  /** Why the test could not run, for an ERROR. */
  readonly error: string | undefined;
  readonly checks: readonly CheckResult[];
  /** Wall time of the case, in milliseconds. */
  readonly durationMs: number;
  /** The line the case starts on in its cases file, when it was read from one. */
  readonly line?: number | undefined;
  /**
   * With repeats (`runRepeated`): every attempt, in order; the case's own
   * fields then describe its verdict by pass rate and its first attempt that
   * did not pass (or its first attempt).
   */
  readonly attempts?: readonly CaseResult[] | undefined;
  /** The full scorecard, with the trace. */
  readonly scorecard: Scorecard;
}

/**
 * Totals of a suite.
 *
 * @example
 * ```ts
 * import { runSuite, type SuiteTotals } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const cases = [
 *   defineCase({ id: "a", question: "1 + 1?", expect: { rows: [{ n: 2 }] } }),
 *   defineCase({ id: "b", question: "2 + 2?", expect: { rows: [{ n: 4 }] } }),
 * ];
 * const totals: SuiteTotals = await runSuite(cases, () => ({ rows: [{ n: 2 }] }));
 * [totals.total, totals.passed, totals.failed, totals.errors, totals.skipped]; // [2, 1, 1, 0, 0]
 * ```
 */
export interface SuiteTotals {
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly errors: number;
  readonly skipped: number;
}

/**
 * The lines printed under a case that did not pass: its test-level error, or
 * each failed (or errored) check at its first failing stage as
 * `stage / name: detail`.
 *
 * @param c a case result
 * @returns the lines, without indentation
 */
export function caseProblems(
  c: Pick<CaseResult, "verdict" | "error" | "failedStage" | "checks">,
): string[] {
  if (c.verdict === PASS || c.verdict === SKIP) return [];
  if (c.error !== undefined) return [c.error];
  const status = c.verdict === FAIL ? FAIL : ERROR;
  const first = c.verdict === FAIL
    ? c.failedStage
    : c.checks.find((r) => r.status === ERROR)?.stage;
  return c.checks
    .filter((r) => r.status === status && r.stage === first)
    .map((r) => `${r.stage} / ${r.name}: ${r.detail}`.replace(/: $/, ""));
}

/**
 * The documented run output: one line per case (verdict, id), the problem of each
 * case that did not pass, then the totals and the first failing stages.
 *
 * @param cases the case results, in file order
 * @param totals the totals
 * @param failuresByStage FAIL cases counted by first failing stage
 * @returns the text, without a final newline
 */
export function suiteSummary(
  cases: readonly Pick<CaseResult, "id" | "verdict" | "error" | "failedStage" | "checks">[],
  totals: SuiteTotals,
  failuresByStage: Readonly<Record<string, number>>,
): string {
  const lines: string[] = [];
  for (const c of cases) {
    lines.push(`${c.verdict.padEnd(6)}${c.id}`);
    // A message of several lines (a driver's error with a hint) stays
    // indented under its case, so every line at the margin is a case line.
    for (const p of caseProblems(c)) lines.push(`      ${p.replaceAll("\n", "\n      ")}`);
  }
  lines.push("");
  const pct = totals.total === 0 ? 0 : roundHalfEven((100 * totals.passed) / totals.total);
  const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : "";
  lines.push(
    `${totals.passed} of ${totals.total} passed (${pct}%), ${totals.failed} failed, ${totals.errors} error${
      totals.errors === 1 ? "" : "s"
    }${skipped}`,
  );
  for (const [stage, n] of Object.entries(failuresByStage)) {
    lines.push(`  first failing stage ${stage}: ${n}`);
  }
  return lines.join("\n");
}

/**
 * Rounds to the nearest integer, ties to the even one, as Python's `round()`
 * and `format(x, ".0f")` do: the run output prints `1 of 8 passed (12%)`,
 * not 13%. A tie here is exact: 100 * passed / total is k + 0.5 only when the
 * division is exact in binary.
 */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const rest = x - floor;
  if (rest !== 0.5) return Math.round(x);
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * The result of {@link runSuite}.
 *
 * @example
 * ```ts
 * import { defineCase, runSuite } from "../../mod.ts";
 * const cases = [defineCase({ id: "two", question: "1 + 1?", expect: { rows: [{ n: 2 }] } })];
 * const result = await runSuite(cases, () => ({ rows: [{ n: 2 }] }));
 * result.passed; // 1
 * result.exitCode; // 0
 * console.log(result.summary()); // PASS  two ...
 * ```
 */
export class SuiteResult implements SuiteTotals {
  /** Every case, in the order of the cases given. */
  readonly cases: readonly CaseResult[];
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly errors: number;
  readonly skipped: number;
  /** FAIL cases counted by their first failing stage, most frequent first. */
  readonly failuresByStage: Readonly<Record<string, number>>;
  /** How many times the judge was called. */
  readonly judgeCalls: number;
  /** Wall time of the run, in milliseconds. */
  readonly durationMs: number;

  /**
   * @param cases the case results, in order
   * @param judgeCalls judge calls made
   * @param durationMs wall time
   */
  constructor(cases: readonly CaseResult[], judgeCalls = 0, durationMs = 0) {
    this.cases = cases;
    const count = (s: Status) => cases.filter((c) => c.verdict === s).length;
    this.total = cases.length;
    this.passed = count(PASS);
    this.failed = count(FAIL);
    this.errors = count(ERROR);
    this.skipped = count(SKIP);
    const byStage = new Map<string, number>();
    for (const c of cases) {
      if (c.verdict === FAIL && c.failedStage !== undefined) {
        byStage.set(c.failedStage, (byStage.get(c.failedStage) ?? 0) + 1);
      }
    }
    this.failuresByStage = Object.fromEntries(
      [...byStage].sort((a, b) => b[1] - a[1]), // stable: ties keep first-seen order
    );
    this.judgeCalls = judgeCalls;
    this.durationMs = durationMs;
  }

  /** 0 when no case failed or errored, else 1 (the CLI's exit code). */
  get exitCode(): 0 | 1 {
    return this.failed === 0 && this.errors === 0 ? 0 : 1;
  }

  /**
   * The run output exactly as the docs print it. The number of judge calls
   * is not in it: it is in the run file (`judge_calls`), the Markdown report
   * and, with `run --verbose`, on stderr.
   *
   * @returns the text, without a final newline
   */
  summary(): string {
    return suiteSummary(this.cases, this, this.failuresByStage);
  }
}

/**
 * Runs every case (or those with one of `tags`) against the agent, up to
 * `concurrency` at a time. A case whose agent raises, hangs past
 * `timeoutMs` or returns something that is not a trace is an ERROR; the
 * suite always finishes.
 *
 * @param cases the cases, e.g. from loadCases()
 * @param agent the agent
 * @param options executor, rules, judge, concurrency, timeout, tags, progress
 * @returns the result; print `result.summary()`, exit with `result.exitCode`
 * @throws {UsageError} when a case has reference_sql and no `execute` is given
 * @example
 * ```ts
 * import { runSuite } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const cases = [defineCase({ question: "How many?", expect: { rows: [{ n: 2 }] } })];
 * const result = await runSuite(cases, () => ({ rows: [{ total: 2 }], answer: "2" }));
 * console.log(result.summary()); // PASS  how-many ...
 * ```
 */
export async function runSuite(
  cases: readonly TestCase[],
  agent: Agent,
  options: SuiteOptions = {},
): Promise<SuiteResult> {
  const { feed, needs } = arrayFeed(selectTagged(cases, options.tags));
  return await runCaseFeed(feed, agent, options, needs);
}

/**
 * The cases with one of the tags (all of them without tags).
 *
 * @param cases the cases
 * @param tags the tags, or undefined
 * @returns the cases kept, in order
 */
export function selectTagged(
  cases: readonly TestCase[],
  tags: readonly string[] | undefined,
): readonly TestCase[] {
  return tags === undefined ? cases : cases.filter((c) => c.tags.some((t) => tags.includes(t)));
}

/**
 * Held cases as a feed, with what they need.
 *
 * @param cases the cases, in order
 * @returns the feed and its needs
 */
export function arrayFeed(cases: readonly TestCase[]): { feed: CaseFeed; needs: FeedNeeds } {
  let k = 0;
  return {
    feed: { length: cases.length, next: () => cases[k++], close: () => {} },
    needs: {
      referenceSql: cases.some((c) => c.reference_sql !== undefined),
      // db_unchanged: false asks for nothing.
      wantsDb: cases.some((c) =>
        DB_EXPECT_KEYS.some((k) => c.expect?.[k] !== undefined && c.expect?.[k] !== false)
      ),
    },
  };
}

/**
 * {@link runSuite} on cases handed out one at a time, so that a long run
 * holds only the cases in flight (`run` on a JSON lines file). The feed's
 * cases are all run (`options.tags` is not applied).
 *
 * @param feed the cases, in order
 * @param agent the agent
 * @param options as runSuite takes them
 * @param needs whether any of the cases has reference_sql, or expects database changes
 * @returns the result
 */
export async function runCaseFeed(
  feed: CaseFeed,
  agent: Agent,
  options: SuiteOptions,
  needs: FeedNeeds,
): Promise<SuiteResult> {
  const keep = options.keepResults !== false;
  const results: CaseResult[] = new Array(keep ? feed.length : 0);
  let done = 0;
  const collect: RunObserver = {
    caseDone(result, index) {
      if (keep) results[index] = result;
      options.onResult?.(result, index);
      options.onProgress?.(++done, feed.length, result);
    },
  };
  const end = await runLoop(feed, agent, options, needs, [collect, ...options.observers ?? []]);
  return new SuiteResult(
    end.stopped || !keep ? results.filter((r) => r !== undefined) : results,
    end.judgeCalls,
    end.durationMs,
  );
}
