/**
 * Reading the cells of a table's b-tree pages in key order, for the cell
 * comparison (_cell_compare.ts): the leaves of a rowid table listed by the
 * page plan, or a WITHOUT ROWID table's whole index b-tree, interior cells
 * included (each is a row). A {@link Cells} cursor walks one side's cells
 * with a few cells of lookahead.
 *
 * Nothing is allocated per row: pages are read into a ring of buffers, 64
 * consecutive leaves per read, and decoded into a ring of reused cell
 * tables. A buffer is read into again only once no cell in view can lie on
 * it (see {@link RING}). A page that is not what it should be throws
 * FormatError.
 *
 * @module
 */
import * as fs from "node:fs";
import { decodeSqliteText } from "../sqlite/text.ts";
import type { SqliteValue } from "../sqlite/value.ts";
import {
  FormatError,
  INDEX_INTERIOR,
  INDEX_LEAF,
  localPayload,
  maxLocal,
  serialSize,
  TABLE_LEAF,
  VarintReader,
} from "./_btree_format.ts";

/** One side: its file and its non-clean leaves, in key order. */
export interface LeafSide {
  readonly fd: number;
  readonly leaves: readonly number[];
}

/** Cells tried on each side after a mismatch, in `record` matching. */
export const LOOKAHEAD = 4;

/** Pages read at once when leaves are consecutive in the file. */
const RUN = 64;

/**
 * Read buffers per side, reused in turn. The cells in view (the current one
 * and {@link LOOKAHEAD} more) lie on at most LOOKAHEAD + 1 leaves, so on at
 * most that many reads: a buffer is read into again only after all of them.
 */
const RING = LOOKAHEAD + 3;

/** The decoded cells of one leaf page (reused for a later leaf, see {@link RING}). */
export interface Leaf {
  page: Uint8Array;
  count: number;
  /** Offset of each cell's record in `page`. */
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
    if (got !== buf.length) throw new FormatError();
    this.#run = buf;
    this.#runFirst = first;
    this.#runCount = count;
  }
}

/** Decodes table leaf `page` into `out`. */
export function decodeLeaf(page: Uint8Array, usable: number, out: Leaf): void {
  if (page[0] !== TABLE_LEAF) throw new FormatError();
  const count = (page[3]! << 8) | page[4]!;
  const { start, length, rowid } = out;
  if (count > start.length) throw new FormatError();
  out.page = page;
  out.count = count;
  const max = maxLocal(usable, TABLE_LEAF);
  const r = new VarintReader(page, 0, usable);
  for (let i = 0; i < count; i++) {
    r.at = (page[8 + 2 * i]! << 8) | page[9 + 2 * i]!;
    if (r.at < 8) throw new FormatError();
    // Payload size, then rowid (negative or beyond 2^53: not kept as a double).
    const size = r.read();
    const id = r.read();
    if (id > Number.MAX_SAFE_INTEGER) throw new FormatError();
    start[i] = r.at;
    rowid[i] = id;
    if (size <= max) {
      if (r.at + size > usable) throw new FormatError();
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

/** One side of a WITHOUT ROWID table (an index b-tree). */
export interface IndexSide {
  readonly fd: number;
  readonly root: number;
  /** Each page's b-tree type byte, from the page scan. */
  readonly types: Uint8Array;
}

/**
 * An index b-tree's rows in key order: each child subtree, then the
 * interior cell after it (a run of one cell), and so on. Clean leaves are
 * not read. Pages are read one at a time into buffers of their own.
 */
export class IndexTreeReader implements CellSource {
  readonly #side: IndexSide;
  readonly #size: number;
  readonly #usable: number;
  readonly #clean: (page: number) => boolean;
  /** Interior pages on the way down, with the next cell to visit. */
  readonly #stack: { page: Uint8Array; cell: number; count: number; childDone: boolean }[] = [];
  readonly #decoded: Leaf[] = [];
  readonly #buffers: Uint8Array[] = [];
  #decodes = 0;

  constructor(
    side: IndexSide,
    page: { readonly size: number; readonly usable: number },
    clean: (page: number) => boolean,
  ) {
    this.#side = side;
    this.#size = page.size;
    this.#usable = page.usable;
    this.#clean = clean;
    this.#pending = side.root;
  }

  /** A page to descend into before anything else, or 0. */
  #pending: number;

  next(): Leaf | null {
    for (let guard = 0;; guard++) {
      if (guard > 1_000_000) throw new FormatError();
      if (this.#pending !== 0) {
        const n = this.#pending;
        this.#pending = 0;
        if (this.#stack.length > 40) throw new FormatError();
        const type = this.#side.types[n];
        if (type === INDEX_LEAF) {
          if (this.#clean(n)) continue;
          const leaf = this.#slot();
          // Leaves go into the ring's buffers, like the decoded cells.
          const buf = this.#buffers[(this.#decodes - 1) % RING] ??= new Uint8Array(this.#size);
          decodeIndexCells(this.#read(n, buf), 0, this.#usable, leaf, false);
          if (leaf.count === 0) continue;
          return leaf;
        }
        if (type !== INDEX_INTERIOR) throw new FormatError();
        const p = this.#read(n);
        if (p[0] !== INDEX_INTERIOR) throw new FormatError();
        this.#stack.push({ page: p, cell: 0, count: (p[3]! << 8) | p[4]!, childDone: false });
        continue;
      }
      const top = this.#stack[this.#stack.length - 1];
      if (top === undefined) return null;
      if (!top.childDone) {
        // Descend into the child left of cell `cell` (the right-most child last).
        top.childDone = true;
        const p = top.page;
        this.#pending = top.cell < top.count
          ? readU32(p, (p[12 + 2 * top.cell]! << 8) | p[13 + 2 * top.cell]!)
          : readU32(p, 8);
        continue;
      }
      if (top.cell >= top.count) {
        this.#stack.pop();
        continue;
      }
      const leaf = this.#slot();
      decodeIndexCells(top.page, top.cell, this.#usable, leaf, true);
      top.cell++;
      top.childDone = false;
      return leaf;
    }
  }

  #slot(): Leaf {
    const slot = this.#decodes++ % RING;
    return this.#decoded[slot] ??= emptyLeaf(this.#size);
  }

  /** Page `n`, into `buf` (interior pages: a buffer of their own, kept while on the stack). */
  #read(n: number, buf: Uint8Array = new Uint8Array(this.#size)): Uint8Array {
    const got = fs.readSync(this.#side.fd, buf, 0, this.#size, (n - 1) * this.#size);
    if (got !== this.#size) throw new FormatError();
    return buf;
  }
}

function readU32(p: Uint8Array, at: number): number {
  return ((p[at]! << 24) >>> 0) + (p[at + 1]! << 16) + (p[at + 2]! << 8) + p[at + 3]!;
}

/**
 * Decodes index b-tree cells into `out`: every cell of a leaf, or the one
 * interior cell `only` (after its 4-byte child pointer) when `interior`.
 */
function decodeIndexCells(
  page: Uint8Array,
  only: number,
  usable: number,
  out: Leaf,
  interior: boolean,
): void {
  const header = interior ? 12 : 8;
  const all = (page[3]! << 8) | page[4]!;
  const first = interior ? only : 0;
  const count = interior ? 1 : all;
  if (count > out.start.length) throw new FormatError();
  out.page = page;
  out.count = count;
  const r = new VarintReader(page, 0, usable);
  for (let c = 0; c < count; c++) {
    const k = first + c;
    r.at = (page[header + 2 * k]! << 8) | page[header + 1 + 2 * k]!;
    if (r.at < header) throw new FormatError();
    if (interior) r.at += 4;
    const size = r.read();
    out.start[c] = r.at;
    out.rowid[c] = 0;
    const local = localPayload(size, usable, INDEX_LEAF);
    if (r.at + local > usable) throw new FormatError();
    out.length[c] = local === size ? size : -1;
    out.local[c] = local;
  }
}

/**
 * The first `n` values of the record at `start` (`local` bytes on the
 * page): integers, reals, text (decoded as the engine decodes it, so that
 * binding it gives the same bytes back) and BLOBs.
 */
export function recordKey(
  page: Uint8Array,
  start: number,
  local: number,
  n: number,
): SqliteValue[] {
  const end = start + local;
  const r = new VarintReader(page, start, end);
  const headerEnd = start + r.read();
  let body = headerEnd;
  const out: SqliteValue[] = [];
  for (let i = 0; i < n; i++) {
    if (r.at >= headerEnd) throw new FormatError();
    const type = r.read();
    const width = serialSize(type);
    if (width < 0 || body + width > end) throw new FormatError();
    if (type === 0) out.push(null);
    else if (type === 8 || type === 9) out.push(type - 8);
    else if (type === 7) {
      out.push(new DataView(page.buffer, page.byteOffset + body, 8).getFloat64(0));
    } else if (type <= 6) {
      let v = BigInt(page[body]! >= 0x80 ? -1 : 0);
      for (let k = 0; k < width; k++) v = (v << 8n) | BigInt(page[body + k]!);
      v = BigInt.asIntN(64, v);
      out.push(v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v);
    } else {
      const bytes = page.slice(body, body + width);
      out.push(type % 2 === 1 ? decodeSqliteText(bytes) : bytes);
    }
    body += width;
  }
  return out;
}
