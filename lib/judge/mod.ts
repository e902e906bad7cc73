/**
 * The LLM judge: three checks that ask a judge (reference_answer, faithful,
 * relevant) and a built-in judge for OpenAI-compatible chat-completions
 * endpoints. The harness adds `judgeChecks()` to a case's checks when a run
 * has a judge, and `--judge-url` builds `openAiJudge(...)`.
 *
 * @example
 * ```ts
 * import { judgeChecks } from "./mod.ts";
 * import { Trace } from "../eval/trace.ts";
 * const [, , relevant] = judgeChecks();
 * const result = await relevant!.run(
 *   Trace.simple("How many orders?", { answer: "3 orders." }),
 *   { id: "c1", question: "How many orders?", tags: [], ordered: false, precision: 2 },
 *   { judge: (prompt) => prompt.includes("3 orders.") ? "PASS\nIt gives a count." : "FAIL" },
 * );
 * result; // { name: "relevant", stage: "answer", status: "PASS", detail: "It gives a count." }
 * ```
 *
 * @module
 */
export { JUDGE_CHECK_SOURCE, type JudgeCheckOptions, judgeChecks } from "./judge_checks.ts";
export { ReferenceAnswer } from "./reference_answer.ts";
export { Faithful } from "./faithful.ts";
export { Relevant } from "./relevant.ts";
export { chatCompletionsUrl, openAiJudge, type OpenAiJudgeOptions } from "./openai_judge.ts";
export {
  parseVerdict,
  type ReadVerdict,
  type UnreadableVerdict,
  type Verdict,
} from "./parse_verdict.ts";
export {
  faithfulPrompt,
  type FaithfulPromptInput,
  referenceAnswerPrompt,
  type ReferenceAnswerPromptInput,
  relevantPrompt,
  type RelevantPromptInput,
  REPLY_FORM,
} from "./prompts.ts";
