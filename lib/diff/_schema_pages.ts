/**
 * A file's sqlite_schema rows read from its pages, without SQLite: when two
 * files are page for page the same, their diff needs only the schema, and
 * the WebAssembly engine need not start (diff_sqlite.ts).
 *
 * Anything unexpected (a UTF-16 file, a page that is no table b-tree page,
 * a record that is not five columns of the expected types) gives null, and
 * SQLite reads the schema instead.
 *
 * @module
 */
import * as fs from "node:fs";
import { Buffer } from "node:buffer";
import { localPayload, serialSize, TABLE_INTERIOR, TABLE_LEAF, varint } from "./_btree_format.ts";
import { decodeSqliteText } from "../sqlite/text.ts";

/** One row of sqlite_schema. */
export interface SchemaRow {
  readonly type: string;
  readonly name: string;
  readonly tbl_name: string;
  readonly rootpage: number;
  readonly sql: string | null;
}

class Unreadable extends Error {}

/**
 * Reads every row of a file's sqlite_schema, in rowid order.
 *
 * @param path the file (a regular file; the caller knows it has no -wal)
 * @returns the rows, or null when they cannot be read this way
 */
export function readSchemaPages(path: string): SchemaRow[] | null {
  let fd: number | null = null;
  try {
    fd = fs.openSync(path, "r");
    return rowsOf(fd);
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

function rowsOf(fd: number): SchemaRow[] | null {
  const head = Buffer.alloc(100);
  if (fs.readSync(fd, head, 0, 100, 0) !== 100) return null;
  if (head.toString("latin1", 0, 16) !== "SQLite format 3\0") return null;
  // UTF-8 only (0 in a file with no schema yet).
  const encoding = head.readUInt32BE(56);
  if (encoding !== 1 && encoding !== 0) return null;
  const raw = head.readUInt16BE(16);
  const size = raw === 1 ? 65536 : raw;
  if (size < 512 || (size & (size - 1)) !== 0) return null;
  const usable = size - head[20]!;
  const pages = Math.floor(fs.fstatSync(fd).size / size);
  const read = (n: number): Buffer => {
    if (n < 1 || n > pages) throw new Unreadable();
    const page = Buffer.alloc(size);
    if (fs.readSync(fd, page, 0, size, (n - 1) * size) !== size) throw new Unreadable();
    return page;
  };
  const rows: SchemaRow[] = [];
  const visit = (n: number, depth: number): void => {
    if (depth > 20) throw new Unreadable();
    const page = read(n);
    const h = n === 1 ? 100 : 0;
    const cells = page.readUInt16BE(h + 3);
    if (page[h] === TABLE_INTERIOR) {
      for (let i = 0; i < cells; i++) {
        visit(page.readUInt32BE(page.readUInt16BE(h + 12 + 2 * i)), depth + 1);
      }
      visit(page.readUInt32BE(h + 8), depth + 1);
      return;
    }
    if (page[h] !== TABLE_LEAF) throw new Unreadable();
    for (let i = 0; i < cells; i++) {
      rows.push(schemaRow(payloadOf(page, page.readUInt16BE(h + 8 + 2 * i), usable, read)));
    }
  };
  visit(1, 0);
  return rows;
}

/** The whole payload of the table leaf cell at `at`, overflow pages included. */
function payloadOf(page: Buffer, at: number, usable: number, read: (n: number) => Buffer): Buffer {
  let [size, q] = varint(page, at);
  q = varint(page, q)[1];
  const local = localPayload(size, usable, TABLE_LEAF);
  if (q + local > usable) throw new Unreadable();
  const out = Buffer.alloc(size);
  page.copy(out, 0, q, q + local);
  let filled = local;
  let next = local < size ? page.readUInt32BE(q + local) : 0;
  for (let guard = 0; filled < size; guard++) {
    if (next === 0 || guard > 1_000_000) throw new Unreadable();
    const o = read(next);
    const n = Math.min(usable - 4, size - filled);
    o.copy(out, filled, 4, 4 + n);
    filled += n;
    next = o.readUInt32BE(0);
  }
  return out;
}

function schemaRow(record: Buffer): SchemaRow {
  const [headerSize, first] = varint(record, 0);
  let t = first;
  let body = headerSize;
  const values: (string | number | null)[] = [];
  for (let col = 0; col < 5; col++) {
    if (t >= headerSize) throw new Unreadable();
    const [serial, next] = varint(record, t);
    t = next;
    const len = serialSize(serial);
    if (len < 0 || body + len > record.length) throw new Unreadable();
    if (serial >= 13 && serial % 2 === 1) {
      values.push(decodeSqliteText(record.subarray(body, body + len)));
    } else if (serial >= 1 && serial <= 5) values.push(record.readIntBE(body, len));
    else if (serial === 8 || serial === 9) values.push(serial - 8);
    else if (serial === 0) values.push(null);
    else throw new Unreadable();
    body += len;
  }
  const [type, name, table, root, sql] = values;
  if (
    typeof type !== "string" || typeof name !== "string" || typeof table !== "string" ||
    (typeof root !== "number" && root !== null) || (typeof sql !== "string" && sql !== null)
  ) throw new Unreadable();
  return { type, name, tbl_name: table, rootpage: root ?? 0, sql };
}
