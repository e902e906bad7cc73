/**
 * A b-tree's pages in key order, walked from its interior pages: each leaf
 * with the key range its parents give it, and, in an index b-tree (whose
 * interior cells are rows too, as in a WITHOUT ROWID table), each interior
 * cell between the subtrees around it. Only interior pages are read: every
 * leaf of a b-tree is at the same depth, which the leftmost path tells, so
 * the pages below the last interior level are known to be leaves without
 * reading them (the reader of a leaf checks its type).
 *
 * As it goes the walk checks what SQLite's integrity check would: every
 * interior page has the tree's kind and holds sound cells (btree_page.ts),
 * a table tree's dividers are in order inside the range of their parents,
 * no page is deeper than the leaves, and every page is reached once
 * (page_owners.ts: claimed, or found claimed by this tree before).
 *
 * Memory is the tree's depth: one parsed page per level.
 *
 * @module
 */
import {
  BtreePage,
  INDEX_INTERIOR,
  INDEX_LEAF,
  type KeyBounds,
  openBounds,
  TABLE_INTERIOR,
  TABLE_LEAF,
  type TreeKind,
} from "./btree_page.ts";
import type { PageOwners } from "./page_owners.ts";
import type { PageSource } from "./page_source.ts";

/** SQLite's own limit on a b-tree's depth is 20; more is damage. */
const MAX_DEPTH = 20;

/** What {@link TreeWalk.next} gives besides a leaf's page number. */
export const END = 0;
export const CELL = -1;

interface Level {
  readonly page: BtreePage;
  readonly buf: Uint8Array;
  /** The next child to go down into (count: the right-most child). */
  next: number;
  /** Whether the interior cell before child `next` (an index tree's row) was given. */
  cellDone: boolean;
  readonly bounds: KeyBounds;
}

/** How a walk treats the pages it reaches. */
export type OwnerCheck = "claim" | "expect" | "none";

/**
 * Closed key ranges in ascending order (lib/diff's RowidRanges): a walk
 * given them leaves out every subtree whose key range meets none of them.
 * Open ends may be given as int64 bigints.
 */
export interface KeyRanges {
  readonly length: number;
  lo(i: number): number | bigint;
  hi(i: number): number | bigint;
}

/**
 * Walks one b-tree (see the module documentation).
 *
 * @example
 * ```ts
 * import { PageSource } from "./page_source.ts";
 * import { END, TreeWalk } from "./tree_walk.ts";
 * const src = PageSource.open("examples/chinook/Chinook_Sqlite.sqlite");
 * const walk = new TreeWalk(src, 1, "table", null, "none");
 * let leaves = 0;
 * while (walk.next() !== END) leaves++;
 * leaves > 0; // true: sqlite_schema's leaves
 * src.close();
 * ```
 */
export class TreeWalk {
  readonly src: PageSource;
  readonly root: number;
  readonly kind: TreeKind;
  /** The depth of the leaves (0: the root is a leaf). */
  readonly height: number;
  /** The key range of the leaf last given (table trees). */
  readonly bounds: KeyBounds = openBounds();
  /** After {@link CELL}: the interior page and the cell given. */
  cellPage: BtreePage | null = null;
  cellIndex = 0;
  /** Leaves given so far. */
  leaves = 0;
  readonly #owners: PageOwners | null;
  readonly #check: OwnerCheck;
  readonly #levels: Level[] = [];
  #depth = 0;
  #started = false;
  /** Bounds handed from a level to its child (copied at once). */
  readonly #scratch: KeyBounds = openBounds();
  readonly #ranges: KeyRanges | null;

  /**
   * @param src the file
   * @param root the tree's root page
   * @param kind a table or an index b-tree
   * @param owners the file's page owners, or null
   * @param check claim each page reached, expect each to be this tree's
   * already, or neither
   * @param ranges for a table tree, only the subtrees whose keys may lie in these
   */
  constructor(
    src: PageSource,
    root: number,
    kind: TreeKind,
    owners: PageOwners | null,
    check: OwnerCheck,
    ranges: KeyRanges | null = null,
  ) {
    this.src = src;
    this.root = root;
    this.kind = kind;
    this.#ranges = kind === "table" ? ranges : null;
    this.#owners = owners;
    this.#check = owners === null ? "none" : check;
    this.height = this.#measure();
  }

  /** The depth of the leftmost leaf, from reading the leftmost path. */
  #measure(): number {
    const buf = new Uint8Array(this.src.pageSize);
    let n = this.root;
    for (let depth = 0;; depth++) {
      if (depth > MAX_DEPTH) {
        throw this.src.damaged(this.root, "its b-tree is deeper than SQLite allows");
      }
      if (!(n >= 1 && n <= this.src.pages)) {
        throw this.src.damaged(
          n,
          `a ${this.kind} b-tree reaches page ${n}, which is not in the file`,
        );
      }
      this.src.read(n, buf, 0, false);
      const type = buf[n === 1 ? 100 : 0]!;
      const table = this.kind === "table";
      if (type === (table ? TABLE_LEAF : INDEX_LEAF)) return depth;
      if (type !== (table ? TABLE_INTERIOR : INDEX_INTERIOR)) {
        throw this.src.damaged(n, `its type byte ${type} is no ${this.kind} b-tree page`);
      }
      const h = n === 1 ? 100 : 0;
      const count = (buf[h + 3]! << 8) | buf[h + 4]!;
      const at = count > 0 ? (buf[h + 12]! << 8) | buf[h + 13]! : h + 8;
      if (at + 4 > this.src.usable) {
        throw this.src.damaged(n, "its first child pointer lies past the end of the page");
      }
      n = ((buf[at]! << 24) >>> 0) + (buf[at + 1]! << 16) + (buf[at + 2]! << 8) + buf[at + 3]!;
    }
  }

  #reach(n: number, from: number): void {
    if (this.#check === "claim") this.#owners!.claim(n, this.root, from);
    else if (this.#check === "expect") this.#owners!.expect(n, this.root);
  }

  /**
   * The next leaf's page number in key order ({@link bounds} then holds its
   * key range), {@link CELL} for an index tree's interior cell
   * ({@link cellPage}, {@link cellIndex}), or {@link END}.
   */
  next(): number {
    if (!this.#started) {
      this.#started = true;
      this.#reach(this.root, 0);
      if (this.height === 0) {
        this.leaves++;
        return this.root;
      }
      this.#descend(this.root, openBounds());
    }
    for (;;) {
      if (this.#depth === 0) return END;
      const level = this.#levels[this.#depth - 1]!;
      const page = level.page;
      const count = page.count;
      if (level.next > count) {
        this.#depth--;
        continue;
      }
      const i = level.next;
      // In an index tree the interior cell before child i comes after child i-1's subtree.
      if (i > 0 && this.kind === "index" && !level.cellDone) {
        level.cellDone = true;
        this.cellPage = page;
        this.cellIndex = i - 1;
        return CELL;
      }
      level.next++;
      level.cellDone = false;
      const child = i < count ? page.child[i]! : page.right;
      const b = this.#childBounds(level, i);
      if (this.#ranges !== null && !meets(this.#ranges, b)) continue;
      if (this.#depth === this.height) {
        this.#reach(child, page.number);
        copyBounds(b, this.bounds);
        this.leaves++;
        return child;
      }
      this.#reach(child, page.number);
      this.#descend(child, b);
    }
  }

  /** Child `i`'s key range, from the dividers around it (table trees). */
  #childBounds(level: Level, i: number): KeyBounds {
    const out = this.#scratch;
    copyBounds(level.bounds, out);
    if (this.kind !== "table") return out;
    const page = level.page;
    if (i > 0) {
      out.hasLo = true;
      out.loHi = page.keyHi[i - 1]!;
      out.loLo = page.keyLo[i - 1]!;
    }
    if (i < page.count) {
      out.hasHi = true;
      out.hiHi = page.keyHi[i]!;
      out.hiLo = page.keyLo[i]!;
    }
    return out;
  }

  /** Reads interior page `n` (key range `b`) and makes it the deepest level. */
  #descend(n: number, b: KeyBounds): void {
    if (this.#depth >= MAX_DEPTH) {
      throw this.src.damaged(n, "its b-tree is deeper than SQLite allows");
    }
    const level = this.#levels[this.#depth] ??= {
      page: new BtreePage(this.src),
      buf: new Uint8Array(this.src.pageSize),
      next: 0,
      cellDone: false,
      bounds: openBounds(),
    };
    // One page at a time: interior pages lie far apart, among the leaves, and
    // reading each one's 256 KiB chunk ahead read most of the file (wr: 229
    // interior pages of 20,393, 58 MB a side) before the leaves were read.
    this.src.read(n, level.buf, 0, false);
    level.page.parse(n, level.buf, 0, this.kind, this.kind === "table" ? b : null, false);
    copyBounds(b, level.bounds);
    level.next = 0;
    level.cellDone = false;
    this.#depth++;
  }
}

const TWO_32 = 4294967296;

/** Whether some range meets the keys (lo, hi] of `b` (an end beyond 2^53 counts as open). */
function meets(ranges: KeyRanges, b: KeyBounds): boolean {
  const lo = b.hasLo ? b.loHi * TWO_32 + b.loLo : -Infinity;
  const hi = b.hasHi ? b.hiHi * TWO_32 + b.hiLo : Infinity;
  const safeLo = Number.isSafeInteger(lo) ? lo : -Infinity;
  const safeHi = Number.isSafeInteger(hi) ? hi : Infinity;
  // The first range ending above lo: it meets (lo, hi] if it starts by hi.
  let a = 0;
  let z = ranges.length;
  while (a < z) {
    const mid = (a + z) >> 1;
    if (Number(ranges.hi(mid)) > safeLo) z = mid;
    else a = mid + 1;
  }
  return a < ranges.length && Number(ranges.lo(a)) <= safeHi;
}

function copyBounds(from: KeyBounds, to: KeyBounds): void {
  to.hasLo = from.hasLo;
  to.loHi = from.loHi;
  to.loLo = from.loLo;
  to.hasHi = from.hasHi;
  to.hiHi = from.hiHi;
  to.hiLo = from.hiLo;
}

/**
 * Where a tree's leaves are, and the key range each may hold, by page
 * number: what a reader that meets the leaves in file order (not key order)
 * needs to check them (lib/diff/_identical_files.ts).
 */
export class LeafMap {
  /** 1: a table tree's leaf, 2: an index tree's leaf, 0: no leaf of a walked tree. */
  readonly kind: Uint8Array;
  /** Which ends of a table leaf's key range are set: 1 its low end, 2 its high end. */
  readonly #ends: Uint8Array;
  readonly #loHi: Int32Array;
  readonly #loLo: Uint32Array;
  readonly #hiHi: Int32Array;
  readonly #hiLo: Uint32Array;

  /** @param pages the file's page count */
  constructor(pages: number) {
    this.kind = new Uint8Array(pages + 1);
    this.#ends = new Uint8Array(pages + 1);
    this.#loHi = new Int32Array(pages + 1);
    this.#loLo = new Uint32Array(pages + 1);
    this.#hiHi = new Int32Array(pages + 1);
    this.#hiLo = new Uint32Array(pages + 1);
  }

  /** Notes leaf `n` of a `kind` tree with the key range `b`. */
  note(n: number, kind: TreeKind, b: KeyBounds): void {
    this.kind[n] = kind === "table" ? 1 : 2;
    this.#ends[n] = (b.hasLo ? 1 : 0) | (b.hasHi ? 2 : 0);
    this.#loHi[n] = b.loHi;
    this.#loLo[n] = b.loLo;
    this.#hiHi[n] = b.hiHi;
    this.#hiLo[n] = b.hiLo;
  }

  /** Leaf `n`'s key range, into `b`. */
  bounds(n: number, b: KeyBounds): KeyBounds {
    const ends = this.#ends[n]!;
    b.hasLo = (ends & 1) !== 0;
    b.loHi = this.#loHi[n]!;
    b.loLo = this.#loLo[n]!;
    b.hasHi = (ends & 2) !== 0;
    b.hiHi = this.#hiHi[n]!;
    b.hiLo = this.#hiLo[n]!;
    return b;
  }
}

/**
 * Walks a whole tree's interior pages, claiming every page of it: the
 * structure check a reader does before it reads the tree's leaves.
 *
 * @param src the file
 * @param root the tree's root
 * @param kind its kind
 * @param owners the file's page owners
 * @param leaves where to note its leaves and their key ranges, if anywhere
 * @returns the number of leaves
 * @example
 * ```ts
 * import { PageSource } from "./page_source.ts";
 * import { PageOwners } from "./page_owners.ts";
 * import { claimTree } from "./tree_walk.ts";
 * const src = PageSource.open("examples/db_agent/users.db");
 * claimTree(src, 1, "table", new PageOwners(src, () => "sqlite_schema")); // 1
 * src.close();
 * ```
 */
export function claimTree(
  src: PageSource,
  root: number,
  kind: TreeKind,
  owners: PageOwners,
  leaves: LeafMap | null = null,
): number {
  const walk = new TreeWalk(src, root, kind, owners, "claim");
  for (let n = walk.next(); n !== END; n = walk.next()) {
    if (n > 0 && leaves !== null) leaves.note(n, kind, walk.bounds);
  }
  return walk.leaves;
}
