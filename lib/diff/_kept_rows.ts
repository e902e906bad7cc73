/**
 * Collects row changes for one table: keeps at most `maxRows` of each kind
 * and counts all of them.
 *
 * @module
 */
import type { RowEvent } from "./listener.ts";
import type { AddedRow, ChangedRow, RemovedRow } from "./types.ts";

/** The row changes of one table, as the engine collects them. */
export class KeptRows {
  readonly #max: number;
  readonly added: AddedRow[] = [];
  readonly removed: RemovedRow[] = [];
  readonly changed: ChangedRow[] = [];
  readonly counts = { added: 0, removed: 0, changed: 0 };
  readonly #onRow: ((event: RowEvent) => void) | null;

  /**
   * @param maxRows most rows kept per kind
   * @param onRow called with every row change, kept or not (streamed outputs)
   */
  constructor(maxRows: number, onRow: ((event: RowEvent) => void) | null = null) {
    this.#max = maxRows;
    this.#onRow = onRow;
  }

  /** True when every row is wanted (a listener streams them), not only the kept ones. */
  get streaming(): boolean {
    return this.#onRow !== null;
  }

  /** Counts one row change; `make` builds it only when it is kept or streamed. */
  add(event: RowEvent["kind"], make: () => AddedRow | RemovedRow | ChangedRow): void {
    const keep = this.counts[event] < this.#max;
    this.counts[event]++;
    if (!keep && this.#onRow === null) return;
    const change = make();
    if (keep) (this[event] as (AddedRow | RemovedRow | ChangedRow)[]).push(change);
    this.#onRow?.({ kind: event, change } as RowEvent);
  }

  /** Most rows kept per kind. */
  get max(): number {
    return this.#max;
  }

  /** True when some counted row changes were not kept. */
  get truncated(): boolean {
    return this.counts.added > this.added.length ||
      this.counts.removed > this.removed.length ||
      this.counts.changed > this.changed.length;
  }
}
