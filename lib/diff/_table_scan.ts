/**
 * The page scan of a diff limited to some tables (`db diff --table`): only
 * the pages of those tables' b-trees are read, on both sides, each compared
 * with the page of the same number in the other file. `--table small` on
 * two files of gigabytes reads the few pages of `small`, not the files.
 *
 * Why this is as sound as comparing whole files (_page_scan.ts): page
 * skipping (page_plan.ts) trusts a leaf whose bytes are the same in both
 * files, except that a clean leaf can point at an overflow page that
 * changed. The whole-file scan sees every changed page, and gives up when
 * one belongs to no b-tree. Here, the cells of each clean page are read
 * instead: a cell whose payload spills names its first overflow page, the
 * chain is followed on that side and each overflow page compared with the
 * other file's page of the same number, and any difference marks the leaf
 * as changed. Table leaves, index leaves and the interior pages of index
 * b-trees (a WITHOUT ROWID table's rows live there too) hold such cells;
 * a table b-tree's interior pages hold rowids only.
 *
 * Worked example, usable size U = 4096, a table leaf cell of payload P =
 * 10000 bytes: X = U - 35 = 4061 < P, so it spills; M = (U - 12) * 32 / 255
 * - 23 = 489, K = M + (P - M) % (U - 4) = 489 + 9511 % 4092 = 1816 <= X, so
 * 1816 bytes stay on the leaf, followed by the 4-byte number of the first
 * of ceil((10000 - 1816) / 4092) = 2 overflow pages.
 *
 * Pages are read through a small cache of 256 KiB chunks per file: a
 * b-tree's leaves and an overflow chain are mostly consecutive pages, so a
 * big table is read in big reads. A page that makes no sense (a type that
 * is no b-tree page, a cell past the page's end, a page reached twice)
 * makes the scan give up (null): then nothing is skipped and SQLite reports
 * the damage, if the diff reads it.
 *
 * @module
 */
import * as fs from "node:fs";
import { Buffer } from "node:buffer";
import { type OpenPair, openPair, type PageScan } from "./_page_scan.ts";

/** The root pages of the b-trees to scan, per side (0, a virtual table, is ignored). */
export interface TreeRoots {
  readonly before: readonly number[];
  readonly after: readonly number[];
}

class Corrupt extends Error {}

const TABLE_LEAF = 0x0d;
const INDEX_LEAF = 0x0a;
const TABLE_INTERIOR = 0x05;
const INDEX_INTERIOR = 0x02;
const CHUNK = 256 * 1024;
const SLOTS = 8;

/** Reads pages of one file through a few cached, aligned chunks. */
class Chunks {
  readonly #fd: number;
  readonly #size: number;
  readonly #pages: number;
  readonly #per: number;
  /** Most recently used first. */
  readonly #slots: { first: number; buf: Buffer }[] = [];
  constructor(fd: number, pageSize: number, pages: number) {
    this.#fd = fd;
    this.#size = pageSize;
    this.#pages = pages;
    this.#per = Math.max(1, Math.floor(CHUNK / pageSize));
  }
  /** Page `n`: valid until the next call. */
  page(n: number): Buffer {
    if (n < 1 || n > this.#pages) throw new Corrupt();
    const first = Math.floor((n - 1) / this.#per) * this.#per + 1;
    let i = this.#slots.findIndex((s) => s.first === first);
    if (i < 0) {
      const slot = this.#slots.length < SLOTS
        ? { first, buf: Buffer.allocUnsafe(this.#per * this.#size) }
        : this.#slots.pop()!;
      slot.first = first;
      const bytes = Math.min(this.#per, this.#pages - first + 1) * this.#size;
      const got = fs.readSync(this.#fd, slot.buf, 0, bytes, (first - 1) * this.#size);
      if (got !== bytes) {
        slot.first = 0;
        this.#slots.push(slot);
        throw new Corrupt();
      }
      this.#slots.unshift(slot);
      i = 0;
    } else if (i > 0) {
      this.#slots.unshift(...this.#slots.splice(i, 1));
      i = 0;
    }
    const at = (n - first) * this.#size;
    return this.#slots[0]!.buf.subarray(at, at + this.#size);
  }
}

/** One side while scanning. */
interface Side {
  readonly chunks: Chunks;
  readonly pages: number;
  readonly types: Uint8Array;
  /** Pages reached on this side (a page reached twice is damage). */
  readonly reached: Uint8Array;
}

/**
 * Compares the b-trees at `roots` of two files, page by page, as
 * {@link PageScan} says (its `scope` holds the roots). Returns null when the
 * pages cannot be trusted (a -wal file, page sizes that differ; see
 * openPair) or a page makes no sense; it never throws.
 *
 * @param before the before file
 * @param after the after file
 * @param roots the root pages of the trees to compare, per side
 * @returns the scan, with both files kept open for the b-tree walks
 */
export function scanTrees(before: string, after: string, roots: TreeRoots): PageScan | null {
  const pair = openPair(before, after);
  if (pair === null) return null;
  try {
    return scan(pair, roots);
  } catch (e) {
    fs.closeSync(pair.a);
    fs.closeSync(pair.b);
    if (e instanceof Corrupt || e instanceof RangeError) return null;
    throw e;
  }
}

function scan({ a, b, ha, hb }: OpenPair, roots: TreeRoots): PageScan {
  const size = ha.pageSize;
  const usable = size - ha.reserved;
  const n = Math.max(ha.pages, hb.pages) + 1;
  const dirty = new Uint8Array(n);
  const compared = new Uint8Array(n);
  let dirtyCount = 0;
  const side = (fd: number, pages: number): Side => ({
    chunks: new Chunks(fd, size, pages),
    pages,
    types: new Uint8Array(pages + 1),
    reached: new Uint8Array(pages + 1),
  });
  const sa = side(a, ha.pages);
  const sb = side(b, hb.pages);
  const markDirty = (p: number): void => {
    if (dirty[p] === 1) return;
    dirty[p] = 1;
    dirtyCount++;
  };
  // Whether `page`, page p of one side, differs from the other side's page p.
  const differs = (p: number, page: Buffer, other: Side): boolean =>
    p > other.pages || !page.equals(other.chunks.page(p));

  /** Whether an overflow chain of `count` pages from `first` differs from the other file's pages. */
  const chainDiffers = (own: Side, other: Side, first: number, count: number): boolean => {
    let p = first;
    for (let i = 0; i < count; i++) {
      if (p < 2 || p > own.pages || own.reached[p] === 1) throw new Corrupt();
      own.reached[p] = 1;
      const page = own.chunks.page(p);
      const next = page.readUInt32BE(0);
      if (differs(p, page, other)) return true;
      p = next;
    }
    return false;
  };

  const visit = (own: Side, other: Side, p: number, table: boolean, depth: number): void => {
    if (depth > 40 || p < 2 || p > own.pages || own.reached[p] === 1) throw new Corrupt();
    own.reached[p] = 1;
    // Compared from the other side already: then, if clean, its overflow
    // chains were compared too, and a clean leaf need not be read again.
    const seen = compared[p] === 1;
    const known = other.types[p]!;
    if (seen && dirty[p] === 0 && (known === TABLE_LEAF || known === INDEX_LEAF)) {
      if ((known === TABLE_LEAF) !== table) throw new Corrupt();
      own.types[p] = known;
      return;
    }
    const page = own.chunks.page(p);
    const type = page[0]!;
    const interior = type === TABLE_INTERIOR || type === INDEX_INTERIOR;
    const ofTable = type === TABLE_INTERIOR || type === TABLE_LEAF;
    if ((!interior && type !== TABLE_LEAF && type !== INDEX_LEAF) || ofTable !== table) {
      throw new Corrupt();
    }
    own.types[p] = type;
    if (!seen) {
      compared[p] = 1;
      if (differs(p, page, other)) markDirty(p);
    }
    const hdr = interior ? 12 : 8;
    const cells = page.readUInt16BE(3);
    if (hdr + 2 * cells > usable) throw new Corrupt();
    // Copy what is needed before the next read reuses the page's chunk.
    const children = interior ? new Uint32Array(cells + 1) : null;
    const chains: number[] = [];
    const check = !seen && dirty[p] === 0 && type !== TABLE_INTERIOR;
    for (let i = 0; i < cells; i++) {
      const at = page.readUInt16BE(hdr + 2 * i);
      if (at < hdr + 2 * cells || at + 4 > usable) throw new Corrupt();
      if (children !== null) children[i] = page.readUInt32BE(at);
      if (check) spill(page, type, at, usable, chains);
    }
    if (children !== null) children[cells] = page.readUInt32BE(8);
    for (let i = 0; i < chains.length; i += 2) {
      if (chainDiffers(own, other, chains[i]!, chains[i + 1]!)) {
        markDirty(p);
        break;
      }
    }
    if (children === null) return;
    for (const child of children) visit(own, other, child, table, depth + 1);
  };

  const walkAll = (own: Side, other: Side, list: readonly number[]): void => {
    for (const root of list) {
      if (root === 0) continue;
      if (root === 1) throw new Corrupt();
      const page = own.chunks.page(root);
      visit(own, other, root, page[0] === TABLE_INTERIOR || page[0] === TABLE_LEAF, 0);
    }
  };
  walkAll(sa, sb, roots.before);
  walkAll(sb, sa, roots.after);
  let open = true;
  return {
    pageSize: size,
    before: { fd: a, pages: ha.pages, freelistTrunk: ha.freelistTrunk, types: sa.types },
    after: { fd: b, pages: hb.pages, freelistTrunk: hb.freelistTrunk, types: sb.types },
    dirty,
    dirtyCount,
    scope: { before: new Set(roots.before), after: new Set(roots.after) },
    close: () => {
      if (!open) return;
      open = false;
      fs.closeSync(a);
      fs.closeSync(b);
    },
  };
}

/** A varint at `at` of `page` (below `end`): its value (exact below 2^53) and the next offset. */
function varint(page: Buffer, at: number, end: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 9; i++) {
    if (at + i >= end) throw new Corrupt();
    const byte = page[at + i]!;
    if (i === 8) return [v * 256 + byte, at + 9];
    v = v * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [v, at + i + 1];
  }
  throw new Corrupt();
}

/**
 * When the cell at `at` of a page of `type` spills its payload, pushes its
 * first overflow page and the number of overflow pages onto `chains`.
 */
function spill(page: Buffer, type: number, at: number, usable: number, chains: number[]): void {
  let [payload, q] = varint(page, type === INDEX_INTERIOR ? at + 4 : at, usable);
  if (type === TABLE_LEAF) q = varint(page, q, usable)[1];
  const max = type === TABLE_LEAF ? usable - 35 : Math.floor(((usable - 12) * 64) / 255) - 23;
  if (payload <= max) {
    if (q + payload > usable) throw new Corrupt();
    return;
  }
  if (payload > 2 ** 32) throw new Corrupt();
  const min = Math.floor(((usable - 12) * 32) / 255) - 23;
  const k = min + ((payload - min) % (usable - 4));
  const local = k <= max ? k : min;
  if (q + local + 4 > usable) throw new Corrupt();
  chains.push(page.readUInt32BE(q + local), Math.ceil((payload - local) / (usable - 4)));
}
