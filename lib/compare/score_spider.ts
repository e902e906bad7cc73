/**
 * Spider's execution accuracy as `test-suite-sql-eval` (evaluation.py
 * `--etype exec`, exec_eval.py) decides it, question by question:
 *
 * - the prediction line is stripped and cut at its first TAB, and every
 *   `value` in it becomes `1`;
 * - `> =`, `< =` and `! =` lose their space, in both queries;
 * - every DISTINCT token is removed from both queries, also inside
 *   `COUNT(DISTINCT ...)`, unless `keepDistinct` (its `--keep_distinct`),
 *   and only the first statement is kept;
 * - `YEAR(CURDATE())` becomes 2020;
 * - row order counts only when the gold (after that) contains `order by`;
 * - the results must have as many rows and columns; the predicted columns
 *   may be in any order; values compare with Python's `==` (`'3'` is not
 *   `3`, `3` is `3.0`, no rounding, NULL is not `''`); two empty results
 *   are equal whatever their columns.
 *
 * @module
 */
import { removeDistinct } from "./_sqlparse_words.ts";
import { type Mismatch, spiderResultEq } from "./_python_result_eq.ts";
import { errorText, meanPercent, type Score, type ScoreInput, type ScoreOutcome } from "./score.ts";
import type { StoredRows, StoredValue } from "./stored.ts";

/**
 * How the official evaluator was run.
 *
 * @example
 * ```ts
 * import type { SpiderOptions } from "./score_spider.ts";
 * const options: SpiderOptions = { keepDistinct: true };
 * ```
 */
export interface SpiderOptions {
  /** Its `--keep_distinct`: keep DISTINCT (and every statement). Default false. */
  readonly keepDistinct?: boolean | undefined;
}

/**
 * The two queries as the official evaluator runs them.
 *
 * @example
 * ```ts
 * import { spiderQueries } from "./score_spider.ts";
 * spiderQueries("SELECT DISTINCT name FROM t\tconcert_singer", "SELECT count(DISTINCT a) FROM t").predicted;
 * // "SELECT  name FROM t"
 * ```
 */
export interface SpiderQueries {
  readonly gold: string;
  readonly predicted: string;
  /** The gold contains `order by`: row order counts. */
  readonly orderMatters: boolean;
}

const CUR_YEAR = /YEAR\s*\(\s*CURDATE\s*\(\s*\)\s*\)\s*/gi;

function postprocess(sql: string): string {
  return sql.replaceAll("> =", ">=").replaceAll("< =", "<=").replaceAll("! =", "!=");
}

/**
 * The gold and the predicted SQL as test-suite-sql-eval runs them.
 *
 * @param predicted the prediction line (or SQL)
 * @param gold the gold SQL (without its TAB and db_id)
 * @param options keepDistinct
 * @returns the queries and whether row order counts
 */
export function spiderQueries(
  predicted: string,
  gold: string,
  options: SpiderOptions = {},
): SpiderQueries {
  let p = postprocess(predicted.trim().split("\t")[0]!.replaceAll("value", "1"));
  let g = postprocess(gold);
  if (options.keepDistinct !== true) {
    p = removeDistinct(p);
    g = removeDistinct(g);
  }
  return {
    gold: g.replace(CUR_YEAR, "2020"),
    predicted: p.replace(CUR_YEAR, "2020"),
    orderMatters: g.toLowerCase().includes("order by"),
  };
}

/** Python's sqlite3 as the evaluator sets it up decodes TEXT ignoring bytes that are not UTF-8. */
function pythonText(rows: StoredRows): StoredRows {
  const escaped = /(?<![\ud800-\udbff])[\udc80-\udcff]/g;
  const fix = (v: StoredValue): StoredValue => typeof v === "string" ? v.replace(escaped, "") : v;
  return { columns: rows.columns, rows: rows.rows.map((r) => r.map(fix)) };
}

const MISMATCH: Record<Mismatch, string> = {
  "row count": "a different number of rows",
  "column count": "a different number of columns",
  "values": "different values",
  "row order": "the same rows in another order (the gold has ORDER BY)",
};

/**
 * Scores one question as test-suite-sql-eval does.
 *
 * @param input gold, predicted, execute
 * @param options keepDistinct
 * @returns 1 when the official evaluator counts it right, else 0
 * @example
 * ```ts
 * import { scoreSpider } from "./score_spider.ts";
 * const execute = (sql: string) =>
 *   sql.includes("DISTINCT") ? { columns: ["a"], rows: [[1n]] } : { columns: ["a"], rows: [[1n], [1n]] };
 * (await scoreSpider({ gold: "SELECT DISTINCT a FROM t", predicted: "SELECT a FROM t", execute })).correct;
 * // true: DISTINCT is removed from the gold too
 * ```
 */
export async function scoreSpider(
  input: ScoreInput,
  options: SpiderOptions = {},
): Promise<ScoreOutcome> {
  // The official evaluator reads no empty line as a prediction (a blank line
  // ends a session there), so an empty prediction is no answer.
  if (input.predicted.trim() === "") {
    return { value: 0, correct: false, detail: "the agent gave no SQL" };
  }
  const q = spiderQueries(input.predicted, input.gold, options);
  let gold: StoredRows;
  try {
    gold = pythonText(await input.execute(q.gold));
  } catch (e) {
    const message = errorText(e);
    return { value: 0, correct: false, detail: `the gold failed: ${message}`, goldError: message };
  }
  let predicted: StoredRows;
  try {
    predicted = pythonText(await input.execute(q.predicted));
  } catch (e) {
    return { value: 0, correct: false, detail: `the prediction failed: ${errorText(e)}` };
  }
  const mismatch = spiderResultEq(gold, predicted, q.orderMatters);
  if (mismatch === null) return { value: 1, correct: true, detail: "the same rows" };
  return { value: 0, correct: false, detail: MISMATCH[mismatch] };
}

/**
 * Spider's execution accuracy (test-suite-sql-eval, default flags).
 *
 * @example
 * ```ts
 * import { SPIDER } from "./score_spider.ts";
 * SPIDER.total([1, 0, 1, 1]); // 75
 * ```
 */
export const SPIDER: Score = {
  name: "spider",
  title: "Spider execution accuracy (test-suite-sql-eval)",
  total: meanPercent,
  score: (input) => scoreSpider(input),
};
