/**
 * relevant: the judge says the answer really answers the question.
 *
 * @module
 */
import { JudgeCheck, type JudgePromptInput } from "./_judge_check.ts";
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
export class Relevant extends JudgeCheck {
  /** The name shown in scorecards. */
  readonly name = "relevant";

  /**
   * @param input the answer and the case's question
   * @returns the prompt
   */
  prompt({ answer, trace, testCase }: JudgePromptInput): string {
    return relevantPrompt({ question: testCase.question || trace.question, answer });
  }
}
