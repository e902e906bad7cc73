/**
 * A WITHOUT ROWID table's rows in key order, for the cell comparison
 * (_cell_compare.ts): such a table is an index b-tree, whose interior cells
 * are rows too, so its whole tree is read (clean leaves left out), and the
 * key of a residue row is decoded from its record.
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
  serialSize,
  VarintReader,
} from "./_btree_format.ts";
import { type CellSource, emptyLeaf, type Leaf, RING } from "./_leaf_cells.ts";

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

/** The reader index cells are decoded with (one, not one per page). */
const varints = new VarintReader(new Uint8Array(0));

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
  const r = varints;
  r.buf = page;
  r.end = usable;
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
