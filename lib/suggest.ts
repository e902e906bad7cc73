/**
 * "Did you mean": the name closest to a mistyped one, for every error that
 * names an unknown key, option, rule or operator (the selector, the cases
 * file, the config file, `db diff --table`).
 *
 * @module
 */

/**
 * The candidate closest to `word`, when it is close enough to be a typo:
 * at most one edit for short words, two for longer ones (a swap of two
 * neighbouring letters is one edit), or the same word in other case.
 *
 * @param word what was written
 * @param candidates the names it could have meant
 * @returns the closest candidate, or undefined when none is close
 * @example
 * ```ts
 * import { suggest } from "./suggest.ts";
 * suggest("$inn", ["$in", "$not-in"]); // "$in"
 * ```
 */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = candidate.toLowerCase() === word.toLowerCase() ? 0 : editDistance(word, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const limit = word.length <= 4 ? 1 : word.length <= 8 ? 2 : 3;
  return bestDistance <= limit ? best : undefined;
}

/** Optimal string alignment distance: Levenshtein plus adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const prev = rows[i - 1]!;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      }
      row.push(d);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
