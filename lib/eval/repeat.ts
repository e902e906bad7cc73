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
import type { CaseFeed } from "./case_source.ts";
import {
  arrayFeed,
  type CaseResult,
  selectTagged,
  type SuiteOptions,
  SuiteResult,
} from "./suite.ts";
import { runLoop, type RunObserver } from "./run_loop.ts";

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
 * Runs every case `repeat` times (its attempts one after the other, up to
 * `concurrency` at once) and gives one result per case with every attempt
 * kept (`attempts`); the case's verdict comes from its pass rate
 * ({@link repeatedVerdict}); its checks, error and trace are those of its
 * first attempt with that verdict. Case durations add up over attempts.
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
  checkRepeat(options);
  const { repeat, minPassRate = 1 } = options;
  const { feed, needs } = arrayFeed(selectTagged(cases, options.tags));
  const combined: CaseResult[] = new Array(feed.length);
  let done = 0;
  const end = await runLoop(repeatFeed(feed, repeat), agent, options, needs, [
    repeatedCases(repeat, minPassRate, [{ caseDone: (c, i) => void (combined[i] = c) }]),
    { caseDone: (r) => options.onProgress?.(++done, repeat * feed.length, r) },
    ...options.observers ?? [],
  ]);
  return new SuiteResult(combined, end.judgeCalls, end.durationMs);
}

/**
 * The feed's cases, each `repeat` times in a row: attempt j of case i is at
 * position i * repeat + j, so that a case's attempts are done close
 * together and {@link repeatedCases} holds only the cases in flight.
 *
 * @param feed the cases
 * @param repeat attempts per case
 * @returns the feed of attempts
 * @example
 * ```ts
 * import { repeatFeed } from "./repeat.ts";
 * import { arrayFeed } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const feed = repeatFeed(arrayFeed([defineCase({ question: "A?" }), defineCase({ question: "B?" })]).feed, 2);
 * [feed.length, feed.next()?.id, feed.next()?.id, feed.next()?.id]; // [4, "a", "a", "b"]
 * ```
 */
export function repeatFeed(feed: CaseFeed, repeat: number): CaseFeed {
  let current: TestCase | undefined;
  let k = 0;
  return {
    length: feed.length * repeat,
    next() {
      if (k++ % repeat === 0) current = feed.next();
      return current;
    },
    close: () => feed.close(),
  };
}

/**
 * An observer of a {@link repeatFeed}'s run that tells `downstream` of one
 * result per case, when its last attempt is done: its verdict by pass rate
 * ({@link repeatedVerdict}), its checks, error and trace those of its first
 * attempt with that verdict, its duration the attempts' sum, every attempt
 * in `attempts`.
 *
 * @param repeat attempts per case
 * @param minPassRate the share of attempts that must pass
 * @param downstream the observers of the cases
 * @returns the observer of the attempts
 * @example
 * ```ts
 * import { defineCase, repeatedCases, repeatFeed, runLoop } from "../../mod.ts";
 * import { arrayFeed } from "./suite.ts";
 * const { feed, needs } = arrayFeed([defineCase({ question: "Hi?" })]);
 * const verdicts: string[] = [];
 * await runLoop(repeatFeed(feed, 3), () => "Hello", {}, needs, [
 *   repeatedCases(3, 1, [{ caseDone: (c) => void verdicts.push(`${c.verdict} ${c.attempts?.length}`) }]),
 * ]);
 * verdicts; // ["PASS 3"]
 * ```
 */
export function repeatedCases(
  repeat: number,
  minPassRate: number,
  downstream: readonly RunObserver[],
): RunObserver {
  const waiting = new Map<number, { attempts: CaseResult[]; done: number }>();
  return {
    start: ({ total }) => {
      for (const o of downstream) o.start?.({ total: total / repeat });
    },
    caseDone(result, index) {
      const at = Math.floor(index / repeat);
      let c = waiting.get(at);
      if (c === undefined) waiting.set(at, c = { attempts: new Array(repeat), done: 0 });
      c.attempts[index % repeat] = result;
      if (++c.done < repeat) return;
      waiting.delete(at);
      const attempts = c.attempts;
      const verdict = repeatedVerdict(attempts.map((a) => a.verdict), minPassRate);
      const shown = attempts.find((a) => a.verdict === verdict) ?? attempts[0]!;
      const combined: CaseResult = {
        ...shown,
        verdict,
        failedStage: verdict === FAIL ? shown.failedStage : undefined,
        durationMs: attempts.reduce((t, a) => t + a.durationMs, 0),
        attempts,
      };
      for (const o of downstream) o.caseDone?.(combined, at);
    },
    finish: async (end) => {
      for (const o of downstream) await o.finish?.({ ...end, ran: end.ran / repeat });
    },
  };
}

/**
 * Checks the repeat options before a run.
 *
 * @param options repeat, minPassRate, failFast
 * @throws {UsageError} when repeat is not a whole number of at least 1, the rate not in 0..1, or with failFast
 */
export function checkRepeat(
  options: Pick<RepeatOptions, "repeat" | "minPassRate" | "failFast">,
): void {
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
}
