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
 * A leaf's range is not read from the leaf itself but from the divider keys
 * of its parents (a table b-tree's interior cell (child, k) says every rowid
 * in child is <= k and above the previous cell's k), so only interior pages
 * are ever read: about 1% of a table's pages. The divider range holds the
 * leaf's rows and no row of another leaf of that side, so it is a safe
 * superset, and neighbouring changed leaves give touching ranges that merge
 * into one query instead of one per leaf.
 *
 * Worked example: leaves [2,3,4,5] before, with dividers 199, 299, 399.
 * After, an update changed page 3 and inserts split page 4 into 4 and 9:
 * leaves [2,3,4,9,5], dividers 199, 299, 350, 399. Clean: pages 2 and 5.
 * Ranges: page 3's (199, 299] on both sides, page 4's (299, 399] before,
 * pages 4's (299, 350] and 9's (350, 399] after; merged: [200, 399]. Rows
 * up to 199 and above 399 are skipped.
 *
 * Overflow pages are the one gap in that argument (a clean leaf can point at
 * an overflow page that changed), so when a differing page is neither a
 * b-tree page nor a free page on either side, nothing is skipped. A diff
 * limited to some tables (`--table`) reads their trees only (_table_scan.ts),
 * so it cannot know every differing page; that scan compares the overflow
 * pages of each clean leaf instead and marks the leaf when one differs. Nothing is
 * skipped either when a side has a non-empty -wal file (the file on disk is
 * not the whole database) or the page sizes differ (_page_scan.ts reads both
 * files and notes the differing pages and each page's type). Rowid ranges
 * apply to rowid tables. A WITHOUT ROWID table is skipped only when its
 * whole tree, interior pages included, is the same pages on both sides: it
 * is an index b-tree, whose interior cells are rows that no leaf holds.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import * as fs from "node:fs";
import type { PageScan, ScannedFile } from "./_page_scan.ts";
import type { SideSchema, TableSchema } from "./schema.ts";
import { normalizeSql } from "./schema.ts";
import { RowidRanges } from "./_rowid_ranges.ts";
import {
  FormatError,
  INDEX_INTERIOR,
  INDEX_LEAF,
  TABLE_INTERIOR,
  TABLE_LEAF,
  VarintReader,
} from "./_btree_format.ts";
import {
  type CellResidue,
  compareCells,
  compareIndexCells,
  type KeySink,
} from "./_cell_compare.ts";
import { TreeLeaves } from "./_tree_leaves.ts";

export { RowidRanges };

/** What the page comparison learned about one table. */
export interface TablePages {
  /** Every leaf of the table is the same byte-identical page on both sides. */
  readonly identical: boolean;
  /** Rowid ranges that may differ (re-iterable); null means compare the whole table. */
  readonly ranges: RowidRanges | null;
  /**
   * The rowids of each side that may differ, from comparing the cells of
   * changed leaves (_cell_compare.ts), for a table whose rows pair by their
   * record (no key, or a key that is not the rowid); null when not known.
   * Rows outside them have an identical partner on the other side. (For a
   * table keyed by its rowid, `ranges` already holds the cell residue.)
   */
  readonly residue?: CellResidue | null;
  /**
   * For a WITHOUT ROWID table: compares its cells by record and tells the
   * sink the key of each row that may differ (see _cell_compare.ts); false
   * when the cells could not be read, and then every row must be compared.
   * Rows whose key was not told have an identical partner on the other side.
   */
  readonly residueKeys?: ((sink: KeySink) => boolean) | null;
}

/** The page comparison of two files. */
export interface PagePlan {
  /** What is known of table `name`, or null when it must be compared whole. */
  table(name: string): TablePages | null;
}

class Corrupt extends Error {}

/** A divider key beyond 2^53: that table is compared whole (sound, and rare). */
class BigKey extends Error {}

/** The child pages and divider keys of one interior page, copied out of it. */
interface Level {
  readonly children: Uint32Array;
  readonly keys: Float64Array;
}

/** Reads whole pages of one scanned file (interior and freelist pages only). */
class Reader {
  readonly #file: ScannedFile;
  readonly #size: number;
  readonly #buf: Buffer;
  /**
   * One {@link Level} per depth of the walk, reused by every interior page
   * at that depth: arrays per page made Bun's heap grow by tens of MB on a
   * 20M-row table's walks.
   */
  readonly #levels: Level[] = [];
  constructor(file: ScannedFile, pageSize: number) {
    this.#file = file;
    this.#size = pageSize;
    this.#buf = Buffer.alloc(pageSize);
  }
  get file(): ScannedFile {
    return this.#file;
  }
  /** The arrays for depth `depth`, able to hold an interior page's cells. */
  level(depth: number): Level {
    // An interior cell takes at least 6 bytes (pointer, child, a 1-byte key).
    const cells = Math.ceil(this.#size / 6) + 1;
    return this.#levels[depth] ??= {
      children: new Uint32Array(cells),
      keys: new Float64Array(cells),
    };
  }
  /** Page `n` (1-based); the buffer is reused by the next call. */
  page(n: number): Buffer {
    if (n < 1 || n > this.#file.pages) throw new Corrupt();
    const got = fs.readSync(this.#file.fd, this.#buf, 0, this.#size, (n - 1) * this.#size);
    if (got !== this.#size) throw new Corrupt();
    return this.#buf;
  }
}

/** Reads the divider keys (one reader for all: a 20M-row table has 500k of them). */
const dividers = new VarintReader(new Uint8Array(0));

/** A varint as a signed integer, when it is a safe one. */
function varintKey(p: Buffer, at: number): number {
  dividers.buf = p;
  dividers.at = at;
  dividers.end = p.length;
  // Nine bytes (negative, or beyond 2^53) read as more than 2^53 too.
  const v = dividers.read();
  if (v > Number.MAX_SAFE_INTEGER) throw new BigKey();
  return v;
}

/**
 * Walks the b-tree at `root` in key order, reading interior pages only (the
 * scan knows which pages are leaves), marking every page in `owned` and
 * calling `leaf` with each leaf and, with `bounds`, its rowid bounds from
 * the dividers (-Infinity..Infinity at the ends; not read otherwise).
 *
 * @returns whether the tree has a page marked in `dirty`
 */
function walk(
  reader: Reader,
  root: number,
  visit: {
    owned?: Uint8Array;
    bounds?: boolean;
    leaf?: (page: number, lo: number, hi: number) => void;
    dirty?: Uint8Array;
  },
): boolean {
  const { types, pages } = reader.file;
  const { owned, leaf, dirty } = visit;
  let touched = false;
  const go = (n: number, lo: number, hi: number, depth: number): void => {
    if (depth > 40 || n < 1 || n > pages) throw new Corrupt();
    if (owned !== undefined) owned[n] = 1;
    if (dirty?.[n] === 1) touched = true;
    const type = types[n]!;
    if (type === TABLE_LEAF || type === INDEX_LEAF) {
      leaf?.(n, lo, hi);
      return;
    }
    if (type !== TABLE_INTERIOR && type !== INDEX_INTERIOR) throw new Corrupt();
    const p = reader.page(n);
    const h = n === 1 ? 100 : 0;
    if (p[h] !== type) throw new Corrupt();
    const cells = p.readUInt16BE(h + 3);
    const keyed = visit.bounds === true && type === TABLE_INTERIOR;
    // Copy what is needed: the recursion reuses the reader's buffer.
    const { children, keys } = reader.level(depth);
    if (cells >= children.length) throw new Corrupt();
    for (let i = 0; i < cells; i++) {
      const at = p.readUInt16BE(h + 12 + 2 * i);
      children[i] = p.readUInt32BE(at);
      if (keyed) keys[i] = varintKey(p, at + 4);
    }
    children[cells] = p.readUInt32BE(h + 8);
    let from = lo;
    for (let i = 0; i <= cells; i++) {
      const to = keyed && i < cells ? keys[i]! : hi;
      go(children[i]!, from, to, depth + 1);
      if (keyed && i < cells) from = keys[i]! + 1;
    }
  };
  go(root, -Infinity, Infinity, 0);
  return touched;
}

function markFreelist(reader: Reader, owned: Uint8Array): void {
  let n = reader.file.freelistTrunk;
  let guard = 0;
  while (n !== 0) {
    if (++guard > owned.length) throw new Corrupt();
    const p = reader.page(n);
    owned[n] = 1;
    const count = p.readUInt32BE(4);
    for (let i = 0; i < count && 8 + 4 * i + 4 <= p.length; i++) {
      const leaf = p.readUInt32BE(8 + 4 * i);
      if (leaf < owned.length) owned[leaf] = 1;
    }
    n = p.readUInt32BE(0);
  }
}

/**
 * Plans, per table, what can be skipped, from a scan of the two files.
 * Tables are planned when asked, one at a time, so memory holds one table's
 * ranges, not every table's.
 *
 * @param scan the page scan of the two files (kept open until the caller closes it)
 * @param sides both sides' schemas (for root pages)
 * @returns the plan, or null when nothing can be skipped safely
 */
export function pagePlan(
  scan: PageScan,
  sides: { before: SideSchema; after: SideSchema },
): PagePlan | null {
  try {
    const planned = plan(scan, sides);
    if (planned === null) return null;
    // A damaged page found later, planning one table, means compare it whole:
    // SQLite then reports the damage, naming the file.
    return {
      table(name) {
        try {
          return planned.table(name);
        } catch (e) {
          if (damaged(e)) return null;
          throw e;
        }
      },
    };
  } catch (e) {
    if (damaged(e)) return null;
    throw e;
  }
}

// A corrupt page: our own checks, or a cell offset past the page's end (a
// RangeError from Buffer's readers).
function damaged(e: unknown): boolean {
  return e instanceof Corrupt || e instanceof BigKey || e instanceof FormatError ||
    e instanceof RangeError;
}

function plan(scan: PageScan, sides: { before: SideSchema; after: SideSchema }): PagePlan | null {
  const ra = new Reader(scan.before, scan.pageSize);
  const rb = new Reader(scan.after, scan.pageSize);
  const n = scan.dirty.length;
  // Tables whose before tree has no differing page. With the same root on
  // both sides the after tree is then the same pages (each clean page has
  // the same children), so the table is identical. With no differing page
  // at all, that holds for every table.
  const clean = new Set<string>();
  const cleanTree = (name: string): boolean => {
    const ta = sides.before.tables.get(name);
    const tb = sides.after.tables.get(name);
    return ta !== undefined && tb !== undefined && ta.rootPage === tb.rootPage &&
      (scan.dirtyCount === 0 || clean.has(name));
  };
  const { scope } = scan;
  if (scope !== null) {
    // Only the named trees were compared, overflow pages included: a clean
    // leaf whose overflow page changed is marked changed (_table_scan.ts).
    for (const t of sides.before.tables.values()) {
      if (scope.before.has(t.rootPage) && !walk(ra, t.rootPage, { dirty: scan.dirty })) {
        clean.add(t.name);
      }
    }
  } else if (scan.dirtyCount > 0) {
    // A differing page that is no b-tree or free page on either side is an
    // overflow (or pointer-map) page: clean leaves may point at it.
    const owned = new Uint8Array(n);
    const { dirty } = scan;
    for (const [side, reader] of [[sides.before, ra], [sides.after, rb]] as const) {
      walk(reader, 1, { owned });
      const walked = new Set<number>();
      for (const t of side.tables.values()) {
        if (t.rootPage <= 0) continue;
        walked.add(t.rootPage);
        // The after side of a clean tree is the same pages, owned already.
        if (side === sides.after && cleanTree(t.name)) continue;
        const touched = walk(reader, t.rootPage, { owned, dirty });
        if (side === sides.before && !touched) clean.add(t.name);
      }
      // Every other b-tree: indexes, the automatic ones too, so that their
      // changed pages are not taken for overflow pages.
      for (const root of side.roots) {
        if (root > 1 && !walked.has(root)) walk(reader, root, { owned });
      }
      markFreelist(reader, owned);
    }
    for (let p = 2; p < n; p++) if (dirty[p] === 1 && owned[p] === 0) return null;
  }
  const marks = new Uint8Array(n);
  const { usable } = scan;
  const tablePages = (name: string): TablePages | null => {
    const ta = sides.before.tables.get(name);
    const tb = sides.after.tables.get(name);
    if (ta === undefined || tb === undefined || ta.rootPage <= 0 || tb.rootPage <= 0) return null;
    if (scope !== null && !(scope.before.has(ta.rootPage) && scope.after.has(tb.rootPage))) {
      return null;
    }
    if (normalizeSql(ta.sql) !== normalizeSql(tb.sql)) return null;
    if (cleanTree(name)) return { identical: true, ranges: new RowidRanges() };
    // Page-indexed marks, not Sets: a 20M-row table has 500k leaves.
    marks.fill(0);
    walk(ra, ta.rootPage, { leaf: (p) => void (marks[p]! |= 1) });
    walk(rb, tb.rootPage, { leaf: (p) => void (marks[p]! |= 2) });
    const cleanLeaf = (p: number): boolean => scan.dirty[p] === 0 && marks[p] === 3;
    // A WITHOUT ROWID table is an index b-tree, whose interior pages hold
    // rows too (each divider is a row, kept nowhere else): clean leaves
    // prove nothing about them, so only a clean tree is identical. Its
    // residue is compared by record, interior cells included.
    if (!rowidTable(ta) || !rowidTable(tb)) {
      const keyColumns = ta.key.length;
      const keys = ta.withoutRowid && tb.withoutRowid && keyColumns > 0
        ? (sink: KeySink): boolean =>
          compareIndexCells(
            {
              before: { fd: scan.before.fd, root: ta.rootPage, types: scan.before.types },
              after: { fd: scan.after.fd, root: tb.rootPage, types: scan.after.types },
            },
            { size: scan.pageSize, usable },
            keyColumns,
            cleanLeaf,
            sink,
          )
        : null;
      return { identical: false, ranges: null, residueKeys: keys };
    }
    // Below the page: the cells of the changed leaves, found as the two
    // walks go (a list of them would grow with the table), compared in step.
    const byRowid = ta.keyKind === "rowid" && tb.keyKind === "rowid";
    const before = new TreeLeaves(scan.before, scan.pageSize, ta.rootPage, cleanLeaf);
    const after = new TreeLeaves(scan.after, scan.pageSize, tb.rootPage, cleanLeaf);
    const residue = compareCells(
      {
        before: { fd: scan.before.fd, leaves: before },
        after: { fd: scan.after.fd, leaves: after },
      },
      { size: scan.pageSize, usable },
      byRowid ? "rowid" : "record",
    );
    if (residue !== null) {
      if (before.count + after.count === 0) return { identical: true, ranges: new RowidRanges() };
      // Record matching: rows outside the residue have an identical partner;
      // no page ranges are needed on top.
      return byRowid
        ? { identical: false, ranges: residue.before }
        : { identical: false, ranges: null, residue };
    }
    // The cells could not be read: the rowid ranges of the changed leaves.
    let identical = true;
    const rangesOf = (reader: Reader, root: number): RowidRanges => {
      const out = new RowidRanges();
      walk(reader, root, {
        bounds: true,
        leaf: (p, lo, hi) => {
          if (cleanLeaf(p)) return;
          identical = false;
          out.push(lo, hi);
        },
      });
      return out;
    };
    let ranges: RowidRanges;
    try {
      ranges = RowidRanges.union(rangesOf(ra, ta.rootPage), rangesOf(rb, tb.rootPage));
    } catch (e) {
      if (e instanceof BigKey) return null;
      throw e;
    }
    return identical
      ? { identical: true, ranges: new RowidRanges() }
      : { identical: false, ranges };
  };
  return { table: tablePages };
}

function rowidTable(t: TableSchema): boolean {
  return !t.withoutRowid && t.module === null;
}
