/**
 * A score: one way of deciding whether a predicted query answers a question,
 * as a public leaderboard decides it. Each is a pure function of the gold
 * SQL, the predicted SQL and a way to run SQL on the question's database,
 * so a run, a predictions file or a test can use it alike.
 *
 * @module
 */
import type { StoredExecutor } from "./stored.ts";

/**
 * What a score is given for one question.
 *
 * @example
 * ```ts
 * import type { ScoreInput } from "./score.ts";
 * const input: ScoreInput = {
 *   gold: "SELECT count(*) FROM singer",
 *   predicted: "SELECT count(*) FROM singer",
 *   execute: () => ({ columns: ["count(*)"], rows: [[6n]] }),
 * };
 * ```
 */
export interface ScoreInput {
  /** The gold (reference) SQL, as the benchmark publishes it. */
  readonly gold: string;
  /** The predicted SQL, as the predictions file (or the agent) gave it. */
  readonly predicted: string;
  /** Runs one statement on the question's database. */
  readonly execute: StoredExecutor;
  /**
   * The other databases of the question's test suite (the `.sqlite` files
   * beside its database), for Spider's test-suite accuracy: the prediction
   * must match the gold on each of them too. The other scores ignore them.
   */
  readonly testSuite?: readonly TestSuiteDatabase[] | undefined;
}

/**
 * One database of a question's test suite.
 *
 * @example
 * ```ts
 * import type { TestSuiteDatabase } from "./score.ts";
 * const db: TestSuiteDatabase = {
 *   name: "concert_singer_2.sqlite",
 *   execute: () => ({ columns: ["count(*)"], rows: [[4n]] }),
 * };
 * ```
 */
export interface TestSuiteDatabase {
  /** The file's name, for messages. */
  readonly name: string;
  /** Runs one statement on it. */
  readonly execute: StoredExecutor;
}

/**
 * A score's outcome for one question.
 *
 * @example
 * ```ts
 * import type { ScoreOutcome } from "./score.ts";
 * const outcome: ScoreOutcome = { value: 0, correct: false, detail: "2 rows, the gold has 3" };
 * ```
 */
export interface ScoreOutcome {
  /** The question's value: 1 or 0 for execution accuracy, the F1, the reward. */
  readonly value: number;
  /** Whether the leaderboard counts the prediction as right. */
  readonly correct: boolean;
  /** What decided it, in one line. */
  readonly detail: string;
  /** Set when the gold SQL itself failed: the question has no verdict. */
  readonly goldError?: string;
}

/**
 * A scoring rule: one entry of {@link SCORES}.
 *
 * @example
 * ```ts
 * import type { Score } from "./score.ts";
 * const always: Score = {
 *   name: "spider",
 *   title: "always right",
 *   total: (values) => 100 * values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1),
 *   score: () => Promise.resolve({ value: 1, correct: true, detail: "" }),
 * };
 * ```
 */
export interface Score {
  /** The name `--score` takes. */
  readonly name: ScoreName;
  /** What it is, for reports. */
  readonly title: string;
  /** How it was run, when not as its evaluator's defaults (`DISTINCT kept (--keep-distinct)`). */
  readonly variant?: string;
  /** It scores a question on every database of its test suite ({@link ScoreInput.testSuite}). */
  readonly testSuites?: boolean;
  /** The headline number from the questions' values (in percent). */
  total(values: readonly number[]): number;
  /** Scores one question. */
  score(input: ScoreInput): Promise<ScoreOutcome>;
}

/**
 * The scores there are.
 *
 * @example
 * ```ts
 * import type { ScoreName } from "./score.ts";
 * const name: ScoreName = "bird-ex";
 * ```
 */
export type ScoreName = "spider" | "bird-ex" | "bird-f1" | "bird-ves";

/**
 * The mean of the values, in percent (0 for none).
 *
 * @param values the questions' values
 * @returns the mean times 100
 * @example
 * ```ts
 * import { meanPercent } from "./score.ts";
 * meanPercent([1, 0, 1, 1]); // 75
 * ```
 */
export function meanPercent(values: readonly number[]): number {
  if (values.length === 0) return 0;
  return (100 * values.reduce((a, b) => a + b, 0)) / values.length;
}

/**
 * The message of a thrown error, on one line.
 *
 * @param e what was thrown
 * @returns the message
 */
export function errorText(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).replace(/\s+/g, " ");
}
