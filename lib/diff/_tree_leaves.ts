/**
 * The leaves of a table b-tree in key order, found one at a time: the cell
 * comparison (_cell_compare.ts) reads the changed leaves of both sides in
 * step, and a list of them would grow with the table (500k leaves a side
 * for 20M rows, each changed when 2% of rows are, spread evenly).
 *
 * Only interior pages are read (the page scan knows which pages are
 * leaves), one buffer per level of the tree, each holding the child page
 * numbers of the interior page being walked at that level: memory is the
 * tree's depth, not its size.
 *
 * @module
 */
import * as fs from "node:fs";
import { FormatError, TABLE_INTERIOR, TABLE_LEAF } from "./_btree_format.ts";

/** One side's file, for walking a tree. */
export interface TreeFile {
  readonly fd: number;
  readonly pages: number;
  /** The b-tree page type byte of each page (by page number). */
  readonly types: Uint8Array;
}

/** SQLite's own limit on a b-tree's depth is 20; more is damage. */
const MAX_DEPTH = 40;

/** The interior page being walked at one level. */
interface Level {
  readonly children: Uint32Array;
  count: number;
  next: number;
}

/**
 * The leaves of the table b-tree at `root` in key order, skipping those
 * `skip` accepts. A page that is neither a table leaf nor a table interior
 * page, a child out of the file, or a tree deeper than SQLite allows throws
 * {@link FormatError}.
 */
export class TreeLeaves {
  readonly #file: TreeFile;
  readonly #size: number;
  readonly #skip: (page: number) => boolean;
  readonly #page: Uint8Array;
  readonly #levels: Level[] = [];
  #depth = 0;
  #root: number;
  /** Leaves handed out so far. */
  count = 0;

  /**
   * @param file the file and its page types
   * @param pageSize the page size
   * @param root the tree's root page
   * @param skip leaves left out (clean ones)
   */
  constructor(file: TreeFile, pageSize: number, root: number, skip: (page: number) => boolean) {
    this.#file = file;
    this.#size = pageSize;
    this.#skip = skip;
    this.#page = new Uint8Array(pageSize);
    this.#root = root;
  }

  /** The next leaf's page number, or 0 after the last. */
  next(): number {
    for (;;) {
      let n: number;
      if (this.#root !== 0) {
        n = this.#root;
        this.#root = 0;
      } else {
        if (this.#depth === 0) return 0;
        const top = this.#levels[this.#depth - 1]!;
        if (top.next > top.count) {
          this.#depth--;
          continue;
        }
        n = top.children[top.next++]!;
      }
      if (n < 1 || n > this.#file.pages) throw new FormatError("child page out of the file");
      const type = this.#file.types[n];
      if (type === TABLE_LEAF) {
        if (this.#skip(n)) continue;
        this.count++;
        return n;
      }
      if (type !== TABLE_INTERIOR) throw new FormatError("not a table b-tree page");
      this.#descend(n);
    }
  }

  /** Reads interior page `n` and pushes its children (right-most last). */
  #descend(n: number): void {
    if (this.#depth >= MAX_DEPTH) throw new FormatError("b-tree too deep");
    const p = this.#page;
    const got = fs.readSync(this.#file.fd, p, 0, this.#size, (n - 1) * this.#size);
    const h = n === 1 ? 100 : 0;
    if (got !== this.#size || p[h] !== TABLE_INTERIOR) throw new FormatError();
    const count = (p[h + 3]! << 8) | p[h + 4]!;
    // An interior cell takes at least 6 bytes (its pointer, a child, a key).
    const level = this.#levels[this.#depth] ??= {
      children: new Uint32Array(Math.ceil(this.#size / 6) + 1),
      count: 0,
      next: 0,
    };
    if (count >= level.children.length) throw new FormatError();
    for (let i = 0; i < count; i++) {
      const at = (p[h + 12 + 2 * i]! << 8) | p[h + 13 + 2 * i]!;
      if (at + 4 > this.#size) throw new FormatError();
      level.children[i] = readU32(p, at);
    }
    level.children[count] = readU32(p, h + 8);
    level.count = count;
    level.next = 0;
    this.#depth++;
  }
}

function readU32(p: Uint8Array, at: number): number {
  return ((p[at]! << 24) >>> 0) + (p[at + 1]! << 16) + (p[at + 2]! << 8) + p[at + 3]!;
}
