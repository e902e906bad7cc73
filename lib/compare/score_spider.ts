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
 *   are equal whatever their columns;
 * - with a test suite (several `.sqlite` files in the question's database
 *   folder, as Spider's published test suites have), the prediction must
 *   match the gold on every one of them.
 *
 * @module
 */
import { removeDistinct } from "./_sqlparse_words.ts";
import { type Mismatch, spiderResultEq } from "./_python_result_eq.ts";
import { errorText, meanPercent, type Score, type ScoreInput, type ScoreOutcome } from "./score.ts";
import type { StoredExecutor, StoredRows, StoredValue } from "./stored.ts";

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
 * The official evaluator's rules one at a time, so that a disagreement can
 * be explained by turning one off ({@link SpiderOptions} sets them together,
 * as the evaluator's flags do).
 */
export interface SpiderRules {
  /** Remove every DISTINCT token (off under --keep_distinct). */
  readonly removeDistinct: boolean;
  /** Keep only the first statement (off under --keep_distinct). */
  readonly firstStatementOnly: boolean;
  /** Score on every database of the test suite, not only the question's own. */
  readonly testSuite: boolean;
}

/**
 * The rules of a run of the official evaluator with these flags.
 *
 * @param options keepDistinct
 * @returns the rules
 */
export function spiderRules(options: SpiderOptions = {}): SpiderRules {
  const keep = options.keepDistinct === true;
  return { removeDistinct: !keep, firstStatementOnly: !keep, testSuite: true };
}

function queriesBy(predicted: string, gold: string, rules: SpiderRules): SpiderQueries {
  let p = postprocess(predicted.trim().split("\t")[0]!.replaceAll("value", "1"));
  let g = postprocess(gold);
  if (rules.removeDistinct || rules.firstStatementOnly) {
    const remove = { distinct: rules.removeDistinct, laterStatements: rules.firstStatementOnly };
    p = removeDistinct(p, remove);
    g = removeDistinct(g, remove);
  }
  return {
    gold: g.replace(CUR_YEAR, "2020"),
    predicted: p.replace(CUR_YEAR, "2020"),
    orderMatters: g.toLowerCase().includes("order by"),
  };
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
  return queriesBy(predicted, gold, spiderRules(options));
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

/** One database's outcome: null when the prediction matches the gold there. */
async function scoreOn(
  execute: StoredExecutor,
  q: SpiderQueries,
): Promise<{ readonly detail: string; readonly goldError?: string } | null> {
  let gold: StoredRows;
  try {
    gold = pythonText(await execute(q.gold));
  } catch (e) {
    const message = errorText(e);
    return { detail: `the gold failed: ${message}`, goldError: message };
  }
  let predicted: StoredRows;
  try {
    predicted = pythonText(await execute(q.predicted));
  } catch (e) {
    return { detail: `the prediction failed: ${errorText(e)}` };
  }
  const mismatch = spiderResultEq(gold, predicted, q.orderMatters);
  return mismatch === null ? null : { detail: MISMATCH[mismatch] };
}

/**
 * Scores one question as test-suite-sql-eval does: on the question's
 * database and, with a test suite ({@link ScoreInput.testSuite}), on every
 * one of its databases, stopping at the first where the prediction is
 * wrong, as the evaluator does.
 *
 * @param input gold, predicted, execute, testSuite
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
export function scoreSpider(
  input: ScoreInput,
  options: SpiderOptions = {},
): Promise<ScoreOutcome> {
  return scoreSpiderBy(input, spiderRules(options));
}

/**
 * {@link scoreSpider} with the official evaluator's rules chosen one by one
 * (to explain a disagreement).
 *
 * @param input gold, predicted, execute, testSuite
 * @param rules the rules
 * @returns the outcome
 */
export async function scoreSpiderBy(input: ScoreInput, rules: SpiderRules): Promise<ScoreOutcome> {
  // The official evaluator reads no empty line as a prediction (a blank line
  // ends a session there), so an empty prediction is no answer.
  if (input.predicted.trim() === "") {
    return { value: 0, correct: false, detail: "the agent gave no SQL" };
  }
  const q = queriesBy(input.predicted, input.gold, rules);
  const suite = rules.testSuite ? input.testSuite ?? [] : [];
  const databases = [{ name: "", execute: input.execute }, ...suite];
  for (const [i, d] of databases.entries()) {
    const wrong = await scoreOn(d.execute, q);
    if (wrong === null) continue;
    const where = i === 0 ? "" : ` on ${d.name}`;
    const detail = `${wrong.detail}${where}`;
    return wrong.goldError === undefined
      ? { value: 0, correct: false, detail }
      : { value: 0, correct: false, detail, goldError: `${wrong.goldError}${where}` };
  }
  return {
    value: 1,
    correct: true,
    detail: databases.length === 1
      ? "the same rows"
      : `the same rows on all ${databases.length} databases of the test suite`,
  };
}

/**
 * A Spider score: the official evaluator run with these flags.
 *
 * @example
 * ```ts
 * import { spiderScore, type SpiderScore } from "./score_spider.ts";
 * const score: SpiderScore = spiderScore({ keepDistinct: true });
 * score.variant; // "DISTINCT kept (--keep-distinct)"
 * ```
 */
export interface SpiderScore extends Score {
  readonly name: "spider";
  /** The flags it stands for. */
  readonly options: SpiderOptions;
}

/**
 * Spider's execution accuracy (test-suite-sql-eval) with the evaluator's
 * flags: `keepDistinct` is its `--keep_distinct`.
 *
 * @param options keepDistinct
 * @returns the score
 * @example
 * ```ts
 * import { spiderScore } from "./score_spider.ts";
 * const execute = (sql: string) =>
 *   sql.includes("DISTINCT") ? { columns: ["a"], rows: [[1n]] } : { columns: ["a"], rows: [[1n], [1n]] };
 * (await spiderScore({ keepDistinct: true }).score({ gold: "SELECT DISTINCT a FROM t", predicted: "SELECT a FROM t", execute })).correct;
 * // false
 * ```
 */
export function spiderScore(options: SpiderOptions = {}): SpiderScore {
  const keep = options.keepDistinct === true;
  return {
    name: "spider",
    title: `Spider execution accuracy (test-suite-sql-eval${keep ? ", --keep_distinct" : ""})`,
    ...(keep ? { variant: "DISTINCT kept (--keep-distinct)" } : {}),
    testSuites: true,
    options,
    total: meanPercent,
    score: (input) => scoreSpider(input, options),
  };
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
export const SPIDER: SpiderScore = spiderScore();
