/**
 * faithful: the judge says everything in the answer is supported by the
 * agent's own rows.
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
export class Faithful extends Check {
  /** The name shown in scorecards. */
  readonly name = "faithful";
  readonly #options: JudgeCheckOptions;

  /** @param options a timeout and prompt sizes */
  constructor(options: JudgeCheckOptions = {}) {
    super();
    this.#options = options;
  }

  /**
   * @param trace what the agent did: its SQL, rows and answer
   * @param testCase the case, for its question
   * @param context the judge
   * @returns PASS or FAIL with the judge's reason, ERROR when the judge failed, or SKIP
   */
  async run(trace: Trace, testCase: TestCase, context: CheckContext): Promise<CheckResult> {
    const answer = answerToJudge(trace);
    if (answer.kind === "none") return this.result(answer.stage, SKIP, answer.why);
    if (context.judge === undefined) return this.result(answer.stage, SKIP, "no judge");
    const execute = trace.lastOf("execute");
    if (execute === undefined || execute.rows === undefined) {
      const why = execute?.error !== undefined
        ? "the execute stage failed"
        : "no rows in the trace";
      return this.result(answer.stage, SKIP, why);
    }
    const sql = trace.lastOf("generate")?.output;
    const prompt = faithfulPrompt({
      question: testCase.question || trace.question,
      answer: answer.text,
      sql: typeof sql === "string" ? sql : undefined,
      rows: execute.rows,
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
