/**
 * reference_answer: the judge says the answer agrees with the result of the
 * case's reference SQL.
 *
 * @module
 */
import { JudgeCheck, type JudgePromptInput } from "./_judge_check.ts";
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
export class ReferenceAnswer extends JudgeCheck {
  /** The name shown in scorecards. */
  readonly name = "reference_answer";

  /**
   * @param input the answer, the case's reference_sql and the reference rows
   * @returns the prompt, or why there is no reference result to compare with
   */
  prompt({ answer, testCase, context, rowsText }: JudgePromptInput): string | { skip: string } {
    const referenceSql = testCase.reference_sql;
    if (referenceSql === undefined || referenceSql.trim() === "") {
      return { skip: "no reference_sql" };
    }
    if (context.referenceRows === undefined) return { skip: "the reference rows are not known" };
    return referenceAnswerPrompt({
      question: testCase.question,
      answer,
      referenceSql,
      referenceRows: context.referenceRows,
      precision: testCase.precision,
      rowsText,
    });
  }
}
