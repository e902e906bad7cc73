/**
 * Skipping what is byte-identical: before any row is compared, the two files
 * are compared page by page, and each table's b-tree is walked on both sides
 * (interior pages only) to learn which of its leaf pages changed.
 *
 * Why this is sound: if page P is a leaf of table T in both files and its
 * bytes are identical, then in each file every row of T whose key lies in
 * [first key on P, last key on P] is on P (a b-tree's leaves hold disjoint,
 * ordered key ranges), so both files hold exactly the same rows in that
 * range. A row of either side that is not on such a clean leaf lies on one of
 * that side's other leaves, whose key ranges are collected; only rows inside
 * those ranges are compared. A table whose leaves are all clean and the same
 * on both sides is identical and not read at all.
 *
 * Worked example: leaves [2,3,4] before and [2,3,9] after, page 3 differs,
 * page 4 (keys 300-399) was split into 4 and 9 by inserts. Clean: page 2.
 * Ranges: page 3's keys before and after, page 4's keys before, pages 4 and
 * 9's keys after; merged, say [200, 420]. Everything below 200 is skipped.
 *
 * Overflow pages are the one gap in that argument (a clean leaf can point at
 * an overflow page that changed), so when a differing page is neither a
 * b-tree page nor a free page on either side, nothing is skipped. Nothing is
 * skipped either when a side has a non-empty -wal file (the file on disk is
 * not the whole database) or the page sizes differ. Rowid ranges apply to
 * rowid tables; WITHOUT ROWID tables and tables keyed by a non-rowid primary
 * key are only skipped when wholly identical.
 *
 * @module
 */
import * as fs from "node:fs";
import { Buffer } from "node:buffer";
import type { SideSchema, TableSchema } from "./schema.ts";
import { normalizeSql } from "./schema.ts";
import type { RowidRange } from "./table_data.ts";

/** What the page comparison learned about one table. */
export interface TablePages {
  /** Every leaf of the table is the same byte-identical page on both sides. */
  readonly identical: boolean;
  /** Rowid ranges that may differ; null means compare the whole table. */
  readonly ranges: readonly RowidRange[] | null;
}

/** The page comparison of two files. */
export interface PagePlan {
  /** What is known of table `name`, or null when it must be compared whole. */
  table(name: string): TablePages | null;
}

const CHUNK_PAGES = 256;

interface FileInfo {
  readonly fd: number;
  readonly pageSize: number;
  readonly reserved: number;
  readonly pages: number;
  readonly freelistTrunk: number;
}

function walSize(path: string): number {
  try {
    return fs.statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}

function openInfo(path: string): FileInfo | null {
  const size = fs.statSync(path).size;
  if (size < 512) return null;
  const fd = fs.openSync(path, "r");
  const head = Buffer.alloc(100);
  fs.readSync(fd, head, 0, 100, 0);
  const raw = head.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  return {
    fd,
    pageSize,
    reserved: head[20]!,
    pages: Math.floor(size / pageSize),
    freelistTrunk: head.readUInt32BE(32),
  };
}

class Reader {
  readonly #info: FileInfo;
  readonly #buf: Buffer;
  constructor(info: FileInfo) {
    this.#info = info;
    this.#buf = Buffer.alloc(info.pageSize);
  }
  /** Page `n` (1-based); the buffer is reused by the next call. */
  page(n: number): Buffer | null {
    if (n < 1 || n > this.#info.pages) return null;
    const got = fs.readSync(
      this.#info.fd,
      this.#buf,
      0,
      this.#info.pageSize,
      (n - 1) * this.#info.pageSize,
    );
    return got === this.#info.pageSize ? this.#buf : null;
  }
}

class Corrupt extends Error {}

/** Leaves in key order and interior pages of the b-tree at `root`. */
function walk(reader: Reader, root: number, owned: Uint8Array): number[] {
  const leaves: number[] = [];
  const visit = (n: number, depth: number): void => {
    if (depth > 40) throw new Corrupt();
    const p = reader.page(n);
    if (p === null) throw new Corrupt();
    const h = n === 1 ? 100 : 0;
    const type = p[h]!;
    if (type === 0x0d || type === 0x0a) {
      leaves.push(n);
      owned[n] = 1;
      return;
    }
    if (type !== 0x05 && type !== 0x02) throw new Corrupt();
    owned[n] = 1;
    const cells = p.readUInt16BE(h + 3);
    const children: number[] = [];
    for (let i = 0; i < cells; i++) children.push(p.readUInt32BE(p.readUInt16BE(h + 12 + 2 * i)));
    children.push(p.readUInt32BE(h + 8));
    for (const c of children) visit(c, depth + 1);
  };
  visit(root, 0);
  return leaves;
}

function markFreelist(reader: Reader, trunk: number, owned: Uint8Array): void {
  let n = trunk;
  let guard = 0;
  while (n !== 0) {
    if (++guard > owned.length) throw new Corrupt();
    const p = reader.page(n);
    if (p === null) throw new Corrupt();
    owned[n] = 1;
    const count = p.readUInt32BE(4);
    for (let i = 0; i < count && 8 + 4 * i + 4 <= p.length; i++) {
      const leaf = p.readUInt32BE(8 + 4 * i);
      if (leaf < owned.length) owned[leaf] = 1;
    }
    n = p.readUInt32BE(0);
  }
}

function varint(p: Buffer, at: number): [bigint, number] {
  let v = 0n;
  for (let i = 0; i < 8; i++) {
    const b = p[at + i]!;
    v = (v << 7n) | BigInt(b & 0x7f);
    if ((b & 0x80) === 0) return [v, at + i + 1];
  }
  v = (v << 8n) | BigInt(p[at + 8]!);
  return [v, at + 9];
}

/** The first and last rowid on a table leaf page, or null for an empty one. */
function leafRange(reader: Reader, n: number): RowidRange | null {
  const p = reader.page(n);
  if (p === null) throw new Corrupt();
  const h = n === 1 ? 100 : 0;
  if (p[h] !== 0x0d) throw new Corrupt();
  const cells = p.readUInt16BE(h + 3);
  if (cells === 0) return null;
  const rowid = (i: number): bigint => {
    const [, at] = varint(p, p.readUInt16BE(h + 8 + 2 * i));
    return BigInt.asIntN(64, varint(p, at)[0]);
  };
  return [rowid(0), rowid(cells - 1)];
}

function mergeRanges(ranges: RowidRange[]): RowidRange[] {
  ranges.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: [bigint, bigint][] = [];
  for (const [lo, hi] of ranges) {
    const last = out[out.length - 1];
    if (last !== undefined && lo <= last[1] + 1n) {
      if (hi > last[1]) last[1] = hi;
    } else out.push([lo, hi]);
  }
  return out;
}

/**
 * Compares two files page by page and plans, per table, what can be skipped.
 *
 * @param before the before file
 * @param after the after file
 * @param sides both sides' schemas (for root pages)
 * @returns the plan, or null when nothing can be skipped safely
 */
export function pagePlan(
  before: string,
  after: string,
  sides: { before: SideSchema; after: SideSchema },
): PagePlan | null {
  if (walSize(before) > 0 || walSize(after) > 0) return null;
  const a = openInfo(before);
  const b = openInfo(after);
  try {
    if (a === null || b === null) return null;
    if (a.pageSize !== b.pageSize || a.reserved !== b.reserved) return null;
    return plan(a, b, sides);
  } catch (e) {
    if (e instanceof Corrupt) return null;
    throw e;
  } finally {
    if (a !== null) fs.closeSync(a.fd);
    if (b !== null) fs.closeSync(b.fd);
  }
}

function comparePages(a: FileInfo, b: FileInfo, dirty: Uint8Array): void {
  const size = a.pageSize;
  const bufA = Buffer.alloc(size * CHUNK_PAGES);
  const bufB = Buffer.alloc(size * CHUNK_PAGES);
  const common = Math.min(a.pages, b.pages);
  for (let first = 1; first <= common; first += CHUNK_PAGES) {
    const count = Math.min(CHUNK_PAGES, common - first + 1);
    const bytes = count * size;
    const gotA = fs.readSync(a.fd, bufA, 0, bytes, (first - 1) * size);
    const gotB = fs.readSync(b.fd, bufB, 0, bytes, (first - 1) * size);
    if (gotA !== bytes || gotB !== bytes) throw new Corrupt();
    if (bufA.compare(bufB, 0, bytes, 0, bytes) === 0) continue;
    for (let i = 0; i < count; i++) {
      const s = i * size;
      if (bufA.compare(bufB, s, s + size, s, s + size) !== 0) dirty[first + i] = 1;
    }
  }
  for (let p = common + 1; p < dirty.length; p++) dirty[p] = 1;
  dirty[1] = 0; // the header and sqlite_schema: the schema is compared in SQL
}

function plan(
  a: FileInfo,
  b: FileInfo,
  sides: { before: SideSchema; after: SideSchema },
): PagePlan {
  const n = Math.max(a.pages, b.pages) + 1;
  const dirty = new Uint8Array(n);
  comparePages(a, b, dirty);
  const ra = new Reader(a);
  const rb = new Reader(b);
  const ownedA = new Uint8Array(n);
  const ownedB = new Uint8Array(n);
  const trees = (side: SideSchema, reader: Reader, owned: Uint8Array): Map<string, number[]> => {
    const out = new Map<string, number[]>();
    for (const t of side.tables.values()) {
      if (t.rootPage > 0) out.set(t.name, walk(reader, t.rootPage, owned));
    }
    for (const o of side.objects) if (o.rootPage > 0) walk(reader, o.rootPage, owned);
    return out;
  };
  const leavesA = trees(sides.before, ra, ownedA);
  const leavesB = trees(sides.after, rb, ownedB);
  markFreelist(ra, a.freelistTrunk, ownedA);
  markFreelist(rb, b.freelistTrunk, ownedB);
  for (let p = 2; p < n; p++) {
    // A differing page that is no b-tree or free page on either side is an
    // overflow (or pointer-map) page: clean leaves may point at it.
    if (dirty[p] === 1 && ownedA[p] === 0 && ownedB[p] === 0) return { table: () => null };
  }
  const marks = new Uint8Array(n);
  const tablePages = (name: string): TablePages | null => {
    const ta = sides.before.tables.get(name);
    const tb = sides.after.tables.get(name);
    const la = leavesA.get(name);
    const lb = leavesB.get(name);
    if (ta === undefined || tb === undefined || la === undefined || lb === undefined) return null;
    if (normalizeSql(ta.sql) !== normalizeSql(tb.sql)) return null;
    // Page-indexed marks, not Sets: a 20M-row table has 500k leaves.
    const mark = (leaves: readonly number[], bit: number): void => {
      for (const p of leaves) marks[p]! |= bit;
    };
    marks.fill(0);
    mark(la, 1);
    mark(lb, 2);
    const clean = (p: number): boolean => dirty[p] === 0 && marks[p] === 3;
    if (la.length === lb.length && la.every((p, i) => p === lb[i] && clean(p))) {
      return { identical: true, ranges: [] };
    }
    if (!rowidTable(ta) || !rowidTable(tb)) return null;
    const ranges: RowidRange[] = [];
    for (const p of la) {
      if (clean(p)) continue;
      const r = leafRange(ra, p);
      if (r !== null) ranges.push(r);
    }
    for (const p of lb) {
      if (clean(p)) continue;
      const r = leafRange(rb, p);
      if (r !== null) ranges.push(r);
    }
    return { identical: false, ranges: mergeRanges(ranges) };
  };
  // Everything is read now: the files are closed when this returns.
  const result = new Map<string, TablePages | null>();
  for (const name of sides.before.tables.keys()) result.set(name, tablePages(name));
  return { table: (name) => result.get(name) ?? null };
}

function rowidTable(t: TableSchema): boolean {
  return !t.withoutRowid && t.module === null;
}
