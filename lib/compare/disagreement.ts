/**
 * Why a leaderboard's score and our verdict disagree on a question: the
 * first rule, of those the two differ by, that makes the difference. Each
 * explanation is checked by re-scoring with that one rule changed, so a
 * reason is given only when it flips the outcome.
 *
 * @module
 */
import { compareRows } from "./rows.ts";
import { hasDistinct, laterStatements } from "./_sqlparse_words.ts";
import { birdRows } from "./_bird_rows.ts";
import { birdSetEqual } from "./score_bird_ex.ts";
import {
  scoreSpider,
  scoreSpiderBy,
  type SpiderOptions,
  spiderQueries,
  spiderRules,
} from "./score_spider.ts";
import type { Score, ScoreInput, ScoreName } from "./score.ts";
import type { StoredRows } from "./stored.ts";

/**
 * How our verdict compared the rows (the case's settings).
 *
 * @example
 * ```ts
 * import type { OurComparison } from "./disagreement.ts";
 * const ours: OurComparison = { correct: true, ordered: false, precision: 2 };
 * ```
 */
export interface OurComparison {
  /** Our verdict on the question. */
  readonly correct: boolean;
  /** Row order counted (the case's `ordered`). */
  readonly ordered: boolean;
  /** Decimal places numbers were rounded to. */
  readonly precision: number;
}

function asObjects(rows: StoredRows): { columns: readonly string[]; rows: unknown[][] } {
  return {
    columns: rows.columns,
    rows: rows.rows.map((r) =>
      r.map((v) =>
        typeof v === "bigint" && v <= BigInt(Number.MAX_SAFE_INTEGER) &&
          v >= BigInt(Number.MIN_SAFE_INTEGER)
          ? Number(v)
          : v
      )
    ),
  };
}

async function rowsOf(input: ScoreInput, sql: string): Promise<StoredRows | undefined> {
  try {
    return await input.execute(sql);
  } catch {
    return undefined;
  }
}

async function spiderReason(
  input: ScoreInput,
  ours: OurComparison,
  official: boolean,
  options: SpiderOptions,
): Promise<string> {
  const raw = input.predicted.trim();
  const cut = raw.split("\t")[0]!;
  if (cut !== raw) return "the official evaluator reads a prediction line only up to its first TAB";
  if (cut.includes("value")) {
    return 'the official evaluator turns every "value" in a prediction into 1';
  }
  const rules = spiderRules(options);
  const suite = input.testSuite ?? [];
  if (suite.length > 0) {
    const all = await scoreSpiderBy(input, rules);
    const alone = await scoreSpiderBy(input, { ...rules, testSuite: false });
    if (alone.correct !== official) {
      return `test suite: the official evaluator needs the same rows on all ${
        suite.length + 1
      } databases of the question's folder, and finds ${all.detail}; ours checks the question's own database`;
    }
  }
  // The rest is about the question's own database, the one ours checked.
  const own: ScoreInput = { gold: input.gold, predicted: input.predicted, execute: input.execute };
  const single = { ...rules, testSuite: false };
  const rest = laterStatements(cut);
  if (rules.removeDistinct && (hasDistinct(input.gold) || hasDistinct(cut))) {
    const kept = await scoreSpiderBy(own, { ...single, removeDistinct: false });
    if (kept.correct !== official) {
      const flag = (await scoreSpider(own, { keepDistinct: true })).correct === ours.correct
        ? "; with --keep-distinct (its --keep_distinct) it agrees with ours"
        : "";
      return `the official evaluator removes DISTINCT from both queries (also inside COUNT(DISTINCT ...))${flag}`;
    }
  }
  if (rest !== "") {
    if (rules.firstStatementOnly) {
      const all = await scoreSpiderBy(own, { ...single, firstStatementOnly: false });
      if (all.correct !== official) {
        return `the official evaluator runs only the first statement of a prediction and drops the rest (${
          JSON.stringify(rest.length > 40 ? `${rest.slice(0, 40)}...` : rest)
        })`;
      }
    } else if (!official) {
      return "with --keep-distinct (its --keep_distinct) the official evaluator runs the whole prediction, and Python's sqlite3 refuses a second statement";
    }
  }
  const q = spiderQueries(input.predicted, input.gold, options);
  const gold = await rowsOf(input, input.gold);
  const predicted = await rowsOf(input, input.predicted);
  if (gold === undefined || predicted === undefined) {
    return `the official evaluator ran a different query (${q.predicted.slice(0, 80)})`;
  }
  if (gold.rows.length > 0 && gold.columns.length !== predicted.columns.length) {
    return `${predicted.columns.length} columns for the gold's ${gold.columns.length}: ours allows extra columns, the official evaluator needs as many`;
  }
  const g = asObjects(gold);
  const p = asObjects(predicted);
  if (q.orderMatters !== ours.ordered) {
    const flipped = compareRows(p, g, { ordered: q.orderMatters, precision: ours.precision });
    if (flipped === official) {
      return q.orderMatters
        ? "row order: the official evaluator counts it because the gold has ORDER BY; this case does not (ordered: false)"
        : "row order: this case counts it (ordered: true); the official evaluator does not, as the gold has no ORDER BY";
    }
  }
  return "values compared exactly: ours treats '3' and 3, NULL and '', and numbers equal to the case's precision as equal; the official evaluator (Python's ==) does not";
}

async function birdReason(
  input: ScoreInput,
  ours: OurComparison,
  official: boolean,
): Promise<string> {
  if (input.predicted.trim() === "") {
    return "unanswered: BIRD's evaluators run a question with no prediction as an empty query, and its no rows are the gold's empty result";
  }
  const r = await birdRows(input);
  if (!r.ok) return r.detail;
  const g = asObjects(r.gold);
  const p = asObjects(r.predicted);
  if (official && !ours.correct) {
    const unique = (x: { columns: readonly string[]; rows: unknown[][] }) => ({
      columns: x.columns,
      rows: [
        ...new Map(x.rows.map((row) => [
          JSON.stringify(row, (_, v) => typeof v === "bigint" ? `${v}n` : v),
          row,
        ])).values(),
      ],
    });
    if (compareRows(unique(p), unique(g), { ordered: false, precision: ours.precision })) {
      return "duplicate rows or row order: BIRD compares sets of rows, where neither counts";
    }
  }
  if (r.gold.columns.length !== r.predicted.columns.length) {
    return `${r.predicted.columns.length} columns for the gold's ${r.gold.columns.length}: ours allows extra columns, BIRD compares whole rows`;
  }
  if (
    !official && ours.correct && birdSetEqual(
      { columns: r.predicted.columns, rows: r.predicted.rows.map((row) => [...row].sort()) },
      { columns: r.gold.columns, rows: r.gold.rows.map((row) => [...row].sort()) },
    )
  ) {
    return "column order: BIRD compares rows as tuples, so the columns must come in the gold's order; ours pairs them by name and values";
  }
  return "values compared exactly: ours treats '3' and 3, NULL and '', and numbers equal to the case's precision as equal; BIRD (Python's ==) does not";
}

/**
 * Why a leaderboard's verdict and ours differ on a question.
 *
 * @param score the leaderboard score (spider, bird-ex; the others are graded,
 * not verdicts), by name (with its default flags) or as the score that was run
 * @param input gold, predicted, execute (and the test suite, for spider)
 * @param ours our verdict and how it compared
 * @param official the leaderboard's verdict
 * @returns one line
 * @example
 * ```ts
 * import { explainDisagreement } from "./disagreement.ts";
 * const execute = (sql: string) =>
 *   sql.includes("b") ? { columns: ["a", "b"], rows: [[1n, 2n]] } : { columns: ["a"], rows: [[1n]] };
 * await explainDisagreement("spider", { gold: "SELECT a FROM t", predicted: "SELECT a, b FROM t", execute },
 *   { correct: true, ordered: false, precision: 2 }, false);
 * // "2 columns for the gold's 1: ours allows extra columns, the official evaluator needs as many"
 * ```
 */
export function explainDisagreement(
  score: ScoreName | Score,
  input: ScoreInput,
  ours: OurComparison,
  official: boolean,
): Promise<string> {
  const name = typeof score === "string" ? score : score.name;
  const options = typeof score === "object" && "options" in score
    ? (score as { readonly options: SpiderOptions }).options
    : {};
  return name === "spider"
    ? spiderReason(input, ours, official, options)
    : birdReason(input, ours, official);
}
