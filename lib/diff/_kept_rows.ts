/**
 * Collects row changes for one table: keeps at most `maxRows` of each kind,
 * and rows only while their values fit the byte budget the tables of a
 * database share (`maxBytes`), and counts all of them.
 *
 * @module
 */
import { emptyRow, type SqliteRow, type SqliteValue } from "../sqlite/value.ts";
import { collectGarbage } from "../sqlite/collect_garbage.ts";
import type { RowEvent } from "./listener.ts";
import type { AddedRow, ChangedRow, RemovedRow } from "./types.ts";

/** The bytes kept rows may still hold, shared by the tables of one database. */
export interface ByteBudget {
  left: number;
}

/** About the bytes a value holds in memory (text counted at a byte a character). */
function valueBytes(v: SqliteValue): number {
  if (v === null) return 1;
  if (typeof v === "string") return v.length;
  if (v instanceof Uint8Array) return v.byteLength;
  return 8;
}

function rowBytes(row: SqliteRow | null): number {
  if (row === null) return 0;
  let n = 0;
  for (const k in row) n += k.length + valueBytes(row[k]!);
  return n;
}

/** True when JSON has a literal for `v`: NULL, text, or a finite number other than -0. */
function plainValue(v: SqliteValue): boolean {
  return v === null || typeof v === "string" ||
    (typeof v === "number" && Number.isFinite(v) && !Object.is(v, -0));
}

/** What a change's maker counted while it read the values (see {@link counted}). */
interface Counted {
  readonly bytes: number;
  readonly plain: boolean;
}

const countedChanges = new WeakMap<object, Counted>();

/** How many counted rows go between two nudges of Bun's collector. */
const GC_EVERY_ROWS = 1_000;

/** A row of a change as its maker read it: the values under `names`, in order. */
export interface ReadRow {
  readonly names: readonly string[];
  readonly values: readonly SqliteValue[];
}

/**
 * Counts a change from the values its rows were built of, once, instead of
 * walking the built rows: a wide row is an object in dictionary mode, slow to
 * enumerate. Records its bytes for the budget and whether every value is
 * JSON's own ({@link plainJson}).
 *
 * @param change the change, its rows built from `read`
 * @param read the change's rows (`row`, or `before` and `after`) as read
 * @returns `change`
 */
export function counted<T extends AddedRow | RemovedRow | ChangedRow>(
  change: T,
  read: readonly ReadRow[],
): T {
  const key = change.key;
  let bytes = rowBytes(key);
  let plain = true;
  if (key !== null) { for (const k in key) plain &&= plainValue(key[k]!); }
  for (const { names, values } of read) {
    for (let i = 0; i < names.length; i++) {
      const v = values[i]!;
      bytes += names[i]!.length + valueBytes(v);
      plain &&= plainValue(v);
    }
  }
  countedChanges.set(change, { bytes, plain });
  return change;
}

/**
 * True when `value` is a change whose values are all JSON's own (NULL, text,
 * finite numbers other than -0), so JSON.stringify needs no encoding for it.
 */
export function plainJson(value: unknown): boolean {
  return typeof value === "object" && value !== null &&
    countedChanges.get(value)?.plain === true;
}

function changeBytes(c: AddedRow | RemovedRow | ChangedRow): number {
  const known = countedChanges.get(c);
  if (known !== undefined) return known.bytes;
  return "before" in c
    ? rowBytes(c.key) + rowBytes(c.before) + rowBytes(c.after)
    : rowBytes(c.key) + rowBytes(c.row);
}

/** The row changes of one table, as the engine collects them. */
export class KeptRows {
  readonly #max: number;
  readonly added: AddedRow[] = [];
  readonly removed: RemovedRow[] = [];
  readonly changed: ChangedRow[] = [];
  /** Exact numbers of row changes, and of the cells the changed rows changed. */
  readonly counts = { added: 0, removed: 0, changed: 0, changed_cells: 0 };
  readonly #onRow: ((event: RowEvent) => void) | null;
  readonly #budget: ByteBudget;
  #fold: ((v: SqliteValue) => SqliteValue) | null = null;
  /** Rows counted. */
  #rows = 0;
  /** True when a row was not kept because the byte budget was spent. */
  bytesCut = false;

  /**
   * @param maxRows most rows kept per kind
   * @param onRow called with every row change, kept or not (streamed outputs)
   * @param budget the bytes kept rows may still hold (shared; spent as rows are kept)
   */
  constructor(
    maxRows: number,
    onRow: ((event: RowEvent) => void) | null = null,
    budget: ByteBudget = { left: Infinity },
  ) {
    this.#max = maxRows;
    this.#onRow = onRow;
    this.#budget = budget;
  }

  /** True when every row is wanted (a listener streams them), not only the kept ones. */
  get streaming(): boolean {
    return this.#onRow !== null;
  }

  /**
   * Counts one row change; `make` builds it only when it is kept or streamed,
   * told whether it is to be kept (false: only streamed, then dropped). A
   * changed row says how many of its cells changed (its `changed_columns`),
   * which is counted whether or not the row is built.
   */
  add(
    event: RowEvent["kind"],
    make: (kept: boolean) => AddedRow | RemovedRow | ChangedRow,
    cells = 0,
  ): void {
    let keep = this.counts[event] < this.#max;
    this.counts[event]++;
    this.counts.changed_cells += cells;
    // Bun's collector lets the garbage of row loops pile up: 210,000
    // changed rows of ten million took the binary's peak from about 115 MB
    // with a nudge every thousand rows to 177 MB without (245 MB when every
    // row is also streamed to --sql). See _collect_garbage.ts.
    if (++this.#rows % GC_EVERY_ROWS === 0) collectGarbage(false);
    if (keep && this.#budget.left <= 0) {
      keep = false;
      this.bytesCut = true;
    }
    if (!keep && this.#onRow === null) return;
    const change = this.#fold === null ? make(keep) : this.#folded(make(keep));
    if (keep) {
      const size = changeBytes(change);
      if (size > this.#budget.left) {
        // Once a row does not fit, none after it is kept: the kept rows stay
        // the first ones, as with maxRows.
        this.#budget.left = 0;
        this.bytesCut = true;
        keep = false;
      } else this.#budget.left -= size;
    }
    if (keep) (this[event] as (AddedRow | RemovedRow | ChangedRow)[]).push(change);
    this.#onRow?.({ kind: event, change } as RowEvent);
  }

  /**
   * Passes every value of a row change through `fold` before it is counted
   * or told (the text of a UTF-16 side read from its UTF-8 copy,
   * _utf8_copy.ts).
   *
   * @returns this
   */
  foldingText(fold: (v: SqliteValue) => SqliteValue): KeptRows {
    this.#fold = fold;
    return this;
  }

  #folded(c: AddedRow | RemovedRow | ChangedRow): AddedRow | RemovedRow | ChangedRow {
    const fold = this.#fold!;
    const row = (r: SqliteRow | null): SqliteRow | null => {
      if (r === null) return null;
      const out = emptyRow();
      for (const k of Object.keys(r)) out[k] = fold(r[k]!);
      return out;
    };
    if ("row" in c) return { key: row(c.key), row: row(c.row)! };
    return { ...c, key: row(c.key)!, before: row(c.before)!, after: row(c.after)! };
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
