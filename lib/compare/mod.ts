/**
 * Comparing results: the one row comparison (rows against reference rows,
 * as the harness's rows_match and reference_rows checks, the counterexample
 * search and the reports use it), the number normalisation under it, and
 * the public leaderboards' scores (Spider's test-suite-sql-eval, BIRD's EX,
 * Soft-F1 and R-VES), one registry entry each.
 * Below the harness and the counterexample search; imports neither.
 *
 * @example
 * ```ts
 * import { compareRows } from "./mod.ts";
 * compareRows([{ total: 2 }], [{ "COUNT(*)": "2.00" }]); // true
 * ```
 *
 * @module
 */
export {
  cellKey,
  type ComparableRows,
  compareRows,
  type CompareRowsOptions,
  matchesAny,
} from "./rows.ts";
export {
  isNumericText,
  normalizeNumber,
  numbersInText,
  roundDecimal,
  type TextNumber,
  textNumberValues,
} from "./normalize.ts";
export type { Score, ScoreInput, ScoreName, ScoreOutcome, TestSuiteDatabase } from "./score.ts";
export { SCORES, scoresNamed } from "./scores.ts";
export {
  scoreSpider,
  SPIDER,
  type SpiderOptions,
  type SpiderQueries,
  spiderQueries,
  type SpiderScore,
  spiderScore,
} from "./score_spider.ts";
export { BIRD_EX, birdSetEqual, scoreBirdEx } from "./score_bird_ex.ts";
export { BIRD_F1, scoreBirdF1, softF1 } from "./score_bird_f1.ts";
export {
  BIRD_VES,
  cleanAbnormal,
  rewardFromRatios,
  rves,
  scoreBirdVes,
  type VesOptions,
  vesReward,
} from "./score_bird_ves.ts";
export {
  type StoredExecutor,
  storedExecutor,
  type StoredRows,
  type StoredValue,
} from "./stored.ts";
export { explainDisagreement, type OurComparison } from "./disagreement.ts";
export {
  type Disagreement,
  type LeaderboardScore,
  leaderboardScores,
  leaderboardText,
  type ScoredQuestion,
} from "./leaderboard.ts";
