/**
 * What the comparison of a table's pages (_tree_compare.ts) tells the
 * engine's row comparison when the engine diffs the table: which rows can
 * differ (the residue), so that SQLite reads only those.
 *
 * - A table keyed by its rowid: rowid ranges, residue rowids closer than
 *   {@link GAP} to the previous one joining its range (the few identical
 *   rows between cost less in SQL than another range, and pairing by rowid
 *   finds them equal).
 * - Any other rowid table: each side's residue rowids (record matching,
 *   ranges of neighbours only: a row between that matched a row elsewhere
 *   would count twice).
 * - A WITHOUT ROWID table: the key of each residue row, per side.
 *
 * Memory is bounded: beyond {@link MAX_RANGES} ranges or
 * {@link MAX_KEYS} keys a side, the residue is not worth keeping and the
 * whole table is compared.
 *
 * @module
 */
import type { SqliteValue } from "../sqlite/value.ts";
import { type KeyField, KeyOrder } from "../sqlite_format/key_order.ts";
import { Record } from "../sqlite_format/record.ts";
import type { CellStream } from "../sqlite_format/cell_stream.ts";
import { RowidRanges } from "./_rowid_ranges.ts";
import { compareByRecord, compareByRowid, type TreeSide } from "./_tree_compare.ts";

/** Rowids within this of the previous residue rowid join its range (rowid matching). */
const GAP = 16;
/** Beyond this many ranges a side's residue is not worth its memory. */
const MAX_RANGES = 2_000_000;
/** Beyond this many keys a side, a WITHOUT ROWID table is compared whole. */
const MAX_KEYS = 100_000;

/** The rowids that may differ, per side (the same object twice for rowid matching). */
export interface CellResidue {
  readonly before: RowidRanges;
  readonly after: RowidRanges;
}

/** Told each residue row of a WITHOUT ROWID table, as its key's values, in key order per side. */
export type KeySink = (side: "before" | "after", key: readonly SqliteValue[]) => void;

/** What the page comparison learned about one table. */
export interface TablePages {
  /** Every row of the table is the same on both sides. */
  readonly identical: boolean;
  /** Rowid ranges that may differ (re-iterable); null means compare the whole table. */
  readonly ranges: RowidRanges | null;
  /**
   * The rowids of each side that may differ, for a table whose rows pair
   * by their record (no key, or a key that is not the rowid); null when not
   * known. Rows outside them have an identical partner on the other side.
   */
  readonly residue?: CellResidue | null;
  /**
   * For a WITHOUT ROWID table: tells the sink the key of each row that may
   * differ; false when not known, and then every row must be compared.
   */
  readonly residueKeys?: ((sink: KeySink) => boolean) | null;
  /**
   * For a WITHOUT ROWID table: the fields under which the comparison found
   * both sides' trees in key order (key_order.ts), so that SQLite's lookups
   * through them need no second read when its key compares so; null when
   * not known.
   */
  readonly ordered?: readonly KeyField[] | null;
}

/** A residue too scattered to keep. */
class TooScattered extends Error {}

/** Residue rowids of one side, in increasing order, joined into ranges. */
class ResidueRanges {
  readonly ranges = new RowidRanges();
  readonly #gap: number;
  #lo = NaN;
  #hi = NaN;

  constructor(gap: number) {
    this.#gap = gap;
  }

  add(cells: CellStream, n: number): void {
    for (let k = 0; k < n; k++) {
      cells.locate(k);
      const rowid = cells.page!.rowid(cells.index);
      // A rowid beyond 2^53 is no double range bound.
      if (!Number.isSafeInteger(rowid)) throw new TooScattered();
      if (rowid - this.#hi <= this.#gap) {
        this.#hi = rowid;
        continue;
      }
      this.flush();
      this.#lo = this.#hi = rowid;
    }
  }

  flush(): void {
    if (Number.isNaN(this.#lo)) return;
    this.ranges.push(this.#lo, this.#hi);
    this.#lo = this.#hi = NaN;
    if (this.ranges.length > MAX_RANGES) throw new TooScattered();
  }
}

/** Compare the whole table. */
const WHOLE: TablePages = { identical: false, ranges: null };

/**
 * The residue of a table keyed by its rowid.
 *
 * @param a the before tree
 * @param b the after tree
 * @returns what may differ
 */
export async function rowidResidue(a: TreeSide, b: TreeSide): Promise<TablePages> {
  const out = new ResidueRanges(GAP);
  try {
    await compareByRowid(a, b, {
      removed: (x) => out.add(x, 1),
      added: (y) => out.add(y, 1),
      changed: (x) => out.add(x, 1),
    });
    out.flush();
  } catch (e) {
    if (e instanceof TooScattered) return WHOLE;
    throw e;
  }
  return out.ranges.length === 0
    ? { identical: true, ranges: new RowidRanges() }
    : { identical: false, ranges: out.ranges };
}

/**
 * The residue of a rowid table whose rows pair by record.
 *
 * @param a the before tree
 * @param b the after tree
 * @returns what may differ
 */
export async function recordResidue(a: TreeSide, b: TreeSide): Promise<TablePages> {
  const ra = new ResidueRanges(1);
  const rb = new ResidueRanges(1);
  try {
    await compareByRecord(
      a,
      b,
      "table",
      (side, cells, n) => (side === "before" ? ra : rb).add(cells, n),
    );
    ra.flush();
    rb.flush();
  } catch (e) {
    if (e instanceof TooScattered) return WHOLE;
    throw e;
  }
  if (ra.ranges.length + rb.ranges.length === 0) {
    return { identical: true, ranges: new RowidRanges() };
  }
  return { identical: false, ranges: null, residue: { before: ra.ranges, after: rb.ranges } };
}

/**
 * The residue of a WITHOUT ROWID table: the keys of the rows that may
 * differ. Each side's key order is checked as the trees are read, under
 * the order most keys have (every key column BINARY and ascending, the
 * collations not known yet): {@link TablePages.ordered} when both are.
 *
 * @param a the before tree
 * @param b the after tree
 * @param keyColumns how many leading record columns are the key
 * @returns what may differ
 */
export async function keyResidue(
  a: TreeSide,
  b: TreeSide,
  keyColumns: number,
): Promise<TablePages> {
  const keys: { before: SqliteValue[][]; after: SqliteValue[][] } = { before: [], after: [] };
  const record = new Record(a.src.header.encoding);
  const fields: KeyField[] = Array.from(
    { length: keyColumns },
    () => ({ collation: "binary", desc: false }),
  );
  const oa = new KeyOrder(fields, "its key", "note");
  const ob = new KeyOrder(fields, "its key", "note");
  let tooMany = false;
  await compareByRecord({ ...a, order: oa }, { ...b, order: ob }, "index", (side, cells, n) => {
    if (tooMany) return;
    for (let k = 0; k < n; k++) {
      if (keys[side].length >= MAX_KEYS) {
        tooMany = true;
        return;
      }
      cells.locate(k);
      const bytes = cells.payload(k);
      const problem = record.parse(bytes, 0, bytes.length, bytes.length);
      if (problem !== null) {
        throw cells.src.damaged(cells.page!.number, `cell ${cells.index + 1}: ${problem}`);
      }
      const key: SqliteValue[] = [];
      for (let c = 0; c < keyColumns; c++) key.push(record.value(c));
      keys[side].push(key);
    }
  });
  const ordered = oa.inOrder && ob.inOrder ? fields : null;
  if (tooMany) return { ...WHOLE, ordered };
  if (keys.before.length + keys.after.length === 0) {
    return { identical: true, ranges: new RowidRanges(), ordered };
  }
  return {
    identical: false,
    ranges: null,
    residueKeys: (sink) => {
      for (const k of keys.before) sink("before", k);
      for (const k of keys.after) sink("after", k);
      return true;
    },
    ordered,
  };
}
