/**
 * What BIRD's evaluation scripts (evaluation_utils.py) do before they
 * compare: run the predicted SQL, then the gold, on one Python sqlite3
 * connection with its default text decoding, and fetch every row.
 *
 * @module
 */
import { errorText, type ScoreInput, type ScoreOutcome } from "./score.ts";
import type { StoredRows } from "./stored.ts";

/** Both results, or why there are none (the scripts then give the question 0). */
export type BirdRows =
  | { readonly ok: true; readonly predicted: StoredRows; readonly gold: StoredRows }
  | { readonly ok: false; readonly detail: string; readonly goldError?: string };

const ESCAPED = /(?<![\ud800-\udbff])[\udc80-\udcff]/;

/** Python's sqlite3 refuses TEXT that is not UTF-8 ("Could not decode to UTF-8"). */
function undecodable(rows: StoredRows): boolean {
  return rows.rows.some((r) => r.some((v) => typeof v === "string" && ESCAPED.test(v)));
}

/**
 * Runs both queries as BIRD's scripts do.
 *
 * @param input gold, predicted, execute
 * @returns the rows, or why the question scores 0
 */
export async function birdRows(input: ScoreInput): Promise<BirdRows> {
  let predicted: StoredRows;
  try {
    predicted = await input.execute(input.predicted);
  } catch (e) {
    return { ok: false, detail: `the prediction failed: ${errorText(e)}` };
  }
  let gold: StoredRows;
  try {
    gold = await input.execute(input.gold);
  } catch (e) {
    const message = errorText(e);
    return { ok: false, detail: `the gold failed: ${message}`, goldError: message };
  }
  if (undecodable(predicted) || undecodable(gold)) {
    return { ok: false, detail: "a TEXT value is not UTF-8 (Python's sqlite3 cannot decode it)" };
  }
  return { ok: true, predicted, gold };
}

/**
 * The outcome of a question whose rows could not be had: 0, with why.
 *
 * @param r the failed {@link birdRows}
 * @returns the question's outcome, naming a failing gold
 */
export function noRowsOutcome(
  r: { readonly detail: string; readonly goldError?: string },
): ScoreOutcome {
  return {
    value: 0,
    correct: false,
    detail: r.detail,
    ...(r.goldError === undefined ? {} : { goldError: r.goldError }),
  };
}
