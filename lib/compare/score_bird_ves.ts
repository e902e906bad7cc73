/**
 * BIRD Mini-Dev's Reward-based Valid Efficiency Score (R-VES) as its
 * evaluation_ves.py computes it. A question whose prediction gives the
 * gold's set of rows is timed: both queries run `iterations` times (100),
 * each run's ratio is gold time / predicted time, ratios outside three
 * standard deviations of their mean are dropped (numpy's mean and
 * population std, strictly inside), and the mean of the rest picks the
 * reward: 1.25 from 2, 1 from 1, 0.75 from 0.5, 0.5 from 0.25, else 0.25.
 * A wrong or failing prediction gets 0. The total is the mean of the
 * rewards' square roots, times 100.
 *
 * @module
 */
import { birdRows, noRowsOutcome } from "./_bird_rows.ts";
import { birdSetEqual } from "./score_bird_ex.ts";
import type { Score, ScoreInput, ScoreOutcome } from "./score.ts";
import process from "node:process";

/** numpy's pairwise summation of float64 (`np.add.reduce`), so the mean and std round as numpy's do. */
function pairwiseSum(a: readonly number[], lo: number, n: number): number {
  if (n < 8) {
    let s = 0;
    for (let i = lo; i < lo + n; i++) s += a[i]!;
    return s;
  }
  if (n <= 128) {
    const r = a.slice(lo, lo + 8);
    let i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (let j = 0; j < 8; j++) r[j]! += a[lo + i + j]!;
    }
    let s = ((r[0]! + r[1]!) + (r[2]! + r[3]!)) + ((r[4]! + r[5]!) + (r[6]! + r[7]!));
    for (; i < n; i++) s += a[lo + i]!;
    return s;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwiseSum(a, lo, n2) + pairwiseSum(a, lo + n2, n - n2);
}

/**
 * evaluation_ves.py's `clean_abnormal`: the values strictly within three
 * population standard deviations of their mean.
 *
 * @param values the time ratios
 * @returns the values kept
 * @example
 * ```ts
 * import { cleanAbnormal } from "./score_bird_ves.ts";
 * cleanAbnormal([1, 1, 1]); // [] (a std of 0 keeps nothing)
 * ```
 */
export function cleanAbnormal(values: readonly number[]): number[] {
  const n = values.length;
  const mean = pairwiseSum(values, 0, n) / n;
  const squares = values.map((x) => Math.abs(x - mean) ** 2);
  const std = Math.sqrt(pairwiseSum(squares, 0, n) / n);
  return values.filter((x) => x < mean + 3 * std && x > mean - 3 * std);
}

/**
 * The reward for a mean time ratio (gold time / predicted time).
 *
 * @param ratio the ratio; 0 for a wrong prediction
 * @returns 0, 0.25, 0.5, 0.75, 1 or 1.25
 * @example
 * ```ts
 * import { vesReward } from "./score_bird_ves.ts";
 * vesReward(1.5); // 1
 * ```
 */
export function vesReward(ratio: number): number {
  if (ratio === 0) return 0;
  if (ratio >= 2) return 1.25;
  if (ratio >= 1) return 1;
  if (ratio >= 0.5) return 0.75;
  if (ratio >= 0.25) return 0.5;
  return 0.25;
}

/**
 * The reward for one question from its per-run ratios, as
 * `iterated_execute_sql` computes it (no ratio left after the filter
 * divides by zero in the script, which scores the question 0).
 *
 * @param ratios gold time / predicted time of each run
 * @returns the reward
 * @example
 * ```ts
 * import { rewardFromRatios } from "./score_bird_ves.ts";
 * rewardFromRatios([0.9, 1.1, 1.2, 1.0]); // 1
 * ```
 */
export function rewardFromRatios(ratios: readonly number[]): number {
  const kept = cleanAbnormal(ratios);
  if (kept.length === 0) return 0;
  return vesReward(kept.reduce((a, b) => a + b, 0) / kept.length);
}

/**
 * The R-VES total: the mean of the rewards' square roots, times 100.
 *
 * @param rewards the questions' rewards
 * @returns R-VES
 * @example
 * ```ts
 * import { rves } from "./score_bird_ves.ts";
 * rves([1, 0, 1.25, 0.25]); // (100 + 0 + 111.80... + 50) / 4
 * ```
 */
export function rves(rewards: readonly number[]): number {
  if (rewards.length === 0) return 0;
  let total = 0;
  for (const r of rewards) total += Math.sqrt(r) * 100;
  return total / rewards.length;
}

/**
 * How the timing runs.
 *
 * @example
 * ```ts
 * import type { VesOptions } from "./score_bird_ves.ts";
 * const options: VesOptions = { iterations: 10 };
 * ```
 */
export interface VesOptions {
  /** Runs of each query (BIRD's iterate_num). Default 100. */
  readonly iterations?: number | undefined;
  /** The clock, in milliseconds. Default: a nanosecond process clock. */
  readonly now?: (() => number) | undefined;
}

const hrNow = (): number => Number(process.hrtime.bigint()) / 1e6;

/**
 * Scores one question as BIRD's evaluation_ves.py does.
 *
 * @param input gold, predicted, execute
 * @param options iterations and clock
 * @returns the reward (correct when above 0)
 * @example
 * ```ts
 * import { scoreBirdVes } from "./score_bird_ves.ts";
 * const execute = () => ({ columns: ["a"], rows: [[1n]] });
 * (await scoreBirdVes({ gold: "SELECT 1", predicted: "SELECT 1", execute }, { iterations: 5 })).correct; // true
 * ```
 */
export async function scoreBirdVes(
  input: ScoreInput,
  options: VesOptions = {},
): Promise<ScoreOutcome> {
  const r = await birdRows(input);
  if (!r.ok) return noRowsOutcome(r);
  if (!birdSetEqual(r.predicted, r.gold)) {
    return { value: 0, correct: false, detail: "a different set of rows" };
  }
  const now = options.now ?? hrNow;
  const time = async (sql: string): Promise<number> => {
    const start = now();
    await input.execute(sql);
    return now() - start;
  };
  const ratios: number[] = [];
  for (let i = 0; i < (options.iterations ?? 100); i++) {
    const predicted = await time(input.predicted);
    const gold = await time(input.gold);
    // A predicted time of 0 divides by zero in the script: the question scores 0.
    if (predicted === 0) {
      return { value: 0, correct: false, detail: "the prediction took no measurable time" };
    }
    ratios.push(gold / predicted);
  }
  const kept = cleanAbnormal(ratios);
  const mean = kept.length === 0 ? 0 : kept.reduce((a, b) => a + b, 0) / kept.length;
  const reward = kept.length === 0 ? 0 : vesReward(mean);
  return {
    value: reward,
    correct: reward > 0,
    detail: `reward ${reward}: gold/predicted time ${
      Number(mean.toFixed(3))
    } over ${kept.length} of ${ratios.length} runs`,
  };
}

/**
 * BIRD Mini-Dev's R-VES.
 *
 * @example
 * ```ts
 * import { BIRD_VES } from "./score_bird_ves.ts";
 * BIRD_VES.total([1, 1]); // 100
 * ```
 */
export const BIRD_VES: Score = {
  name: "bird-ves",
  title: "BIRD R-VES (reward-based valid efficiency)",
  total: rves,
  score: (input) => scoreBirdVes(input),
};
