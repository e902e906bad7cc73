/**
 * A b-tree's rows in key order, one record at a time, decoded: the cell
 * stream (cell_stream.ts) with each cell's payload read whole and its record
 * parsed and checked (record.ts). What the tests compare with what SQLite
 * reads, and what reads the rows of a database the engine cannot open.
 *
 * @module
 */
import type { TreeKind } from "./btree_page.ts";
import { CellStream } from "./cell_stream.ts";
import type { PageOwners } from "./page_owners.ts";
import type { PageSource } from "./page_source.ts";
import { Record } from "./record.ts";
import type { OwnerCheck } from "./tree_walk.ts";

/** One row, as {@link Cursor.next} gives it (valid until the next call). */
export interface CursorCell {
  /** The rowid (table trees; a number, or a bigint beyond 2^53), 0 in an index tree. */
  readonly rowid: number | bigint;
  /** The record, parsed (its values read with `value()`). */
  readonly record: Record;
  /** The page holding the cell, and the cell's index on it. */
  readonly page: number;
  readonly index: number;
}

/**
 * Walks a tree's rows in key order (see the module documentation).
 *
 * @example
 * ```ts
 * import { PageSource } from "./page_source.ts";
 * import { Cursor } from "./cursor.ts";
 * const src = PageSource.open("examples/db_agent/users.db");
 * const cursor = new Cursor(src, 1, "table", null, "none");
 * const names: unknown[] = [];
 * for (let c = await cursor.next(); c !== null; c = await cursor.next()) names.push(c.record.value(1));
 * await cursor.close();
 * names; // ["users", "todos"]
 * src.close();
 * ```
 */
export class Cursor {
  readonly #cells: CellStream;
  readonly #record: Record;
  #started = false;

  /**
   * @param src the file
   * @param root the tree's root page
   * @param kind a table or an index tree
   * @param owners the file's page owners (pages are claimed or expected), or null
   * @param check what the walk does with the tree's own pages (see TreeWalk)
   */
  constructor(
    src: PageSource,
    root: number,
    kind: TreeKind,
    owners: PageOwners | null,
    check: OwnerCheck,
  ) {
    this.#cells = new CellStream(src, root, kind, owners, check);
    this.#record = new Record(src.header.encoding);
  }

  /** The next row, or null after the last. */
  async next(): Promise<CursorCell | null> {
    const cells = this.#cells;
    if (this.#started) cells.skip(1);
    this.#started = true;
    await cells.ensure(1);
    if (!cells.locate(0)) return null;
    const page = cells.page!;
    const i = cells.index;
    const bytes = cells.payload(0);
    const problem = this.#record.parse(bytes, 0, bytes.length, bytes.length);
    if (problem !== null) throw page.src.damaged(page.number, `cell ${i + 1}: ${problem}`);
    return {
      rowid: cells.kind === "table" ? page.exactRowid(i) : 0,
      record: this.#record,
      page: page.number,
      index: i,
    };
  }

  /** Lets go of the tree (overflow chains of the leaves in view checked): call when done. */
  close(): Promise<void> {
    return this.#cells.close();
  }
}
