/**
 * Reading the cells of a table's b-tree pages in key order, for the cell
 * comparison (_cell_compare.ts): the changed leaves of a rowid table, as a
 * walk of its tree finds them (_tree_leaves.ts), or a WITHOUT ROWID table's
 * whole index b-tree (_index_cells.ts). A {@link Cells} cursor walks one
 * side's cells with a few cells of lookahead.
 *
 * Nothing is allocated per row or per leaf: pages are read into a ring of
 * buffers, up to 64 pages per read, and decoded into a ring of reused cell
 * tables. A buffer is read into again only once no cell in view can lie on
 * it (see {@link RING}). A page that is not what it should be throws
 * FormatError.
 *
 * @module
 */
import * as fs from "node:fs";
import { FormatError, maxLocal, TABLE_LEAF, VarintReader } from "./_btree_format.ts";

/** Page numbers of leaves, in key order, one at a time (0 after the last). */
export interface LeafList {
  next(): number;
}

/** One side: its file and its non-clean leaves, in key order. */
export interface LeafSide {
  readonly fd: number;
  readonly leaves: LeafList;
}

/** Cells tried on each side after a mismatch, in `record` matching. */
export const LOOKAHEAD = 4;

/** Pages read at once when leaves are near each other in the file (and leaves queued ahead). */
export const RUN = 64;

/**
 * Read buffers per side, reused in turn. The cells in view (the current one
 * and {@link LOOKAHEAD} more) lie on at most LOOKAHEAD + 1 leaves, so on at
 * most that many reads: a buffer is read into again only after all of them.
 */
export const RING = LOOKAHEAD + 3;

/** The decoded cells of one leaf page (reused for a later leaf, see {@link RING}). */
export interface Leaf {
  /** The buffer holding the page (a run of pages may share one). */
  page: Uint8Array;
  count: number;
  /** Offset of each cell's record in `page` (from the buffer's start, not the page's). */
  readonly start: Int32Array;
  /** Record length (local bytes), or -1 when it spills to overflow pages. */
  readonly length: Int32Array;
  /** The record's bytes on this page (all of it unless it spills). */
  readonly local: Int32Array;
  readonly rowid: Float64Array;
}

export function emptyLeaf(pageSize: number): Leaf {
  // A cell takes at least 4 bytes: its pointer, two varints and a record header.
  const cells = Math.ceil(pageSize / 4);
  return {
    page: new Uint8Array(0),
    count: 0,
    start: new Int32Array(cells),
    length: new Int32Array(cells),
    local: new Int32Array(cells),
    rowid: new Float64Array(cells),
  };
}

/** Where {@link Cells} gets its leaves from, in key order. */
export interface CellSource {
  /** The next leaf (or run of cells), or null after the last. */
  next(): Leaf | null;
}

/** Reads a side's leaves in order, several consecutive pages per read. */
export class LeafReader implements CellSource {
  readonly #fd: number;
  readonly #leaves: LeafList;
  readonly #pageSize: number;
  readonly #usable: number;
  /** Leaves taken from the list and not yet decoded (a ring of {@link RUN}). */
  readonly #queue = new Uint32Array(RUN);
  #head = 0;
  #queued = 0;
  #ended = false;
  #run: Uint8Array = new Uint8Array(0);
  #runFirst = 0;
  #runCount = 0;
  /** Buffers and decoded leaves reused in turn (see {@link RING}). */
  readonly #ring: Uint8Array[] = [];
  #turn = 0;
  readonly #decoded: Leaf[] = [];
  #decodes = 0;
  readonly #varints = new VarintReader(new Uint8Array(0));

  constructor(side: LeafSide, pageSize: number, usable: number) {
    this.#fd = side.fd;
    this.#leaves = side.leaves;
    this.#pageSize = pageSize;
    this.#usable = usable;
  }

  /** The next leaf, decoded, or null after the last. */
  next(): Leaf | null {
    if (!this.#fill(1)) return null;
    const n = this.#queue[this.#head]!;
    if (n < this.#runFirst || n >= this.#runFirst + this.#runCount) this.#read();
    this.#head = (this.#head + 1) % RUN;
    this.#queued--;
    const at = (n - this.#runFirst) * this.#pageSize;
    const slot = this.#decodes++ % RING;
    const leaf = this.#decoded[slot] ??= emptyLeaf(this.#pageSize);
    // Decoded where it lies in the run: no view object per leaf, no reader
    // per leaf (a 20M-row table has 500k leaves a side, and Bun's heap grew
    // by tens of MB with such short-lived objects).
    decodeLeaf(this.#run, at, this.#usable, leaf, this.#varints);
    return leaf;
  }

  /** Queues leaves from the list until `n` are queued; false when fewer are left. */
  #fill(n: number): boolean {
    while (this.#queued < n && !this.#ended) {
      const leaf = this.#leaves.next();
      if (leaf === 0) this.#ended = true;
      else this.#queue[(this.#head + this.#queued++) % RUN] = leaf;
    }
    return this.#queued >= n;
  }

  /**
   * Reads a run of pages from the first queued leaf to the last of the
   * queued leaves that follow it in the file within {@link RUN} pages, clean
   * pages between included: changed leaves between clean ones (2% of rows
   * changed) would otherwise cost a read each, and each read costs Bun
   * memory it gives back late.
   */
  #read(): void {
    const first = this.#queue[this.#head]!;
    let last = first;
    for (let k = 1; k < RUN && this.#fill(k + 1); k++) {
      const n = this.#queue[(this.#head + k) % RUN]!;
      if (n <= last || n >= first + RUN) break;
      last = n;
    }
    const count = last - first + 1;
    // Earlier leaves may still be looked at: each read takes the next buffer
    // of a ring longer than the lookahead can reach back.
    const slot = this.#turn++ % RING;
    this.#ring[slot] ??= new Uint8Array(RUN * this.#pageSize);
    const buf = this.#ring[slot]!.subarray(0, count * this.#pageSize);
    const got = fs.readSync(this.#fd, buf, 0, buf.length, (first - 1) * this.#pageSize);
    if (got !== buf.length) throw new FormatError();
    this.#run = buf;
    this.#runFirst = first;
    this.#runCount = count;
  }
}

/**
 * Decodes the table leaf at offset `base` of `buf` into `out`, with `r` (any
 * reader: it is pointed at `buf`).
 */
function decodeLeaf(
  buf: Uint8Array,
  base: number,
  usable: number,
  out: Leaf,
  r: VarintReader,
): void {
  if (buf[base] !== TABLE_LEAF) throw new FormatError();
  const count = (buf[base + 3]! << 8) | buf[base + 4]!;
  const { start, length, rowid } = out;
  if (count > start.length) throw new FormatError();
  out.page = buf;
  out.count = count;
  const max = maxLocal(usable, TABLE_LEAF);
  const end = base + usable;
  r.buf = buf;
  r.end = end;
  for (let i = 0; i < count; i++) {
    const cell = (buf[base + 8 + 2 * i]! << 8) | buf[base + 9 + 2 * i]!;
    if (cell < 8) throw new FormatError();
    r.at = base + cell;
    // Payload size, then rowid (negative or beyond 2^53: not kept as a double).
    const size = r.read();
    const id = r.read();
    if (id > Number.MAX_SAFE_INTEGER) throw new FormatError();
    start[i] = r.at;
    rowid[i] = id;
    if (size <= max) {
      if (r.at + size > end) throw new FormatError();
      length[i] = size;
      out.local[i] = size;
    } else {
      length[i] = -1;
      out.local[i] = 0;
    }
  }
  // A table leaf's cells are in rowid order.
  for (let i = 1; i < count; i++) if (rowid[i]! <= rowid[i - 1]!) throw new FormatError();
}

/** A side's cells in key order, with a few cells of lookahead. */
export class Cells {
  readonly #reader: CellSource;
  /** Leaves from the current one on (more only while looking ahead). */
  readonly #leaves: Leaf[] = [];
  /** The current cell's index in the first leaf. */
  #at = 0;
  /** Where the last {@link Cells.locate} found its cell. */
  leaf: Leaf | null = null;
  index = 0;

  constructor(reader: CellSource) {
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
