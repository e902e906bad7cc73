/**
 * A run's questions scored by the leaderboards' rules beside our verdict:
 * each score's total, our pass rate over the same questions, and every
 * question where the two disagree, with the reason.
 *
 * @module
 */
import { explainDisagreement } from "./disagreement.ts";
import type { Score, ScoreName } from "./score.ts";
import type { StoredExecutor } from "./stored.ts";
import type { TestSuiteDatabase } from "./score.ts";

/**
 * One question of a run, as the scores need it.
 *
 * @example
 * ```ts
 * import type { ScoredQuestion } from "./leaderboard.ts";
 * const q: ScoredQuestion = {
 *   id: "dev-0000", gold: "SELECT 1", predicted: "SELECT 1", ours: true, ordered: false, precision: 2,
 *   execute: () => ({ columns: ["1"], rows: [[1n]] }),
 * };
 * ```
 */
export interface ScoredQuestion {
  /** The case id. */
  readonly id: string;
  /** The reference SQL; a question without one is not scored. */
  readonly gold: string | undefined;
  /** The agent's SQL; none scores 0 ("" is an unanswered question, which each score judges). */
  readonly predicted: string | undefined;
  /** Our verdict: PASS. */
  readonly ours: boolean;
  /** The case's `ordered`. */
  readonly ordered: boolean;
  /** The case's `precision`. */
  readonly precision: number;
  /** Runs SQL on the case's database; undefined when it is not SQLite. */
  readonly execute: StoredExecutor | undefined;
  /** The other databases of its test suite (Spider's test-suite accuracy), if any. */
  readonly testSuite?: readonly TestSuiteDatabase[] | undefined;
}

/**
 * A question where a score and our verdict disagree.
 *
 * @example
 * ```ts
 * import type { Disagreement } from "./leaderboard.ts";
 * const d: Disagreement = { id: "dev-0007", value: 1, official: true, ours: false, detail: "the same rows", reason: "DISTINCT" };
 * ```
 */
export interface Disagreement {
  readonly id: string;
  /** The score's value for the question. */
  readonly value: number;
  /** The leaderboard counts it right. */
  readonly official: boolean;
  /** We do. */
  readonly ours: boolean;
  /** What decided the score. */
  readonly detail: string;
  /** Why the two differ. */
  readonly reason: string;
}

/**
 * One score over a run.
 *
 * @example
 * ```ts
 * import type { LeaderboardScore } from "./leaderboard.ts";
 * const s: LeaderboardScore = { name: "spider", title: "Spider", total: 80, ours: 78, questions: 10, noVerdict: 0, disagreements: [] };
 * ```
 */
export interface LeaderboardScore {
  readonly name: ScoreName;
  readonly title: string;
  /** The leaderboard's number over the scored questions. */
  readonly total: number;
  /** Our pass rate over the same questions, in percent. */
  readonly ours: number;
  /** Questions scored. */
  readonly questions: number;
  /** Questions left out because their gold SQL failed. */
  readonly noVerdict: number;
  /**
   * How it was run, when not as its evaluator's defaults on one database a
   * question: `test-suite accuracy (4 databases a question)`, `DISTINCT kept (--keep-distinct)`.
   */
  readonly variant?: string;
  /** Every question where the score and our verdict differ. */
  readonly disagreements: readonly Disagreement[];
}

/**
 * Scores a run's questions with each score.
 *
 * @param questions the run's questions (those without reference SQL or a SQLite database are skipped)
 * @param scores the scores
 * @returns one result per score
 * @example
 * ```ts
 * import { leaderboardScores } from "./leaderboard.ts";
 * import { SPIDER } from "./score_spider.ts";
 * const execute = (sql: string) => ({ columns: ["a"], rows: sql.includes("a, b") ? [[1n, 2n]] : [[1n]] });
 * const [spider] = await leaderboardScores([{
 *   id: "q1", gold: "SELECT a FROM t", predicted: "SELECT a, b FROM t", ours: true, ordered: false, precision: 2, execute,
 * }], [SPIDER]);
 * spider?.disagreements[0]?.reason; // "2 columns for the gold's 1: ..."
 * ```
 */
export async function leaderboardScores(
  questions: readonly ScoredQuestion[],
  scores: readonly Score[],
): Promise<LeaderboardScore[]> {
  const out: LeaderboardScore[] = [];
  for (const score of scores) {
    const values: number[] = [];
    let ours = 0;
    let noVerdict = 0;
    const disagreements: Disagreement[] = [];
    // The number of databases each question is scored on.
    const suites: number[] = [];
    for (const q of questions) {
      if (q.gold === undefined || q.execute === undefined) continue;
      const testSuite = score.testSuites === true ? q.testSuite ?? [] : [];
      suites.push(testSuite.length + 1);
      const input = { gold: q.gold, execute: q.execute, testSuite };
      // An empty prediction (a question the predictions file left unanswered)
      // is the score's to judge: BIRD's evaluators run it as an empty query.
      const outcome = q.predicted === undefined
        ? { value: 0, correct: false, detail: "the agent gave no SQL" }
        : await score.score({ ...input, predicted: q.predicted });
      if ("goldError" in outcome && outcome.goldError !== undefined) {
        noVerdict++;
        continue;
      }
      values.push(outcome.value);
      if (q.ours) ours++;
      if (outcome.correct === q.ours) continue;
      const verdictScore = score.name === "spider" || score.name === "bird-ex";
      const reason = q.predicted === undefined || !verdictScore
        ? outcome.detail
        : await explainDisagreement(
          score,
          { ...input, predicted: q.predicted },
          { correct: q.ours, ordered: q.ordered, precision: q.precision },
          outcome.correct,
        );
      disagreements.push({
        id: q.id,
        value: outcome.value,
        official: outcome.correct,
        ours: q.ours,
        detail: outcome.detail,
        reason,
      });
    }
    out.push({
      name: score.name,
      title: score.title,
      total: score.total(values),
      ours: values.length === 0 ? 0 : (100 * ours) / values.length,
      questions: values.length,
      noVerdict,
      ...variantOf(score, suites),
      disagreements,
    });
  }
  return out;
}

function variantOf(score: Score, suites: readonly number[]): { variant?: string } {
  const parts: string[] = [];
  const least = suites.reduce((a, b) => Math.min(a, b), Infinity);
  const most = suites.reduce((a, b) => Math.max(a, b), 0);
  if (score.testSuites === true && most > 1) {
    parts.push(
      `test-suite accuracy (${least === most ? least : `${least}-${most}`} databases a question)`,
    );
  }
  if (score.variant !== undefined) parts.push(score.variant);
  return parts.length === 0 ? {} : { variant: parts.join(", ") };
}

/**
 * The text a run prints for its scores: each total beside ours, then the
 * questions where they disagree.
 *
 * @param results the scores
 * @returns the lines
 * @example
 * ```ts
 * import { leaderboardText } from "./leaderboard.ts";
 * leaderboardText([{ name: "spider", title: "Spider execution accuracy", total: 80, ours: 75, questions: 4, noVerdict: 0, disagreements: [
 *   { id: "q3", value: 1, official: true, ours: false, detail: "the same rows", reason: "DISTINCT removed" },
 * ] }]);
 * // ["spider: 80.0% over 4 questions (ours: 75.0%); 1 disagree:", "  q3: spider PASS, ours FAIL: DISTINCT removed"]
 * ```
 */
export function leaderboardText(results: readonly LeaderboardScore[]): string[] {
  const lines: string[] = [];
  for (const r of results) {
    const left = r.noVerdict > 0 ? `, ${r.noVerdict} without a verdict (the gold failed)` : "";
    lines.push(
      `${r.name}${r.variant === undefined ? "" : `, ${r.variant}`}: ${
        r.total.toFixed(1)
      }% over ${r.questions} questions (ours: ${
        r.ours.toFixed(1)
      }%)${left}; ${r.disagreements.length} disagree${r.disagreements.length > 0 ? ":" : ""}`,
    );
    for (const d of r.disagreements) {
      lines.push(
        `  ${d.id}: ${r.name} ${d.official ? "PASS" : "FAIL"}, ours ${
          d.ours ? "PASS" : "FAIL"
        }: ${d.reason}`,
      );
    }
  }
  return lines;
}
