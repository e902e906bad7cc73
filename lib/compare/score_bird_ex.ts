/**
 * BIRD's execution accuracy as its evaluation_ex.py computes it:
 * `set(predicted_rows) == set(gold_rows)`. Duplicates and row order never
 * count; a prediction that fails scores 0; values compare with Python's
 * `==` (`'3'` is not `3`, `3` is `3.0`).
 *
 * @module
 */
import { pyRowKey } from "./_python_values.ts";
import { birdRows, noRowsOutcome } from "./_bird_rows.ts";
import { meanPercent, type Score, type ScoreInput, type ScoreOutcome } from "./score.ts";
import type { StoredRows } from "./stored.ts";

/**
 * `set(predicted) == set(gold)`.
 *
 * @param predicted the predicted rows
 * @param gold the gold rows
 * @returns whether the sets of rows are equal
 * @example
 * ```ts
 * import { birdSetEqual } from "./score_bird_ex.ts";
 * birdSetEqual({ columns: ["a"], rows: [[1n], [1n]] }, { columns: ["a"], rows: [[1]] }); // true
 * ```
 */
export function birdSetEqual(predicted: StoredRows, gold: StoredRows): boolean {
  const p = new Set(predicted.rows.map(pyRowKey));
  const g = new Set(gold.rows.map(pyRowKey));
  return p.size === g.size && [...p].every((k) => g.has(k));
}

/**
 * Scores one question as BIRD's evaluation_ex.py does.
 *
 * @param input gold, predicted, execute
 * @returns 1 when the sets of rows are equal, else 0
 * @example
 * ```ts
 * import { scoreBirdEx } from "./score_bird_ex.ts";
 * const execute = () => ({ columns: ["a"], rows: [[1n]] });
 * (await scoreBirdEx({ gold: "SELECT 1", predicted: "SELECT 1", execute })).value; // 1
 * ```
 */
export async function scoreBirdEx(input: ScoreInput): Promise<ScoreOutcome> {
  const r = await birdRows(input);
  if (!r.ok) return noRowsOutcome(r);
  return birdSetEqual(r.predicted, r.gold)
    ? { value: 1, correct: true, detail: "the same set of rows" }
    : { value: 0, correct: false, detail: "a different set of rows" };
}

/**
 * BIRD's execution accuracy (EX).
 *
 * @example
 * ```ts
 * import { BIRD_EX } from "./score_bird_ex.ts";
 * BIRD_EX.total([1, 0]); // 50
 * ```
 */
export const BIRD_EX: Score = {
  name: "bird-ex",
  title: "BIRD execution accuracy (EX)",
  total: meanPercent,
  score: scoreBirdEx,
};
