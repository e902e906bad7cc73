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
import { FormatError } from "./_btree_format.ts";
import { Cells, LeafReader, type LeafSide, LOOKAHEAD } from "./_leaf_cells.ts";
import { type IndexSide, IndexTreeReader, recordKey } from "./_index_cells.ts";
import { RowidRanges } from "./_rowid_ranges.ts";
import type { SqliteValue } from "../sqlite/value.ts";

export type { IndexSide, LeafSide };

/** How cells pair (see the module documentation). */
export type CellMatch = "rowid" | "record";

/** The rowids that may differ, per side (the same object twice for `rowid`). */
export interface CellResidue {
  readonly before: RowidRanges;
  readonly after: RowidRanges;
}

/**
 * With `rowid` matching, residue rowids closer than this to the previous one
 * join its range: the few identical rows between them cost less in SQL than
 * another range, and pairing by rowid finds them equal. Not with `record`
 * matching: a row between that matched a row elsewhere would count twice.
 */
const GAP = 16;

/** Beyond this many ranges a side's residue is not worth its memory. */
const MAX_RANGES = 2_000_000;

/** A residue of more ranges than {@link MAX_RANGES}. */
class TooScattered extends Error {}

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
    if (this.ranges.length > MAX_RANGES) throw new TooScattered();
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
    if (e instanceof TooScattered || e instanceof FormatError || e instanceof RangeError) {
      return null;
    }
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
  matchRecords(a, b, (cells, n) => {
    const out = cells === a ? ra : rb;
    for (let k = 0; k < n; k++) out.add(cells.rowid(k));
  });
  ra.flush();
  rb.flush();
  return { before: ra.ranges, after: rb.ranges };
}

/**
 * Walks two sides in step, cancelling equal records (see the module
 * documentation); `drop(cells, n)` is told of the `n` cells from the
 * current one that found no partner, before they are skipped.
 */
function matchRecords(a: Cells, b: Cells, drop: (cells: Cells, n: number) => void): void {
  const skip = (cells: Cells, n: number): void => {
    drop(cells, n);
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
        skip(a, d);
        resynced = true;
      } else if (b.has(d) && a.same(0, b, d)) {
        skip(b, d);
        resynced = true;
      }
    }
    if (!resynced) {
      skip(a, 1);
      skip(b, 1);
    }
  }
  while (a.has(0)) skip(a, 1);
  while (b.has(0)) skip(b, 1);
}

/** Told each residue row of a WITHOUT ROWID table, as its key's values, in key order per side. */
export type KeySink = (side: "before" | "after", key: readonly SqliteValue[]) => void;

/**
 * Compares the rows of a WITHOUT ROWID table's two sides by record (an
 * index b-tree keeps rows in its interior cells as well as its leaves, so
 * both are read, in key order; clean leaves are left out), and tells `sink`
 * the key of every row that found no equal record on the other side.
 *
 * @param sides each side's file, root page and page types
 * @param page the page size and usable bytes of a page
 * @param keyColumns how many leading record columns are the key
 * @param clean whether a page is a clean leaf (the same bytes on both sides)
 * @param sink told each residue row's key
 * @returns false when a page is not what it should be, or a key spills to
 * overflow pages; the sink may have been told some keys already
 */
export function compareIndexCells(
  sides: { readonly before: IndexSide; readonly after: IndexSide },
  page: { readonly size: number; readonly usable: number },
  keyColumns: number,
  clean: (page: number) => boolean,
  sink: KeySink,
): boolean {
  try {
    const a = new Cells(new IndexTreeReader(sides.before, page, clean));
    const b = new Cells(new IndexTreeReader(sides.after, page, clean));
    matchRecords(a, b, (cells, n) => {
      for (let k = 0; k < n; k++) {
        cells.locate(k);
        const leaf = cells.leaf!;
        const i = cells.index;
        sink(
          cells === a ? "before" : "after",
          recordKey(leaf.page, leaf.start[i]!, leaf.local[i]!, keyColumns),
        );
      }
    });
    return true;
  } catch (e) {
    if (e instanceof TooScattered || e instanceof FormatError || e instanceof RangeError) {
      return false;
    }
    throw e;
  }
}
