/**
 * The judge checks a run adds when it has a judge.
 *
 * @module
 */
import type { Check } from "../eval/check.ts";
import type { CheckSource } from "../eval/check_sources.ts";
import { Faithful } from "./faithful.ts";
import { ReferenceAnswer } from "./reference_answer.ts";
import { Relevant } from "./relevant.ts";

/**
 * Options shared by the judge checks.
 *
 * @example
 * ```ts
 * import { judgeChecks, type JudgeCheckOptions } from "./judge_checks.ts";
 * import { Trace } from "../eval/trace.ts";
 * const options: JudgeCheckOptions = { timeoutMs: 50, maxRows: 20 };
 * const [, , relevant] = judgeChecks(options);
 * const result = await relevant!.run(
 *   Trace.simple("How many orders?", { answer: "3 orders." }),
 *   { id: "c1", question: "How many orders?", tags: [], ordered: false, precision: 2 },
 *   { judge: () => new Promise<string>(() => {}) }, // a judge that never answers
 * );
 * result; // { name: "relevant", stage: "answer", status: "ERROR", detail: "judge failed: the judge did not answer within 50 ms" }
 * ```
 */
export interface JudgeCheckOptions {
  /**
   * Gives up on an asynchronous judge after this many milliseconds (ERROR for
   * that check). Off by default: the built-in judge times out each request
   * itself, and a harness that queues judge calls would count the wait.
   */
  readonly timeoutMs?: number | undefined;
  /** At most this many rows go into a prompt (default 50); the prompt says how many were left out. */
  readonly maxRows?: number | undefined;
  /** A text value longer than this is cut in a prompt (default 300 characters). */
  readonly maxTextChars?: number | undefined;
}

/**
 * The judge checks, in the order a scorecard shows them: reference_answer,
 * faithful, relevant. Each takes the judge from `context.judge` (SKIP
 * without one) and calls it once.
 *
 * @param options a timeout and prompt sizes, shared by the three checks
 * @returns the three checks
 * @example
 * ```ts
 * import { judgeChecks } from "./judge_checks.ts";
 * judgeChecks().map((c) => c.name); // ["reference_answer", "faithful", "relevant"]
 * ```
 */
export function judgeChecks(options: JudgeCheckOptions = {}): Check[] {
  return [new ReferenceAnswer(options), new Faithful(options), new Relevant(options)];
}

/**
 * The judge checks as a run's source of checks: after the rules, for a run
 * with a judge.
 *
 * @example
 * ```ts
 * import { JUDGE_CHECK_SOURCE } from "./judge_checks.ts";
 * JUDGE_CHECK_SOURCE.checks({ judge: () => "PASS" }).length; // 3
 * ```
 */
export const JUDGE_CHECK_SOURCE: CheckSource = {
  name: "judge",
  place: "after-rules",
  checks: (options) => options.judge === undefined ? [] : judgeChecks(),
};
