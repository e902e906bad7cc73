/**
 * The root pages of the tables a diff is limited to (`--table`), read from
 * each file's own sqlite_schema b-tree without SQLite, so that the page
 * scan of those tables (_table_scan.ts) starts at once and reads on the
 * runtime's I/O threads while the WASM engine starts and reads the schema:
 * on a table of a gigabyte, that overlap is a fifth of a second.
 *
 * Names match as readSchema's filter matches them (`lower(tbl_name)`, ASCII
 * letters folded), tables only. Anything unexpected (a UTF-16 file, a cell
 * whose first four columns do not fit on its page, a page that is no
 * b-tree page) gives null, and the scan starts once SQLite has read the
 * schema. A root found here is checked later: page_plan.ts plans a table
 * only when the root SQLite gives is one that was scanned.
 *
 * @module
 */
import { localPayload, serialSize, TABLE_INTERIOR, TABLE_LEAF, varint } from "./_btree_format.ts";
import * as fs from "node:fs";
import { Buffer } from "node:buffer";
import type { TreeRoots } from "./_table_scan.ts";
import { foldName } from "./names.ts";

/**
 * Finds the root pages of the tables called `names` in both files.
 *
 * @param before the before file
 * @param after the after file
 * @param names the table names (any ASCII case)
 * @returns the roots per side, or null when a file's schema could not be read this way
 */
export function namedRoots(
  before: string,
  after: string,
  names: readonly string[],
): TreeRoots | null {
  const wanted = new Set(names.map(foldName));
  try {
    const a = rootsIn(before, wanted);
    const b = a === null ? null : rootsIn(after, wanted);
    return a === null || b === null ? null : { before: a, after: b };
  } catch {
    return null;
  }
}

function rootsIn(path: string, wanted: ReadonlySet<string>): number[] | null {
  if (!fs.statSync(path).isFile()) return null;
  const fd = fs.openSync(path, "r");
  try {
    const head = Buffer.alloc(100);
    if (fs.readSync(fd, head, 0, 100, 0) !== 100) return null;
    if (head.toString("latin1", 0, 16) !== "SQLite format 3\0") return null;
    // Names are compared as UTF-8 text.
    if (head.readUInt32BE(56) !== 1) return null;
    const raw = head.readUInt16BE(16);
    const size = raw === 1 ? 65536 : raw;
    if (size < 512 || (size & (size - 1)) !== 0) return null;
    const usable = size - head[20]!;
    const pages = Math.floor(fs.fstatSync(fd).size / size);
    const page = Buffer.alloc(size);
    const roots: number[] = [];
    const visit = (n: number, depth: number): boolean => {
      if (depth > 20 || n < 1 || n > pages) return false;
      if (fs.readSync(fd, page, 0, size, (n - 1) * size) !== size) return false;
      const h = n === 1 ? 100 : 0;
      const cells = page.readUInt16BE(h + 3);
      if (page[h] === TABLE_INTERIOR) {
        // Copied: the recursion reuses the buffer.
        const children = [
          ...Array.from(
            { length: cells },
            (_, i) => page.readUInt32BE(page.readUInt16BE(h + 12 + 2 * i)),
          ),
          page.readUInt32BE(h + 8),
        ];
        return children.every((c) => visit(c, depth + 1));
      }
      if (page[h] !== TABLE_LEAF) return false;
      for (let i = 0; i < cells; i++) {
        const row = schemaRow(page, page.readUInt16BE(h + 8 + 2 * i), usable);
        if (row === null) return false;
        if (row.type === "table" && row.root > 0 && wanted.has(foldName(row.table))) {
          roots.push(row.root);
        }
      }
      return true;
    };
    return visit(1, 0) ? roots : null;
  } finally {
    fs.closeSync(fd);
  }
}

/** The type, tbl_name and rootpage of the sqlite_schema row in the cell at `at`, or null. */
function schemaRow(
  page: Buffer,
  at: number,
  usable: number,
): { type: string; table: string; root: number } | null {
  let [payload, q] = varint(page, at);
  q = varint(page, q)[1];
  // Only the part of the payload on this page is read (a long CREATE
  // statement spills to overflow pages; the first four columns do not).
  const end = q + localPayload(payload, usable, TABLE_LEAF);
  if (end > usable) return null;
  const [headerSize, first] = varint(page, q);
  let t = first;
  let body = q + headerSize;
  const values: (string | number)[] = [];
  for (let col = 0; col < 4; col++) {
    if (t >= q + headerSize) return null;
    const [serial, next] = varint(page, t);
    t = next;
    const len = serialSize(serial);
    if (len < 0 || body + len > end) return null;
    if (serial >= 13 && serial % 2 === 1) values.push(page.toString("utf8", body, body + len));
    else if (serial >= 1 && serial <= 5) values.push(page.readIntBE(body, len));
    else if (serial === 8 || serial === 9) values.push(serial - 8);
    else if (serial === 0) values.push(0);
    else return null;
    body += len;
  }
  const [type, , table, root] = values;
  if (typeof type !== "string" || typeof table !== "string" || typeof root !== "number") {
    return null;
  }
  return { type, table, root };
}
