/**
 * The answer a judge check looks at: the trace's last answer stage.
 *
 * @module
 */
import type { Trace } from "../eval/trace.ts";
import { valueText } from "./_values_text.ts";

/** The answer to judge, or why there is none. */
export type AnswerToJudge =
  | { readonly kind: "answer"; readonly stage: string; readonly text: string }
  | { readonly kind: "none"; readonly stage: string; readonly why: string };

/**
 * Finds the answer a judge check judges.
 *
 * @param trace what the agent did
 * @returns the last answer stage's name and text, or why there is nothing to judge
 */
export function answerToJudge(trace: Trace): AnswerToJudge {
  const stage = trace.lastOf("answer");
  if (stage === undefined) return { kind: "none", stage: "answer", why: "no answer in the trace" };
  if (stage.error !== undefined) {
    return { kind: "none", stage: stage.name, why: "the answer stage failed" };
  }
  const output = stage.output;
  const text = output === undefined || output === null
    ? ""
    : typeof output === "string"
    ? output
    : valueText(output, 2000);
  return { kind: "answer", stage: stage.name, text };
}
