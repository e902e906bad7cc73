/**
 * relevant: the judge says the answer really answers the question.
 *
 * @module
 */
import { Check, type CheckContext, type CheckResult, SKIP } from "../eval/check.ts";
import type { TestCase } from "../eval/case.ts";
import type { Trace } from "../eval/trace.ts";
import { answerToJudge } from "./_answer.ts";
import { askJudge } from "./_ask_judge.ts";
import type { JudgeCheckOptions } from "./judge_checks.ts";
import { relevantPrompt } from "./prompts.ts";

/**
 * Asks the judge whether the answer answers the question. SKIP without a
 * judge or without an answer.
 *
 * @example
 * ```ts
 * import { Relevant } from "./relevant.ts";
 * import { Trace } from "../eval/trace.ts";
 * const result = await new Relevant().run(
 *   Trace.simple("How many orders?", { answer: "The weather is nice." }),
 *   { id: "c1", question: "How many orders?", tags: [], ordered: false, precision: 2 },
 *   { judge: () => "FAIL\nIt does not talk about orders." },
 * );
 * result.detail; // "It does not talk about orders."
 * ```
 */
export class Relevant extends Check {
  /** The name shown in scorecards. */
  readonly name = "relevant";
  readonly #options: JudgeCheckOptions;

  /** @param options a timeout */
  constructor(options: JudgeCheckOptions = {}) {
    super();
    this.#options = options;
  }

  /**
   * @param trace what the agent did: its answer
   * @param testCase the case, for its question
   * @param context the judge
   * @returns PASS or FAIL with the judge's reason, ERROR when the judge failed, or SKIP
   */
  async run(trace: Trace, testCase: TestCase, context: CheckContext): Promise<CheckResult> {
    const answer = answerToJudge(trace);
    if (answer.kind === "none") return this.result(answer.stage, SKIP, answer.why);
    if (context.judge === undefined) return this.result(answer.stage, SKIP, "no judge");
    return await askJudge({
      check: this,
      judge: context.judge,
      prompt: relevantPrompt({
        question: testCase.question || trace.question,
        answer: answer.text,
      }),
      stage: answer.stage,
      timeoutMs: this.#options.timeoutMs,
    });
  }
}
