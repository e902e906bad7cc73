/**
 * A seeded random number generator (mulberry32): the search is the same for
 * the same seed, on every platform. The seeded tests draw from the same
 * generator, so a failure replays from its seed on Deno and Bun alike.
 *
 * @module
 */

/**
 * The mulberry32 generator: floats in [0, 1), the same stream for the same
 * seed on every runtime.
 *
 * @example
 * ```ts
 * import { mulberry32 } from "./random.ts";
 * const a = mulberry32(7);
 * const b = mulberry32(7);
 * const x = a();
 * if (x !== b() || x < 0 || x >= 1) throw new Error("not one seeded stream");
 * ```
 *
 * @param seed any integer (taken modulo 2^32)
 * @returns the next float in [0, 1) at each call
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random choices from one seed. */
export class Random {
  #next: () => number;

  /** @param seed any integer */
  constructor(seed: number) {
    this.#next = mulberry32((seed >>> 0) ^ 0x9e3779b9);
  }

  /** @returns a float in [0, 1) */
  next(): number {
    return this.#next();
  }

  /** @returns an integer in [min, max] */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** @returns true with probability p */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** @returns one element of a non-empty list */
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }

  /** @returns up to n distinct elements, in list order */
  sample<T>(list: readonly T[], n: number): T[] {
    if (n >= list.length) return [...list];
    const chosen = new Set<number>();
    while (chosen.size < n) chosen.add(Math.floor(this.next() * list.length));
    return [...chosen].sort((a, b) => a - b).map((i) => list[i]!);
  }
}
