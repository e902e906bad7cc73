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
 * In three steps, so that a big table is read in big reads: the interior
 * pages are walked first, a page at a time (about 1% of a table), which
 * lists the leaves (every leaf of a b-tree is at the same depth); the
 * leaves are then read in ascending runs of up to 4 MiB, both files at once
 * on the runtime's I/O threads, the next run read while this one is
 * compared (as _page_scan.ts reads whole files); last, the overflow chains
 * of clean pages are followed through a small cache of 256 KiB chunks (a
 * chain is mostly consecutive pages). A page that makes no sense (a type
 * that is no b-tree page, a leaf above the leaf level, a cell past the
 * page's end, a page reached twice) or a failed read makes the scan give
 * up (null): then nothing is skipped, and SQLite reports the damage if the
 * diff reads it.
 *
 * @module
 */
import * as fs from "node:fs";
import { Buffer } from "node:buffer";
import { type OpenPair, type PageScan, readAt, scanPair } from "./_page_scan.ts";
import {
  INDEX_INTERIOR,
  INDEX_LEAF,
  localPayload,
  maxLocal,
  TABLE_INTERIOR,
  TABLE_LEAF,
  varint,
} from "./_btree_format.ts";

/** The root pages of the b-trees to scan, per side (0, a virtual table, is ignored). */
export interface TreeRoots {
  readonly before: readonly number[];
  readonly after: readonly number[];
}

class Corrupt extends Error {}

/** The largest read of leaves. */
const RUN = 4 * 1024 * 1024;
/** Pages between two leaves that are read with them rather than split the read. */
const GAP = 8;
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
  /** The pages in a chunk (the last one may hold fewer). */
  get per(): number {
    return this.#per;
  }
  /** Page `n`: valid until the next call. */
  page(n: number): Buffer {
    const chunk = this.chunk(n);
    const at = (n - chunk.first) * this.#size;
    return chunk.buf.subarray(at, at + this.#size);
  }
  /** The chunk holding page `n`, and its length in bytes: valid until the next call. */
  chunk(n: number): { readonly first: number; readonly buf: Buffer; readonly bytes: number } {
    if (n < 1 || n > this.#pages) throw new Corrupt();
    const first = Math.floor((n - 1) / this.#per) * this.#per + 1;
    const bytes = Math.min(this.#per, this.#pages - first + 1) * this.#size;
    const i = this.#slots.findIndex((s) => s.first === first);
    if (i > 0) this.#slots.unshift(...this.#slots.splice(i, 1));
    if (i < 0) {
      const slot = this.#slots.length < SLOTS
        ? { first, buf: Buffer.allocUnsafe(this.#per * this.#size) }
        : this.#slots.pop()!;
      slot.first = 0;
      this.#slots.unshift(slot);
      if (fs.readSync(this.#fd, slot.buf, 0, bytes, (first - 1) * this.#size) !== bytes) {
        throw new Corrupt();
      }
      slot.first = first;
    }
    return { first, buf: this.#slots[0]!.buf, bytes };
  }
}

/** One side of the scan. */
interface Side {
  readonly fd: number;
  readonly pages: number;
  readonly types: Uint8Array;
  /** Pages reached on this side: a page reached twice is damage. */
  readonly reached: Uint8Array;
  readonly chunks: Chunks;
  /** The page the interior walk reads into. */
  readonly one: Buffer;
  /** This side's bits in the leaf marks: a table leaf, an index leaf. */
  readonly tableLeaf: number;
  readonly indexLeaf: number;
}

/**
 * Compares the b-trees at `roots` of two files, page by page, as
 * {@link PageScan} says (its `scope` holds the roots). Resolves to null when
 * the pages cannot be trusted (a -wal file, page sizes that differ; see
 * openPair), a page makes no sense or a read fails; it never rejects.
 *
 * @param before the before file
 * @param after the after file
 * @param roots the root pages of the trees to compare, per side
 * @param onDiffer called once, when `differAt` pages differ (the engine is
 * then needed, and can start while the scan goes on)
 * @param differAt how many differing pages call `onDiffer` (default 1)
 * @returns the scan, with both files kept open for the b-tree walks
 */
export function scanTrees(
  before: string,
  after: string,
  roots: TreeRoots,
  onDiffer?: () => void,
  differAt = 1,
): Promise<PageScan | null> {
  return scanPair(before, after, (pair) => new TreeScan(pair, onDiffer, differAt).run(roots));
}

class TreeScan {
  readonly #pair: OpenPair;
  readonly #size: number;
  readonly #usable: number;
  readonly #a: Side;
  readonly #b: Side;
  readonly #dirty: Uint8Array;
  #dirtyCount = 0;
  /** Pages already compared with the other file's. */
  readonly #compared: Uint8Array;
  /** The leaves found by the interior walk, as the sides' bits. */
  readonly #leaves: Uint8Array;
  /** Overflow chains to compare: the page holding the cell, the side (0, 1), first page, count. */
  readonly #chains: number[] = [];
  #onDiffer: (() => void) | undefined;
  readonly #differAt: number;

  constructor(pair: OpenPair, onDiffer: (() => void) | undefined, differAt: number) {
    this.#pair = pair;
    this.#onDiffer = onDiffer;
    this.#differAt = differAt;
    const size = pair.ha.pageSize;
    this.#size = size;
    this.#usable = size - pair.ha.reserved;
    const n = Math.max(pair.ha.pages, pair.hb.pages) + 1;
    this.#dirty = new Uint8Array(n);
    this.#compared = new Uint8Array(n);
    this.#leaves = new Uint8Array(n);
    const side = (fd: number, pages: number, bits: number): Side => ({
      fd,
      pages,
      types: new Uint8Array(pages + 1),
      reached: new Uint8Array(pages + 1),
      chunks: new Chunks(fd, size, pages),
      one: Buffer.alloc(size),
      tableLeaf: bits,
      indexLeaf: bits << 1,
    });
    this.#a = side(pair.a, pair.ha.pages, 1);
    this.#b = side(pair.b, pair.hb.pages, 4);
  }

  async run(roots: TreeRoots): Promise<PageScan> {
    for (const root of roots.before) this.#tree(this.#a, this.#b, root);
    for (const root of roots.after) this.#tree(this.#b, this.#a, root);
    await this.#readLeaves();
    this.#compareChains();
    const { a, b, ha, hb } = this.#pair;
    let open = true;
    return {
      pageSize: this.#size,
      usable: this.#usable,
      before: { fd: a, pages: ha.pages, freelistTrunk: ha.freelistTrunk, types: this.#a.types },
      after: { fd: b, pages: hb.pages, freelistTrunk: hb.freelistTrunk, types: this.#b.types },
      dirty: this.#dirty,
      dirtyCount: this.#dirtyCount,
      scope: { before: new Set(roots.before), after: new Set(roots.after) },
      close: () => {
        if (!open) return;
        open = false;
        fs.closeSync(a);
        fs.closeSync(b);
      },
    };
  }

  #markDirty(p: number): void {
    if (this.#dirty[p] === 1) return;
    this.#dirty[p] = 1;
    this.#dirtyCount++;
    if (this.#dirtyCount < this.#differAt) return;
    const told = this.#onDiffer;
    this.#onDiffer = undefined;
    told?.();
  }

  /** Page `p` of `side`, read into its one-page buffer. */
  #read(side: Side, p: number): Buffer {
    if (p < 2 || p > side.pages) throw new Corrupt();
    const got = fs.readSync(side.fd, side.one, 0, this.#size, (p - 1) * this.#size);
    if (got !== this.#size) throw new Corrupt();
    return side.one;
  }

  /** Walks the interior pages of the tree at `root` of `own`, marking its leaves. */
  #tree(own: Side, other: Side, root: number): void {
    if (root === 0) return;
    // Every leaf is at the same depth: the leftmost path tells which.
    let type = this.#read(own, root)[0]!;
    const table = type === TABLE_INTERIOR || type === TABLE_LEAF;
    let height = 0;
    for (let p = root; type === TABLE_INTERIOR || type === INDEX_INTERIOR; type = own.one[0]!) {
      if (++height > 40) throw new Corrupt();
      const page = own.one;
      p = page.readUInt16BE(3) > 0
        ? page.readUInt32BE(page.readUInt16BE(12))
        : page.readUInt32BE(8);
      this.#read(own, p);
    }
    if (type !== TABLE_LEAF && type !== INDEX_LEAF) throw new Corrupt();
    this.#walk(own, other, root, table, height, 0);
  }

  #walk(own: Side, other: Side, p: number, table: boolean, height: number, depth: number): void {
    if (p < 2 || p > own.pages || own.reached[p] === 1) throw new Corrupt();
    own.reached[p] = 1;
    if (depth === height) {
      this.#leaves[p]! |= table ? own.tableLeaf : own.indexLeaf;
      return;
    }
    // Compared from the other side already: then, if clean, its overflow
    // chains are listed already.
    const seen = this.#compared[p] === 1;
    const page = this.#read(own, p);
    const type = page[0]!;
    if (type !== (table ? TABLE_INTERIOR : INDEX_INTERIOR)) throw new Corrupt();
    own.types[p] = type;
    if (!seen) {
      this.#compared[p] = 1;
      if (p > other.pages || !page.equals(this.#read(other, p))) this.#markDirty(p);
    }
    const cells = page.readUInt16BE(3);
    if (12 + 2 * cells > this.#usable) throw new Corrupt();
    // Copied: the recursion reuses the page's buffer.
    const children = new Uint32Array(cells + 1);
    const spills = !table && !seen && this.#dirty[p] === 0;
    for (let i = 0; i < cells; i++) {
      const at = page.readUInt16BE(12 + 2 * i);
      if (at < 12 + 2 * cells || at + 4 > this.#usable) throw new Corrupt();
      children[i] = page.readUInt32BE(at);
      if (spills) this.#spill(page, 0, type, at, p, own === this.#a ? 0 : 1);
    }
    children[cells] = page.readUInt32BE(8);
    for (const child of children) this.#walk(own, other, child, table, height, depth + 1);
  }

  /** Reads the listed leaves of both files in ascending runs, two reads in flight. */
  async #readLeaves(): Promise<void> {
    const leaves = this.#leaves;
    const size = this.#size;
    const per = Math.max(1, Math.floor(RUN / size));
    const starts: number[] = [];
    const ends: number[] = [];
    for (let p = 2; p < leaves.length; p++) {
      if (leaves[p] === 0) continue;
      const k = starts.length - 1;
      if (k >= 0 && p - ends[k]! <= GAP && p - starts[k]! < per) ends[k] = p;
      else {
        starts.push(p);
        ends.push(p);
      }
    }
    if (starts.length === 0) return;
    const bufs = [0, 1].map(() => [Buffer.allocUnsafe(per * size), Buffer.allocUnsafe(per * size)]);
    const readSide = async (side: Side, buf: Buffer, k: number): Promise<number> => {
      const count = Math.max(0, Math.min(ends[k]!, side.pages) - starts[k]! + 1);
      if (count === 0) return 0;
      const got = await readAt(side.fd, buf, count * size, (starts[k]! - 1) * size);
      if (got !== count * size) throw new Corrupt();
      return count;
    };
    const readRun = async (k: number): Promise<[number, number]> => {
      // allSettled: both reads are done before a failure closes the files.
      const [x, y] = await Promise.allSettled([
        readSide(this.#a, bufs[k % 2]![0]!, k),
        readSide(this.#b, bufs[k % 2]![1]!, k),
      ]);
      if (x.status === "rejected") throw x.reason;
      if (y.status === "rejected") throw y.reason;
      return [x.value, y.value];
    };
    let next: Promise<[number, number]> | null = readRun(0);
    try {
      for (let k = 0; k < starts.length; k++) {
        const [countA, countB]: [number, number] = await next!;
        next = k + 1 < starts.length ? readRun(k + 1) : null;
        this.#compareLeaves(
          starts[k]!,
          ends[k]!,
          bufs[k % 2]![0]!,
          countA,
          bufs[k % 2]![1]!,
          countB,
        );
      }
    } finally {
      // A read still in flight is done before the files are closed.
      await next?.catch(() => {});
    }
  }

  #compareLeaves(
    first: number,
    last: number,
    bufA: Buffer,
    countA: number,
    bufB: Buffer,
    countB: number,
  ): void {
    const size = this.#size;
    const pages = last - first + 1;
    const same = countA === pages && countB === pages &&
      bufA.compare(bufB, 0, pages * size, 0, pages * size) === 0;
    for (let p = first; p <= last; p++) {
      const bits = this.#leaves[p]!;
      if (bits === 0) continue;
      const at = (p - first) * size;
      const inA = p - first < countA;
      const inB = p - first < countB;
      if ((bits & 3) !== 0) this.#leafType(this.#a, p, bits & 3, bufA[at]);
      if ((bits & 12) !== 0) this.#leafType(this.#b, p, (bits >> 2) & 3, bufB[at]);
      if (this.#compared[p] === 0) {
        this.#compared[p] = 1;
        const equal = same ||
          (inA && inB && bufA.compare(bufB, at, at + size, at, at + size) === 0);
        if (!equal) this.#markDirty(p);
      }
      if (this.#dirty[p] === 1) continue;
      // Clean: the same bytes on both sides, so the same overflow chains.
      const page = (bits & 3) !== 0 ? bufA : bufB;
      const side = (bits & 3) !== 0 ? 0 : 1;
      const type = page[at]!;
      const max = maxLocal(this.#usable, type);
      const cells = page[at + 3]! << 8 | page[at + 4]!;
      const low = 8 + 2 * cells;
      const high = this.#usable - 4;
      if (low > this.#usable) throw new Corrupt();
      for (let i = at + 8; i < at + low; i += 2) {
        const cell = page[i]! << 8 | page[i + 1]!;
        if (cell < low || cell > high) throw new Corrupt();
        // The common case inline: a one-byte payload size that fits.
        const b0 = page[at + cell]!;
        if (b0 < 0x80 && b0 <= max) continue;
        this.#spill(page, at, type, cell, p, side);
      }
    }
  }

  /** Checks that leaf `p` of `side` has the type its tree wants (bit 1: table, 2: index). */
  #leafType(side: Side, p: number, kind: number, type: number | undefined): void {
    if (type !== (kind === 1 ? TABLE_LEAF : INDEX_LEAF)) throw new Corrupt();
    side.types[p] = type;
  }

  /**
   * When the cell at `at` of the page at `base` of `buf` (page `p`, of a
   * `type`) spills its payload, lists its overflow chain.
   */
  #spill(buf: Buffer, base: number, type: number, at: number, p: number, side: number): void {
    const usable = this.#usable;
    const start = base + (type === INDEX_INTERIOR ? at + 4 : at);
    const end = base + usable;
    const max = maxLocal(usable, type);
    // Most payload sizes are one or two varint bytes and stay on the page.
    const b0 = buf[start]!;
    const b1 = buf[start + 1]!;
    if (b0 < 0x80 ? b0 <= max : b1 < 0x80 && ((b0 & 0x7f) << 7 | b1) <= max) return;
    let [payload, q] = varint(buf, start, end);
    if (type === TABLE_LEAF) q = varint(buf, q, end)[1];
    if (payload <= max) return;
    if (payload > 2 ** 32) throw new Corrupt();
    const local = localPayload(payload, usable, type);
    if (q + local + 4 > end) throw new Corrupt();
    this.#chains.push(
      p,
      side,
      buf.readUInt32BE(q + local),
      Math.ceil((payload - local) / (usable - 4)),
    );
  }

  /** Follows each listed chain and marks the page holding its cell when an overflow page differs. */
  #compareChains(): void {
    const chains = this.#chains;
    const per = this.#a.chunks.per;
    // Whole chunks compare first: one memcmp of 256 KiB rather than 64.
    const same = new Uint8Array(Math.ceil(this.#dirty.length / per) + 1);
    const differs = (p: number, page: Buffer, own: Side, other: Side): boolean => {
      if (p > other.pages) return true;
      const c = Math.floor((p - 1) / per);
      if (same[c] === 0) {
        const x = own.chunks.chunk(p);
        const y = other.chunks.chunk(p);
        same[c] = x.bytes === y.bytes && x.buf.compare(y.buf, 0, y.bytes, 0, x.bytes) === 0 ? 1 : 2;
      }
      return same[c] === 2 && !page.equals(other.chunks.page(p));
    };
    for (let i = 0; i < chains.length; i += 4) {
      const holder = chains[i]!;
      if (this.#dirty[holder] === 1) continue;
      const [own, other] = chains[i + 1] === 0 ? [this.#a, this.#b] : [this.#b, this.#a];
      let p = chains[i + 2]!;
      for (let k = chains[i + 3]!; k > 0; k--) {
        if (p < 2 || p > own.pages || own.reached[p] === 1) throw new Corrupt();
        own.reached[p] = 1;
        const page = own.chunks.page(p);
        const next = page.readUInt32BE(0);
        if (differs(p, page, own, other)) {
          this.#markDirty(holder);
          break;
        }
        p = next;
      }
    }
  }
}
