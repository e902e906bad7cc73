/**
 * The second step of skipping what is identical, below the page: the cells
 * of a table's changed leaf pages are compared byte for byte, in JavaScript,
 * before any row goes through SQLite. Only the rows this finds different
 * (the residue) are then compared in SQL.
 *
 * Why: the page comparison (page_plan.ts) skips clean leaves, but one
 * changed row in every leaf (1% of rows updated, scattered) leaves every
 * leaf dirty, and the SQL comparison then probes the other side's b-tree
 * once per row. Reading the two sides' leaves in order and comparing their
 * cells is a merge, not a probe per row, and needs no SQLite at all.
 *
 * Two ways to match cells:
 * - `rowid` (tables keyed by their rowid): a cell is the same row when the
 *   other side has a cell with the same rowid and the same record bytes.
 *   The residue is one set of rowids, for both sides.
 * - `record` (tables without a key, and rowid tables keyed by other
 *   columns): a cell is the same row when its record bytes equal a cell of
 *   the other side, wherever it is. The record holds every column, the key
 *   included, so equal records are equal rows with equal keys; cancelling
 *   them in pairs leaves the multiset difference alone. The two sides are
 *   walked in step, and after a mismatch the next {@link LOOKAHEAD} cells of
 *   each side are tried, so a deleted or inserted row, or every row moved by
 *   one after a `VACUUM`, costs one residue row and not the rest of the
 *   table. Each side gets its own residue of rowids.
 *
 * Records are compared as bytes, so a residue row may still be equal to its
 * partner (an integer written in more bytes than needed, 1 and 1.0): the SQL
 * comparison decides. A cell whose record spills to overflow pages never
 * matches (its overflow pages are not read): it is always residue.
 *
 * Only clean leaves are left out, and a clean leaf holds the same rows on
 * both sides, so the cells of the other leaves are all the rows that can
 * differ (see page_plan.ts).
 *
 * @module
 */
import * as fs from "node:fs";
import { RowidRanges } from "./_rowid_ranges.ts";

/** How cells pair (see the module documentation). */
export type CellMatch = "rowid" | "record";

/** The rowids that may differ, per side (the same object twice for `rowid`). */
export interface CellResidue {
  readonly before: RowidRanges;
  readonly after: RowidRanges;
}

/** One side: its file and its non-clean leaves, in key order. */
export interface LeafSide {
  readonly fd: number;
  readonly leaves: readonly number[];
}

/** Cells tried on each side after a mismatch, in `record` matching. */
export const LOOKAHEAD = 4;

/**
 * With `rowid` matching, residue rowids closer than this to the previous one
 * join its range: the few identical rows between them cost less in SQL than
 * another range, and pairing by rowid finds them equal. Not with `record`
 * matching: a row between that matched a row elsewhere would count twice.
 */
const GAP = 16;

/** Beyond this many ranges a side's residue is not worth its memory. */
const MAX_RANGES = 2_000_000;

/** Pages read at once when leaves are consecutive in the file. */
const RUN = 64;

/**
 * Read buffers per side, reused in turn. The cells in view (the current one
 * and {@link LOOKAHEAD} more) lie on at most LOOKAHEAD + 1 leaves, so on at
 * most that many reads: a buffer is read into again only after all of them.
 */
const RING = LOOKAHEAD + 3;

const TABLE_LEAF = 0x0d;

/** A cell or page that is not what a table leaf should hold. */
class Unusable extends Error {}

/** The decoded cells of one leaf page (reused for a later leaf, see {@link RING}). */
interface Leaf {
  page: Uint8Array;
  count: number;
  /** Offset of each cell's record in `page`. */
  readonly start: Int32Array;
  /** Record length (local bytes), or -1 when it spills to overflow pages. */
  readonly length: Int32Array;
  readonly rowid: Float64Array;
}

function emptyLeaf(pageSize: number): Leaf {
  // A cell takes at least 4 bytes: its pointer, two varints and a record header.
  const cells = Math.ceil(pageSize / 4);
  return {
    page: new Uint8Array(0),
    count: 0,
    start: new Int32Array(cells),
    length: new Int32Array(cells),
    rowid: new Float64Array(cells),
  };
}

/** Reads a side's leaves in order, several consecutive pages per read. */
class LeafReader {
  readonly #fd: number;
  readonly #leaves: readonly number[];
  readonly #pageSize: number;
  readonly #usable: number;
  #next = 0;
  #run: Uint8Array = new Uint8Array(0);
  #runFirst = 0;
  #runCount = 0;
  /** Buffers and decoded leaves reused in turn (see {@link RING}). */
  readonly #ring: Uint8Array[] = [];
  #turn = 0;
  readonly #decoded: Leaf[] = [];
  #decodes = 0;

  constructor(side: LeafSide, pageSize: number, usable: number) {
    this.#fd = side.fd;
    this.#leaves = side.leaves;
    this.#pageSize = pageSize;
    this.#usable = usable;
  }

  /** The next leaf, decoded, or null after the last. */
  next(): Leaf | null {
    if (this.#next >= this.#leaves.length) return null;
    const n = this.#leaves[this.#next++]!;
    if (n < this.#runFirst || n >= this.#runFirst + this.#runCount) this.#read(this.#next - 1);
    const at = (n - this.#runFirst) * this.#pageSize;
    const slot = this.#decodes++ % RING;
    const leaf = this.#decoded[slot] ??= emptyLeaf(this.#pageSize);
    decodeLeaf(this.#run.subarray(at, at + this.#pageSize), this.#usable, leaf);
    return leaf;
  }

  /** Reads the run of consecutive pages that starts at leaf index `i`. */
  #read(i: number): void {
    const first = this.#leaves[i]!;
    let count = 1;
    while (
      count < RUN && i + count < this.#leaves.length && this.#leaves[i + count] === first + count
    ) count++;
    // Earlier leaves may still be looked at: each read takes the next buffer
    // of a ring longer than the lookahead can reach back.
    const slot = this.#turn++ % RING;
    this.#ring[slot] ??= new Uint8Array(RUN * this.#pageSize);
    const buf = this.#ring[slot]!.subarray(0, count * this.#pageSize);
    const got = fs.readSync(this.#fd, buf, 0, buf.length, (first - 1) * this.#pageSize);
    if (got !== buf.length) throw new Unusable();
    this.#run = buf;
    this.#runFirst = first;
    this.#runCount = count;
  }
}

/** Decodes table leaf `page` into `out`. */
function decodeLeaf(page: Uint8Array, usable: number, out: Leaf): void {
  if (page[0] !== TABLE_LEAF) throw new Unusable();
  const count = (page[3]! << 8) | page[4]!;
  const { start, length, rowid } = out;
  if (count > start.length) throw new Unusable();
  out.page = page;
  out.count = count;
  const maxLocal = usable - 35;
  for (let i = 0; i < count; i++) {
    let at = (page[8 + 2 * i]! << 8) | page[9 + 2 * i]!;
    if (at < 8 || at >= usable) throw new Unusable();
    // Payload size, then rowid: varints (the rowid is signed, 64 bits).
    let size = 0;
    for (let k = 0;; k++) {
      const b = page[at++]!;
      if (k === 8) throw new Unusable();
      size = size * 128 + (b & 0x7f);
      if ((b & 0x80) === 0) break;
    }
    let id = 0;
    for (let k = 0;; k++) {
      const b = page[at++]!;
      // Nine bytes: negative or beyond 2^53, not kept as a double.
      if (k === 8) throw new Unusable();
      id = id * 128 + (b & 0x7f);
      if ((b & 0x80) === 0) break;
    }
    if (id > Number.MAX_SAFE_INTEGER) throw new Unusable();
    start[i] = at;
    rowid[i] = id;
    if (size <= maxLocal) {
      if (at + size > usable) throw new Unusable();
      length[i] = size;
    } else length[i] = -1;
  }
  // A table leaf's cells are in rowid order.
  for (let i = 1; i < count; i++) if (rowid[i]! <= rowid[i - 1]!) throw new Unusable();
}

/** A side's cells in key order, with a few cells of lookahead. */
class Cells {
  readonly #reader: LeafReader;
  /** Leaves from the current one on (more only while looking ahead). */
  readonly #leaves: Leaf[] = [];
  /** The current cell's index in the first leaf. */
  #at = 0;
  /** Where the last {@link Cells.locate} found its cell. */
  leaf: Leaf | null = null;
  index = 0;

  constructor(reader: LeafReader) {
    this.#reader = reader;
    this.#fill();
  }

  /** Whether there is a cell `d` cells ahead of the current one. */
  has(d: number): boolean {
    return this.locate(d);
  }

  /** The rowid of the cell `d` ahead (it must exist). */
  rowid(d: number): number {
    this.locate(d);
    return this.leaf!.rowid[this.index]!;
  }

  /** Whether the cell `d` ahead here equals the cell `e` ahead in `other`, byte for byte. */
  same(d: number, other: Cells, e: number): boolean {
    this.locate(d);
    other.locate(e);
    const x = this.leaf!;
    const y = other.leaf!;
    const i = this.index;
    const j = other.index;
    const n = x.length[i]!;
    if (n < 0 || n !== y.length[j]!) return false;
    const p = x.page;
    const q = y.page;
    let a = x.start[i]!;
    let b = y.start[j]!;
    const end = a + n;
    while (a < end) if (p[a++] !== q[b++]) return false;
    return true;
  }

  /** Moves `n` cells on. */
  skip(n: number): void {
    this.#at += n;
    while (this.#leaves.length > 0 && this.#at >= this.#leaves[0]!.count) {
      this.#at -= this.#leaves[0]!.count;
      this.#leaves.shift();
      if (this.#leaves.length === 0) this.#fill();
    }
  }

  /** Points {@link leaf} and {@link index} at the cell `d` ahead; false when there is none. */
  locate(d: number): boolean {
    let i = this.#at + d;
    for (let k = 0;; k++) {
      if (k >= this.#leaves.length && !this.#fill()) return false;
      const leaf = this.#leaves[k]!;
      if (i < leaf.count) {
        this.leaf = leaf;
        this.index = i;
        return true;
      }
      i -= leaf.count;
    }
  }

  /** Appends the next non-empty leaf; false after the last. */
  #fill(): boolean {
    for (;;) {
      const leaf = this.#reader.next();
      if (leaf === null) return false;
      if (leaf.count === 0) continue;
      this.#leaves.push(leaf);
      return true;
    }
  }
}

/** Residue rowids of one side, in increasing order, joined into ranges. */
class ResidueRanges {
  readonly ranges = new RowidRanges();
  readonly #gap: number;
  #lo = NaN;
  #hi = NaN;

  /**
   * @param gap how far a rowid may be from the last range to join it: 1
   * joins only neighbours; more brings in rows between that matched
   */
  constructor(gap: number) {
    this.#gap = gap;
  }

  add(rowid: number): void {
    if (rowid - this.#hi <= this.#gap) {
      this.#hi = rowid;
      return;
    }
    this.flush();
    this.#lo = this.#hi = rowid;
  }

  flush(): void {
    if (Number.isNaN(this.#lo)) return;
    this.ranges.push(this.#lo, this.#hi);
    this.#lo = this.#hi = NaN;
    if (this.ranges.length > MAX_RANGES) throw new Unusable();
  }
}

/**
 * Compares the cells of the non-clean leaves of one table's two sides.
 *
 * @param sides each side's file and leaves (table b-tree leaves, in key order)
 * @param page the page size and the usable bytes of a page (less reserved bytes)
 * @param match how cells pair
 * @returns the rowids that may differ, or null when a page is not a table
 * leaf as expected (corrupt, or changed under us), a rowid is beyond 2^53,
 * or the residue is too scattered to be worth keeping: compare by page then
 */
export function compareCells(
  sides: { readonly before: LeafSide; readonly after: LeafSide },
  page: { readonly size: number; readonly usable: number },
  match: CellMatch,
): CellResidue | null {
  try {
    const a = new Cells(new LeafReader(sides.before, page.size, page.usable));
    const b = new Cells(new LeafReader(sides.after, page.size, page.usable));
    return match === "rowid" ? byRowid(a, b) : byRecord(a, b);
  } catch (e) {
    if (e instanceof Unusable || e instanceof RangeError) return null;
    throw e;
  }
}

function byRowid(a: Cells, b: Cells): CellResidue {
  const out = new ResidueRanges(GAP);
  while (a.has(0) && b.has(0)) {
    const x = a.rowid(0);
    const y = b.rowid(0);
    if (x < y) {
      out.add(x);
      a.skip(1);
    } else if (y < x) {
      out.add(y);
      b.skip(1);
    } else {
      if (!a.same(0, b, 0)) out.add(x);
      a.skip(1);
      b.skip(1);
    }
  }
  for (const rest of [a, b]) {
    while (rest.has(0)) {
      out.add(rest.rowid(0));
      rest.skip(1);
    }
  }
  out.flush();
  return { before: out.ranges, after: out.ranges };
}

function byRecord(a: Cells, b: Cells): CellResidue {
  const ra = new ResidueRanges(1);
  const rb = new ResidueRanges(1);
  // Residue rowids of each side come in increasing order, as `add` needs.
  const drop = (cells: Cells, out: ResidueRanges, n: number): void => {
    for (let k = 0; k < n; k++) out.add(cells.rowid(k));
    cells.skip(n);
  };
  while (a.has(0) && b.has(0)) {
    if (a.same(0, b, 0)) {
      a.skip(1);
      b.skip(1);
      continue;
    }
    let resynced = false;
    for (let d = 1; d <= LOOKAHEAD && !resynced; d++) {
      if (a.has(d) && a.same(d, b, 0)) {
        drop(a, ra, d);
        resynced = true;
      } else if (b.has(d) && a.same(0, b, d)) {
        drop(b, rb, d);
        resynced = true;
      }
    }
    if (!resynced) {
      drop(a, ra, 1);
      drop(b, rb, 1);
    }
  }
  while (a.has(0)) drop(a, ra, 1);
  while (b.has(0)) drop(b, rb, 1);
  ra.flush();
  rb.flush();
  return { before: ra.ranges, after: rb.ranges };
}
