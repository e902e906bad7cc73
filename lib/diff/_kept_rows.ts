/**
 * Collects row changes for one table: keeps at most `maxRows` of each kind
 * and counts all of them.
 *
 * @module
 */
import type { AddedRow, ChangedRow, RemovedRow, RowCounts } from "./types.ts";

/** The row changes of one table, as the engine collects them. */
export class KeptRows {
  readonly #max: number;
  readonly added: AddedRow[] = [];
  readonly removed: RemovedRow[] = [];
  readonly changed: ChangedRow[] = [];
  readonly counts = { added: 0, removed: 0, changed: 0 };

  /** @param maxRows most rows kept per kind */
  constructor(maxRows: number) {
    this.#max = maxRows;
  }

  /** Most rows kept per kind. */
  get max(): number {
    return this.#max;
  }

  /** Whether one more row of `kind` would be kept (count it either way). */
  wants(kind: keyof RowCounts): boolean {
    return this.counts[kind] < this.#max;
  }

  /** True when some counted row changes were not kept. */
  get truncated(): boolean {
    return this.counts.added > this.added.length ||
      this.counts.removed > this.removed.length ||
      this.counts.changed > this.changed.length;
  }
}
