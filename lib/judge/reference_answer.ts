/**
 * reference_answer: the judge says the answer agrees with the result of the
 * case's reference SQL.
 *
 * @module
 */
import { Check, type CheckContext, type CheckResult, SKIP } from "../eval/check.ts";
import type { TestCase } from "../eval/case.ts";
import type { Trace } from "../eval/trace.ts";
import { answerToJudge } from "./_answer.ts";
import { askJudge } from "./_ask_judge.ts";
import { rowsTextOptions } from "./_prompt_rows.ts";
import type { JudgeCheckOptions } from "./judge_checks.ts";
import { referenceAnswerPrompt } from "./prompts.ts";

/**
 * Asks the judge whether the answer agrees with the reference result. SKIP
 * without a judge, without reference_sql, when the reference rows are not
 * known (the harness reports a failed reference query itself) or without an
 * answer.
 *
 * @example
 * ```ts
 * import { ReferenceAnswer } from "./reference_answer.ts";
 * import { Trace } from "../eval/trace.ts";
 * const check = new ReferenceAnswer();
 * const result = await check.run(
 *   Trace.simple("How many?", { answer: "Two." }),
 *   { id: "c1", question: "How many?", reference_sql: "SELECT 2 AS n", tags: [], ordered: false, precision: 2 },
 *   { referenceRows: [{ n: 2 }], judge: () => "PASS\nTwo is 2." },
 * );
 * result; // { name: "reference_answer", stage: "answer", status: "PASS", detail: "Two is 2." }
 * ```
 */
export class ReferenceAnswer extends Check {
  /** The name shown in scorecards. */
  readonly name = "reference_answer";
  readonly #options: JudgeCheckOptions;

  /** @param options a timeout and prompt sizes */
  constructor(options: JudgeCheckOptions = {}) {
    super();
    this.#options = options;
  }

  /**
   * @param trace what the agent did
   * @param testCase the case, for its question, reference_sql and precision
   * @param context the judge and the reference rows
   * @returns PASS or FAIL with the judge's reason, ERROR when the judge failed, or SKIP
   */
  async run(trace: Trace, testCase: TestCase, context: CheckContext): Promise<CheckResult> {
    const answer = answerToJudge(trace);
    if (answer.kind === "none") return this.result(answer.stage, SKIP, answer.why);
    if (context.judge === undefined) return this.result(answer.stage, SKIP, "no judge");
    const referenceSql = testCase.reference_sql;
    if (referenceSql === undefined || referenceSql.trim() === "") {
      return this.result(answer.stage, SKIP, "no reference_sql");
    }
    if (context.referenceRows === undefined) {
      return this.result(answer.stage, SKIP, "the reference rows are not known");
    }
    const prompt = referenceAnswerPrompt({
      question: testCase.question,
      answer: answer.text,
      referenceSql,
      referenceRows: context.referenceRows,
      precision: testCase.precision,
      rowsText: rowsTextOptions(this.#options),
    });
    return await askJudge({
      check: this,
      judge: context.judge,
      prompt,
      stage: answer.stage,
      timeoutMs: this.#options.timeoutMs,
    });
  }
}
