/**
 * pass@k and pass^k of a case run n times with c passes: the chance that at
 * least one, or every one, of k attempts drawn without replacement from the
 * n passes.
 *
 * @module
 */

/** C(n, k) as a float, by the product formula (exact for the sizes repeats use). */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

function check(n: number, c: number, k: number): void {
  if (![n, c, k].every(Number.isInteger) || n < 1 || c < 0 || c > n || k < 1 || k > n) {
    throw new RangeError(
      `pass@k needs whole numbers 0 <= c <= n and 1 <= k <= n, got n=${n} c=${c} k=${k}`,
    );
  }
}

/**
 * pass@k = 1 - C(n-c, k) / C(n, k): the chance that at least one of k
 * attempts, drawn from the n made, passed.
 *
 * @param n attempts made
 * @param c attempts that passed
 * @param k attempts drawn
 * @returns a number from 0 to 1
 * @throws {RangeError} unless 0 <= c <= n and 1 <= k <= n
 * @example
 * ```ts
 * import { passAtK } from "../../mod.ts";
 * passAtK(5, 2, 1); // 0.4
 * passAtK(5, 2, 3); // 0.9
 * ```
 */
export function passAtK(n: number, c: number, k: number): number {
  check(n, c, k);
  return 1 - choose(n - c, k) / choose(n, k);
}

/**
 * pass^k = C(c, k) / C(n, k): the chance that all of k attempts, drawn from
 * the n made, passed (how reliably the agent gets it right every time).
 *
 * @param n attempts made
 * @param c attempts that passed
 * @param k attempts drawn
 * @returns a number from 0 to 1
 * @throws {RangeError} unless 0 <= c <= n and 1 <= k <= n
 * @example
 * ```ts
 * import { passHatK } from "../../mod.ts";
 * passHatK(5, 4, 2); // 0.6
 * ```
 */
export function passHatK(n: number, c: number, k: number): number {
  check(n, c, k);
  return choose(c, k) / choose(n, k);
}
