/**
 * The comparison of one table's two b-trees, leaf by leaf and cell by cell,
 * in one pass over each (lib/sqlite_format/cell_stream.ts): the page
 * comparison, the changed cells and, for a caller that decodes them, the
 * rows all come from it.
 *
 * Why skipping a leaf is sound: if page P is a leaf of the table's tree in
 * both files, holds the same bytes, and both walks are at its first cell,
 * then in each file every row whose key lies in [first key on P, last key
 * on P] is on P (a b-tree's leaves hold disjoint, ordered key ranges, which
 * the walks check), so both files hold the same rows there. Its overflow
 * chains are compared too: the same cell can point at a changed overflow
 * page. A leaf is skipped only at its first cell on both sides, so the
 * walks need no map of the other file's pages.
 *
 * Two ways to match cells:
 * - by rowid (tables keyed by their rowid): the two walks merge in rowid
 *   order; a rowid one side has alone is removed or added, and a rowid both
 *   have is changed when the two cells' payloads differ.
 * - by record (tables without a key, rowid tables keyed by other columns,
 *   WITHOUT ROWID tables): a cell is the same row when its payload equals a
 *   cell of the other side, wherever it is. The record holds every column,
 *   the key included, so equal records are equal rows with equal keys;
 *   cancelling them in pairs leaves the multiset difference alone. The two
 *   sides are walked in step, and after a mismatch the next
 *   {@link LOOKAHEAD} cells of each side are tried, so a deleted or inserted
 *   row, or every row moved by one after a `VACUUM`, costs one residue row
 *   and not the rest of the table.
 *
 * Payloads are compared as bytes, so a cell found different may still be
 * equal to its partner as values (an integer written in more bytes than
 * needed, 1 and 1.0): whoever decodes it decides.
 *
 * Worked example (by rowid): leaves [2,3,4,5] before, dividers 199, 299,
 * 399; after, an update changed page 3 and inserts split page 4 into 4 and
 * 9. Both walks start at page 2, the same bytes: skipped. Then page 3 on
 * both sides, different bytes: its cells merge, the updated one is
 * changed. Then page 4 before, page 4 after (now holding fewer rows, so
 * other bytes): merged with 4 and then 9 after, the inserted rows added.
 * Then page 5 on both sides at its first cell, the same bytes: skipped.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { CellStream } from "../sqlite_format/cell_stream.ts";
import type { TreeKind } from "../sqlite_format/btree_page.ts";
import type { KeyOrder } from "../sqlite_format/key_order.ts";
import type { PageOwners } from "../sqlite_format/page_owners.ts";
import type { PageSource } from "../sqlite_format/page_source.ts";

/**
 * One side of a table: its file, the file's page owners (null: a walk of
 * pages checked before, which claims nothing) and the tree's root.
 */
export interface TreeSide {
  readonly src: PageSource;
  readonly owners: PageOwners | null;
  readonly root: number;
  /** For an index tree: its key order, checked as the walk reads it. */
  readonly order?: KeyOrder | null;
}

/** Cells tried on each side after a mismatch, in record matching. */
export const LOOKAHEAD = 4;

/** Told each row whose cells differ, by rowid, in rowid order: the current cell of the stream(s). */
export interface RowidDiffer {
  /** The current cell of `a`: a rowid only the before side has. */
  removed(a: CellStream): void;
  /** The current cell of `b`: a rowid only the after side has. */
  added(b: CellStream): void;
  /** The current cells of `a` and `b`: one rowid, other payloads. */
  changed(a: CellStream, b: CellStream): void;
}

/** Whether two leaves' bytes are the same (one native comparison, no view made). */
function samePage(x: CellStream, y: CellStream, size: number): boolean {
  const p = x.leafBytes();
  const q = y.leafBytes();
  const a = p.buf;
  if (!(a instanceof Buffer)) {
    return Buffer.compare(
      a.subarray(p.base, p.base + size),
      q.buf.subarray(q.base, q.base + size),
    ) === 0;
  }
  return a.compare(q.buf, q.base, q.base + size, p.base, p.base + size) === 0;
}

/** Skips the current leaf on both sides when it is the same page holding the same rows. */
function skipSameLeaf(a: CellStream, b: CellStream): boolean {
  const la = a.leafStart();
  if (la === 0 || la !== b.leafStart()) return false;
  if (!samePage(a, b, a.src.pageSize) || !a.sameLeaf(b)) return false;
  a.skipLeaf();
  b.skipLeaf();
  return true;
}

/** Opens both sides' cell streams, runs `f` and closes them, whatever happens. */
async function withStreams(
  a: TreeSide,
  b: TreeSide,
  kind: TreeKind,
  f: (sa: CellStream, sb: CellStream) => Promise<void>,
): Promise<void> {
  const check = (s: TreeSide) => (s.owners === null ? "none" : "expect");
  const sa = new CellStream(a.src, a.root, kind, a.owners, check(a));
  sa.order = a.order ?? null;
  let sb: CellStream | null = null;
  try {
    sb = new CellStream(b.src, b.root, kind, b.owners, check(b));
    sb.order = b.order ?? null;
    await f(sa, sb);
  } catch (e) {
    // The reads still under way are waited for; what closing finds after
    // a failure (the chains of the leaves in view) is not reported.
    for (const s of [sa, sb]) await s?.close().catch(() => {});
    throw e;
  }
  // Closing checks the chains of the leaves still in view.
  await sa.close();
  await sb.close();
}

/**
 * Compares two table b-trees by rowid (see the module documentation),
 * telling `sink` of every rowid whose cells differ.
 *
 * @param a the before side
 * @param b the after side
 * @param sink what is told
 * @returns when both trees are read
 */
export function compareByRowid(a: TreeSide, b: TreeSide, sink: RowidDiffer): Promise<void> {
  return withStreams(a, b, "table", async (sa, sb) => {
    for (;;) {
      const pa = sa.ensure(1);
      if (pa !== null) await pa;
      const pb = sb.ensure(1);
      if (pb !== null) await pb;
      if (skipSameLeaf(sa, sb)) continue;
      const inA = sa.locate(0);
      const inB = sb.locate(0);
      if (!inA && !inB) return;
      if (!inB) {
        sink.removed(sa);
        sa.skip(1);
        continue;
      }
      if (!inA) {
        sink.added(sb);
        sb.skip(1);
        continue;
      }
      // Both leaves in hand: merge their cells until one of them ends.
      const x = sa.page!;
      const y = sb.page!;
      let i = sa.index;
      let j = sb.index;
      const xs = x.start;
      const ys = y.start;
      const xb = x.buf;
      const yb = y.buf;
      while (i < x.count && j < y.count) {
        const ha = x.keyHi[i]!;
        const hb = y.keyHi[j]!;
        const la = x.keyLo[i]!;
        const lb = y.keyLo[j]!;
        if (ha < hb || (ha === hb && la < lb)) {
          sink.removed(sa);
          sa.skip(1);
          i++;
          continue;
        }
        if (hb < ha || lb < la) {
          sink.added(sb);
          sb.skip(1);
          j++;
          continue;
        }
        // One rowid: the same payload bytes, or changed.
        let same = x.payload[i] === y.payload[j] && x.local[i] === y.local[j];
        if (same) {
          if (x.overflow[i] !== 0 || y.overflow[j] !== 0) same = sa.same(0, sb, 0);
          else {
            let p = xs[i]!;
            let q = ys[j]!;
            for (const end = p + x.local[i]!; p < end;) {
              if (xb[p++] !== yb[q++]) {
                same = false;
                break;
              }
            }
          }
        }
        if (!same) sink.changed(sa, sb);
        sa.skip(1);
        sb.skip(1);
        i++;
        j++;
      }
    }
  });
}

/**
 * Compares two trees by record (see the module documentation), telling
 * `drop` of the `n` cells from the current one of a side that found no
 * equal record on the other side, before they are skipped.
 *
 * @param a the before side
 * @param b the after side
 * @param kind table trees (keyless or keyed by other columns) or index trees (WITHOUT ROWID)
 * @param drop told of the unmatched cells, side by side in key order
 * @returns when both trees are read
 */
export function compareByRecord(
  a: TreeSide,
  b: TreeSide,
  kind: TreeKind,
  drop: (side: "before" | "after", cells: CellStream, n: number) => void,
): Promise<void> {
  return withStreams(a, b, kind, async (sa, sb) => {
    const skip = (side: "before" | "after", cells: CellStream, n: number): void => {
      drop(side, cells, n);
      cells.skip(n);
    };
    for (;;) {
      const pa = sa.ensure(LOOKAHEAD + 1);
      if (pa !== null) await pa;
      const pb = sb.ensure(LOOKAHEAD + 1);
      if (pb !== null) await pb;
      if (skipSameLeaf(sa, sb)) continue;
      const inA = sa.has(0);
      const inB = sb.has(0);
      if (!inA && !inB) return;
      if (!inB) {
        skip("before", sa, 1);
        continue;
      }
      if (!inA) {
        skip("after", sb, 1);
        continue;
      }
      // Both leaves in hand: cancel equal cells in step until a pair
      // differs, a cell spills or a leaf ends.
      const x = sa.page!;
      const y = sb.page!;
      const xb = x.buf;
      const yb = y.buf;
      let i = sa.index;
      let j = sb.index;
      const i0 = i;
      while (i < x.count && j < y.count && x.overflow[i] === 0 && y.overflow[j] === 0) {
        const size = x.payload[i]!;
        if (size !== y.payload[j]) break;
        let p = x.start[i]!;
        let q = y.start[j]!;
        const end = p + size;
        while (p < end && xb[p] === yb[q]) {
          p++;
          q++;
        }
        if (p < end) break;
        i++;
        j++;
      }
      if (i > i0) {
        sa.skip(i - i0);
        sb.skip(i - i0);
        continue;
      }
      if (sa.same(0, sb, 0)) {
        sa.skip(1);
        sb.skip(1);
        continue;
      }
      let resynced = false;
      for (let d = 1; d <= LOOKAHEAD && !resynced; d++) {
        if (sa.has(d) && sa.same(d, sb, 0)) {
          skip("before", sa, d);
          resynced = true;
        } else if (sb.has(d) && sa.same(0, sb, d)) {
          skip("after", sb, d);
          resynced = true;
        }
      }
      if (!resynced) {
        skip("before", sa, 1);
        skip("after", sb, 1);
      }
    }
  });
}
