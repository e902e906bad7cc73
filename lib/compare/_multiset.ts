/**
 * Whether two lists of keys hold the same keys the same number of times,
 * whatever their order: the comparison of unordered rows that the row
 * comparison and the leaderboards' scores share.
 *
 * @module
 */

/**
 * @param a keys (rows as strings)
 * @param b keys
 * @returns true when each key occurs as often in `a` as in `b`
 */
export function sameMultiset(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const counts = new Map<string, number>();
  for (const k of a) counts.set(k, (counts.get(k) ?? 0) + 1);
  for (const k of b) {
    const c = counts.get(k);
    if (c === undefined || c === 0) return false;
    counts.set(k, c - 1);
  }
  return true;
}
