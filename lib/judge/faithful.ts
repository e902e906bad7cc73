/**
 * faithful: the judge says everything in the answer is supported by the
 * agent's own rows.
 *
 * @module
 */
import { JudgeCheck, type JudgePromptInput } from "./_judge_check.ts";
import { faithfulPrompt } from "./prompts.ts";

/**
 * Asks the judge whether the answer is true to the rows of the trace's last
 * execute stage. SKIP without a judge, without an answer, or when the trace
 * has no rows to hold the answer against (no execute stage, or it failed).
 *
 * @example
 * ```ts
 * import { Faithful } from "./faithful.ts";
 * import { Trace } from "../eval/trace.ts";
 * const result = await new Faithful().run(
 *   Trace.simple("Total?", { sql: "SELECT 5 AS t", rows: [{ t: 5 }], answer: "It is 7." }),
 *   { id: "c1", question: "Total?", tags: [], ordered: false, precision: 2 },
 *   { judge: async () => "FAIL\nThe rows say 5, not 7." },
 * );
 * result.status; // "FAIL"
 * ```
 */
export class Faithful extends JudgeCheck {
  /** The name shown in scorecards. */
  readonly name = "faithful";

  /**
   * @param input the answer and the trace, whose last execute stage holds the rows
   * @returns the prompt, or why there are no rows to hold the answer against
   */
  prompt({ answer, trace, testCase, rowsText }: JudgePromptInput): string | { skip: string } {
    const execute = trace.lastOf("execute");
    if (execute === undefined || execute.rows === undefined) {
      return {
        skip: execute?.error !== undefined ? "the execute stage failed" : "no rows in the trace",
      };
    }
    const sql = trace.lastOf("generate")?.output;
    return faithfulPrompt({
      question: testCase.question || trace.question,
      answer,
      sql: typeof sql === "string" ? sql : undefined,
      rows: execute.rows,
      rowsText,
    });
  }
}
