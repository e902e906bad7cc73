/**
 * A page 1 that holds only some rows of sqlite_schema, for a diff limited
 * to some tables (`--table`) whose rows SQLite must compare.
 *
 * SQLite reads every row of sqlite_schema and parses every CREATE
 * statement on a connection's first query, and again for an attached file:
 * with 5,000 tables that is most of the time a `--table` diff takes in
 * WebAssembly, for tables it never reads. The read-only VFS can instead
 * serve the connection a page 1 whose sqlite_schema is one leaf holding the
 * named tables' rows (the table, its indexes and triggers) and the
 * statistics tables' (so that the query planner sees what it would see),
 * each cell copied byte for byte from the file: its record, its rowid and
 * the number of its first overflow page, whose chain is read from the file
 * as before. The 100-byte file header is the file's own (page size, schema
 * cookie, encoding), and so is every other page. SQLite then knows only
 * those tables; the diff asks it about no other.
 *
 * Why a copied cell is right on the new page: how much of a record a table
 * leaf keeps before spilling depends only on the usable page size, the same
 * on every page of a file (lib/sqlite_format/btree_page.ts localPayload).
 *
 * Not built (null: SQLite reads the whole schema) when the rows do not fit
 * one page, when a side has a non-empty -wal file (SQLite would read page 1
 * from it), or when a named table is virtual (its module may read tables
 * of its own that were not named).
 *
 * @module
 */
import * as fs from "node:fs";
import { realPath } from "../sqlite/file_check.ts";
import { TABLE_LEAF } from "../sqlite_format/btree_page.ts";
import type { SchemaRow } from "../sqlite_format/schema_rows.ts";

/** The tables whose rows go on the page whatever is named: the planner's statistics. */
export const STATISTICS_TABLES: readonly string[] = ["sqlite_stat1", "sqlite_stat4"];

/**
 * Page 1 of `path` with a sqlite_schema of only `rows`, or null (see the
 * module documentation).
 *
 * @param path the file
 * @param rows its sqlite_schema rows to keep, in rowid order, each with its cell
 * @returns the page, as many bytes as the file's page size, or null
 */
export function schemaPageOne(path: string, rows: readonly SchemaRow[]): Uint8Array | null {
  if (rows.some((r) => r.cell === undefined || /^\s*CREATE\s+VIRTUAL\b/i.test(r.sql ?? ""))) {
    return null;
  }
  let fd: number | null = null;
  try {
    if (walBytes(path) > 0) return null;
    fd = fs.openSync(path, "r");
    const head = new Uint8Array(100);
    if (fs.readSync(fd, head, 0, 100, 0) !== 100) return null;
    const raw = (head[16]! << 8) | head[17]!;
    const size = raw === 1 ? 65536 : raw;
    if (size < 512 || (size & (size - 1)) !== 0) return null;
    const usable = size - head[20]!;
    const page = new Uint8Array(size);
    if (fs.readSync(fd, page, 0, size, 0) !== size) return null;
    // The header and the reserved bytes at the end stay; the b-tree page between is new.
    page.fill(0, 100, usable);
    const cells = rows.map((r) => r.cell!);
    let top = usable;
    const pointers = 108;
    for (const cell of cells) top -= cell.length;
    if (top < pointers + 2 * cells.length) return null;
    page[100] = TABLE_LEAF;
    put16(page, 103, cells.length);
    // A content area that starts at 65536 is written 0.
    put16(page, 105, top === 65536 ? 0 : top);
    let at = top;
    cells.forEach((cell, i) => {
      page.set(cell, at);
      put16(page, pointers + 2 * i, at);
      at += cell.length;
    });
    return page;
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

function put16(page: Uint8Array, at: number, v: number): void {
  page[at] = v >> 8;
  page[at + 1] = v & 0xff;
}

function walBytes(path: string): number {
  try {
    // SQLite looks for the -wal beside the real file, not beside a symlink.
    return fs.statSync(`${realPath(path)}-wal`).size;
  } catch {
    return 0;
  }
}
