/**
 * BIRD Mini-Dev's Soft-F1 as its evaluation_f1.py computes it: duplicates
 * dropped (first occurrence kept), then the i-th predicted row is matched
 * with the i-th gold row, value by value (`pred_val in gold_row`), and the
 * partial matches summed into precision and recall. Rows past the shorter
 * result count as wholly missing or wholly extra.
 *
 * @module
 */
import { pyKey, pyRowKey } from "./_python_values.ts";
import { birdRows, noRowsOutcome } from "./_bird_rows.ts";
import { meanPercent, type Score, type ScoreInput, type ScoreOutcome } from "./score.ts";
import type { StoredValue } from "./stored.ts";

type Row = readonly StoredValue[];

function unique(rows: readonly Row[]): Row[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = pyRowKey(r);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * evaluation_f1.py's `calculate_f1_score(predicted, ground_truth)`.
 *
 * @param predicted the predicted rows, in the order the query gave them
 * @param gold the gold rows, likewise
 * @returns the Soft-F1, from 0 to 1
 * @example
 * ```ts
 * import { softF1 } from "./score_bird_f1.ts";
 * softF1([[1n, "a"]], [[1n, "b"]]); // 0.5
 * ```
 */
export function softF1(predicted: readonly Row[], gold: readonly Row[]): number {
  if (predicted.length === 0 && gold.length === 0) return 1;
  const p = unique(predicted);
  const g = unique(gold);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  g.forEach((goldRow, i) => {
    const predRow = p[i];
    if (predRow === undefined) {
      fn += 1;
      return;
    }
    const total = goldRow.length;
    const goldKeys = new Set(goldRow.map(pyKey));
    const predKeys = new Set(predRow.map(pyKey));
    let matches = 0;
    let predOnly = 0;
    for (const v of predRow) {
      if (goldKeys.has(pyKey(v))) matches++;
      else predOnly++;
    }
    let truthOnly = 0;
    for (const v of goldRow) if (!predKeys.has(pyKey(v))) truthOnly++;
    tp += matches / total;
    fp += predOnly / total;
    fn += truthOnly / total;
  });
  for (let i = g.length; i < p.length; i++) fp += 1;
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

/**
 * Scores one question as BIRD's evaluation_f1.py does.
 *
 * @param input gold, predicted, execute
 * @returns the Soft-F1 (correct when 1)
 * @example
 * ```ts
 * import { scoreBirdF1 } from "./score_bird_f1.ts";
 * const execute = (sql: string) => ({ columns: ["a", "b"], rows: [[1n, sql.includes("x") ? "x" : "y"]] });
 * (await scoreBirdF1({ gold: "SELECT 'y'", predicted: "SELECT 'x'", execute })).value; // 0.5
 * ```
 */
export async function scoreBirdF1(input: ScoreInput): Promise<ScoreOutcome> {
  const r = await birdRows(input);
  if (!r.ok) return noRowsOutcome(r);
  const f1 = softF1(r.predicted.rows, r.gold.rows);
  return { value: f1, correct: f1 === 1, detail: `Soft-F1 ${Number(f1.toFixed(4))}` };
}

/**
 * BIRD Mini-Dev's Soft-F1.
 *
 * @example
 * ```ts
 * import { BIRD_F1 } from "./score_bird_f1.ts";
 * BIRD_F1.total([1, 0.5]); // 75
 * ```
 */
export const BIRD_F1: Score = {
  name: "bird-f1",
  title: "BIRD Soft-F1",
  total: meanPercent,
  score: scoreBirdF1,
};
