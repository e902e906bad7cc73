/**
 * Asks the judge once and turns the reply into a finding: PASS or FAIL with
 * the judge's reason, or ERROR when the reply is unreadable, the judge threw,
 * or it took longer than the check's timeout.
 *
 * @module
 */
import type { Check, CheckResult, Judge } from "../eval/check.ts";
import { ERROR } from "../eval/check.ts";
import { parseVerdict } from "./parse_verdict.ts";

/** What {@link askJudge} needs. */
export interface AskJudgeInput {
  /** The check the finding belongs to. */
  readonly check: Check;
  readonly judge: Judge;
  readonly prompt: string;
  /** The stage the finding reports at. */
  readonly stage: string;
  /** Gives up after this long, when set (only an asynchronous judge can be given up on). */
  readonly timeoutMs?: number | undefined;
}

/**
 * Calls the judge once and reads its verdict.
 *
 * @param input the check, the judge, the prompt and the stage to report at
 * @returns the finding; never throws for a failing judge
 */
export async function askJudge(input: AskJudgeInput): Promise<CheckResult> {
  const { check, stage } = input;
  let reply: unknown;
  try {
    reply = await withTimeout(async () => await input.judge(input.prompt), input.timeoutMs);
  } catch (error) {
    return check.result(stage, ERROR, `judge failed: ${firstLine(error)}`);
  }
  const verdict = parseVerdict(reply);
  if (verdict.kind === "unreadable") {
    return check.result(
      stage,
      ERROR,
      `judge reply not understood (expected PASS or FAIL on the first line): ${verdict.firstLine}`,
    );
  }
  return check.result(stage, verdict.status, verdict.reason || "the judge gave no reason");
}

async function withTimeout<T>(call: () => Promise<T>, timeoutMs: number | undefined): Promise<T> {
  if (timeoutMs === undefined) return await call();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the judge did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([call(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.trim().split(/\r?\n/)[0] ?? "";
  return line === "" ? (error instanceof Error ? error.name : "unknown error") : line;
}
