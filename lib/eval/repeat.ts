/**
 * Repeated runs for agents that are not deterministic (`run --repeat N`):
 * every case runs N times, and its verdict comes from its pass rate.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { ERROR, FAIL, PASS, SKIP, type Status } from "./check.ts";
import type { TestCase } from "./case.ts";
import type { Agent } from "./agent.ts";
import { type CaseResult, runSuite, type SuiteOptions, SuiteResult } from "./suite.ts";

/**
 * What {@link runRepeated} takes: the suite's options, how many times, and
 * the share of attempts a case must pass.
 *
 * @example
 * ```ts
 * import type { RepeatOptions } from "../../mod.ts";
 * const options: RepeatOptions = { repeat: 5, minPassRate: 0.8 };
 * options.repeat; // 5
 * ```
 */
export interface RepeatOptions extends SuiteOptions {
  /** Attempts per case, at least 1. */
  readonly repeat: number;
  /** The share of attempts, from 0 to 1, a case must pass to PASS (default 1: every one). */
  readonly minPassRate?: number | undefined;
}

/**
 * The verdict of a repeated case: PASS when passes / attempts reaches the
 * minimum pass rate; else SKIP when every attempt was skipped, FAIL when an
 * attempt failed, ERROR otherwise.
 *
 * @param attempts the verdicts of the attempts
 * @param minPassRate the share that must pass
 * @returns the verdict
 * @example
 * ```ts
 * import { repeatedVerdict } from "../../mod.ts";
 * repeatedVerdict(["PASS", "FAIL", "PASS", "PASS", "PASS"], 0.8); // "PASS"
 * repeatedVerdict(["PASS", "FAIL", "PASS", "PASS", "PASS"], 1); // "FAIL"
 * ```
 */
export function repeatedVerdict(attempts: readonly Status[], minPassRate = 1): Status {
  const passes = attempts.filter((s) => s === PASS).length;
  // A tolerance for rates such as 0.7 that binary cannot hold exactly.
  if (attempts.length > 0 && passes / attempts.length >= minPassRate - 1e-9) return PASS;
  if (attempts.every((s) => s === SKIP)) return SKIP;
  return attempts.includes(FAIL) ? FAIL : ERROR;
}

/**
 * Runs the whole suite `repeat` times and gives one result per case with
 * every attempt kept (`attempts`); the case's verdict comes from its pass
 * rate ({@link repeatedVerdict}); its checks, error and trace are those of
 * its first attempt with that verdict. Case durations add up over attempts.
 *
 * @param cases the cases
 * @param agent the agent
 * @param options the suite's options, `repeat` and `minPassRate`
 * @returns the result, with `attempts` on every case
 * @throws {UsageError} when repeat is not a whole number of at least 1, the rate not in 0..1, or with failFast
 * @example
 * ```ts
 * import { defineCase, runRepeated } from "../../mod.ts";
 * let n = 0;
 * const agent = () => ({ rows: [{ n: n++ % 2 === 0 ? 2 : 3 }] }); // right every other time
 * const cases = [defineCase({ id: "two", question: "1 + 1?", expect: { rows: [{ n: 2 }] } })];
 * const result = await runRepeated(cases, agent, { repeat: 4, minPassRate: 0.5 });
 * result.cases[0]?.attempts?.length; // 4
 * result.cases[0]?.verdict; // "PASS"
 * ```
 */
export async function runRepeated(
  cases: readonly TestCase[],
  agent: Agent,
  options: RepeatOptions,
): Promise<SuiteResult> {
  const { repeat, minPassRate = 1 } = options;
  if (!Number.isInteger(repeat) || repeat < 1) {
    throw new UsageError(`--repeat must be a whole number of at least 1, got ${repeat}`);
  }
  if (!(minPassRate >= 0 && minPassRate <= 1)) {
    throw new UsageError(`--min-pass-rate must be from 0 to 1, got ${minPassRate}`);
  }
  if (options.failFast === true) {
    throw new UsageError(
      "--fail-fast and --repeat do not go together: a repeated case may fail and pass",
    );
  }
  const started = performance.now();
  const runs: SuiteResult[] = [];
  let done = 0;
  const total = repeat * cases.length;
  for (let i = 0; i < repeat; i++) {
    runs.push(
      await runSuite(cases, agent, {
        ...options,
        onProgress: (_d, _t, result) => options.onProgress?.(++done, total, result),
      }),
    );
  }
  const combined = runs[0]!.cases.map((_, i): CaseResult => {
    const attempts = runs.map((r) => r.cases[i]!);
    const verdict = repeatedVerdict(attempts.map((a) => a.verdict), minPassRate);
    const shown = attempts.find((a) => a.verdict === verdict) ?? attempts[0]!;
    return {
      ...shown,
      verdict,
      failedStage: verdict === FAIL ? shown.failedStage : undefined,
      durationMs: attempts.reduce((t, a) => t + a.durationMs, 0),
      attempts,
    };
  });
  return new SuiteResult(
    combined,
    runs.reduce((n, r) => n + r.judgeCalls, 0),
    performance.now() - started,
  );
}
