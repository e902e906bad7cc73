/**
 * Placeholder until the judge issue lands. The harness adds `judgeChecks()`
 * to a case's checks when a run has a judge, and `--judge-url` builds
 * `openAiJudge(...)`.
 *
 * @module
 */
import type { Check, Judge } from "../eval/check.ts";
import { UsageError } from "../errors.ts";

/** Options of the built-in judge for OpenAI-compatible endpoints. */
export interface OpenAiJudgeOptions {
  readonly url: string;
  readonly model: string;
  readonly apiKey?: string;
  readonly timeoutMs?: number;
}

/** The judge checks (reference_answer, faithful, relevant); they take the judge from the check context. */
export function judgeChecks(): Check[] {
  return [];
}

/** A judge backed by an OpenAI-compatible chat-completions endpoint. */
export function openAiJudge(_options: OpenAiJudgeOptions): Judge {
  throw new UsageError("--judge-url is not built yet");
}
