/**
 * What the three judge checks share: find the answer, skip without a judge,
 * build this check's prompt, ask the judge once, read the verdict. A judge
 * check only says which prompt it sends, or why it has nothing to judge.
 *
 * @module
 */
import { Check, type CheckContext, type CheckResult, SKIP } from "../eval/check.ts";
import type { TestCase } from "../eval/case.ts";
import type { Trace } from "../eval/trace.ts";
import type { RowsTextOptions } from "./_values_text.ts";
import { answerToJudge } from "./_answer.ts";
import { askJudge } from "./_ask_judge.ts";
import { rowsTextOptions } from "./_prompt_rows.ts";
import type { JudgeCheckOptions } from "./judge_checks.ts";

/** What a judge check builds its prompt from. */
export interface JudgePromptInput {
  /** The text of the trace's last answer stage. */
  readonly answer: string;
  readonly trace: Trace;
  readonly testCase: TestCase;
  readonly context: CheckContext;
  /** How many rows and characters go into the prompt. */
  readonly rowsText: RowsTextOptions;
}

/** A judge check: a name and a prompt; the base class does the rest. */
export abstract class JudgeCheck extends Check {
  readonly #options: JudgeCheckOptions;

  /** @param options a timeout and prompt sizes */
  constructor(options: JudgeCheckOptions = {}) {
    super();
    this.#options = options;
  }

  /**
   * The prompt to send, or why this check has nothing to judge (SKIP).
   *
   * @param input the answer, the trace, the case and the context
   * @returns the prompt, or `{ skip: reason }`
   */
  abstract prompt(input: JudgePromptInput): string | { readonly skip: string };

  /**
   * @param trace what the agent did
   * @param testCase the case
   * @param context the judge, and the reference rows for reference_answer
   * @returns PASS or FAIL with the judge's reason, ERROR when the judge failed, or SKIP
   */
  async run(trace: Trace, testCase: TestCase, context: CheckContext): Promise<CheckResult> {
    const answer = answerToJudge(trace);
    if (answer.kind === "none") return this.result(answer.stage, SKIP, answer.why);
    if (context.judge === undefined) return this.result(answer.stage, SKIP, "no judge");
    const prompt = this.prompt({
      answer: answer.text,
      trace,
      testCase,
      context,
      rowsText: rowsTextOptions(this.#options),
    });
    if (typeof prompt !== "string") return this.result(answer.stage, SKIP, prompt.skip);
    return await askJudge({
      check: this,
      judge: context.judge,
      prompt,
      stage: answer.stage,
      timeoutMs: this.#options.timeoutMs,
    });
  }
}
