/**
 * Closed rowid ranges, the unit in which the page and cell comparisons
 * (_residue.ts, _cell_rows.ts) tell the row comparison what to read.
 *
 * @module
 */
import type { RowidRange } from "./table_data.ts";

const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;

/**
 * Closed rowid ranges in ascending order, held as doubles in two typed
 * arrays (16 bytes a range: a 20M-row table can have 100k of them). Bounds
 * are safe integers or, for an open end, -Infinity/Infinity; iteration
 * gives them as int64 bigints. Doubles, not bigints, while walking: Bun's
 * collector let 600k short-lived bigints grow the heap by 60 MB.
 */
export class RowidRanges implements Iterable<RowidRange> {
  #lo = new Float64Array(16);
  #hi = new Float64Array(16);
  #length = 0;

  /** The number of ranges. */
  get length(): number {
    return this.#length;
  }

  /** Adds [lo, hi], merging it into the last range when they touch; `lo` must not decrease. */
  push(lo: number, hi: number): void {
    const n = this.#length;
    if (n > 0 && lo <= this.#hi[n - 1]! + 1) {
      if (hi > this.#hi[n - 1]!) this.#hi[n - 1] = hi;
      return;
    }
    if (n === this.#lo.length) {
      const lo2 = new Float64Array(n * 2);
      const hi2 = new Float64Array(n * 2);
      lo2.set(this.#lo);
      hi2.set(this.#hi);
      this.#lo = lo2;
      this.#hi = hi2;
    }
    this.#lo[n] = lo;
    this.#hi[n] = hi;
    this.#length = n + 1;
  }

  /**
   * Range `i`'s bounds, as safe integers or int64 BigInts for an open end
   * (the two BigInts are made once): what a query binds, without an array
   * and two BigInts per range as iteration makes.
   */
  lo(i: number): number | bigint {
    const x = this.#lo[i]!;
    return x === -Infinity ? MIN : x;
  }

  /** See {@link RowidRanges.lo}. */
  hi(i: number): number | bigint {
    const x = this.#hi[i]!;
    return x === Infinity ? MAX : x;
  }

  *[Symbol.iterator](): Iterator<RowidRange> {
    const int = (x: number): bigint => (x === -Infinity ? MIN : x === Infinity ? MAX : BigInt(x));
    for (let i = 0; i < this.#length; i++) yield [int(this.#lo[i]!), int(this.#hi[i]!)];
  }

  /** The union of two range lists. */
  static union(a: RowidRanges, b: RowidRanges): RowidRanges {
    const out = new RowidRanges();
    let i = 0;
    let j = 0;
    while (i < a.#length || j < b.#length) {
      const fromA = j >= b.#length || (i < a.#length && a.#lo[i]! <= b.#lo[j]!);
      if (fromA) out.push(a.#lo[i]!, a.#hi[i++]!);
      else out.push(b.#lo[j]!, b.#hi[j++]!);
    }
    return out;
  }
}
