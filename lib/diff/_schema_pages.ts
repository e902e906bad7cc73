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
  /** Its rowid in sqlite_schema. */
  readonly rowid: number;
  /**
   * The cell as it sits on its leaf (sizes, rowid, the payload kept on the
   * page and the number of its first overflow page), copied: only when the
   * rows were read for some tables (_schema_page_one.ts builds a page of them).
   */
  readonly cell?: Uint8Array;
}

class Unreadable extends Error {}

/**
 * Reads every row of a file's sqlite_schema, in rowid order, or only the
 * rows of some tables: those whose tbl_name is one of `tables` (folded as
 * foldName() folds), as readSchema() filters them. The other rows are
 * told apart by their tbl_name's bytes, without decoding them: a file of
 * 5,000 tables costs a few pages and no text for the rows not asked for.
 *
 * @param path the file (a regular file; the caller knows it has no -wal)
 * @param tables the folded table names to keep, or null for every row
 * @returns the rows, or null when they cannot be read this way
 */
export function readSchemaPages(
  path: string,
  tables: ReadonlySet<string> | null = null,
): SchemaRow[] | null {
  let fd: number | null = null;
  try {
    fd = fs.openSync(path, "r");
    return rowsOf(fd, tables === null ? null : [...tables].map((t) => encoder.encode(t)));
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

const encoder = new TextEncoder();

function rowsOf(fd: number, wanted: readonly Uint8Array[] | null): SchemaRow[] | null {
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
  // The tree's pages are read into one buffer: a schema of 5,000 tables
  // is a hundred pages a file, and a buffer each was most of its garbage.
  const tree = Buffer.allocUnsafe(size);
  const rows: SchemaRow[] = [];
  const visit = (n: number, depth: number): void => {
    if (depth > 20 || n < 1 || n > pages) throw new Unreadable();
    if (fs.readSync(fd, tree, 0, size, (n - 1) * size) !== size) throw new Unreadable();
    const page = tree;
    const h = n === 1 ? 100 : 0;
    const cells = page.readUInt16BE(h + 3);
    if (page[h] === TABLE_INTERIOR) {
      // Copied out before the children are read into the same buffer.
      const children: number[] = [];
      for (let i = 0; i < cells; i++) {
        children.push(page.readUInt32BE(page.readUInt16BE(h + 12 + 2 * i)));
      }
      children.push(page.readUInt32BE(h + 8));
      for (const child of children) visit(child, depth + 1);
      return;
    }
    if (page[h] !== TABLE_LEAF) throw new Unreadable();
    for (let i = 0; i < cells; i++) {
      const at = (page[h + 8 + 2 * i]! << 8) | page[h + 9 + 2 * i]!;
      const size = quickVarint(page, at);
      const rowid = quickVarint(page, after);
      const start = after;
      const local = localPayload(size, usable, TABLE_LEAF);
      const end = start + local + (local < size ? 4 : 0);
      // NaN (a varint past the page) fails this too.
      if (!(end <= usable)) throw new Unreadable();
      if (wanted !== null && !isWanted(page, start, start + local, wanted, usable, read, size)) {
        continue;
      }
      const row = schemaRow(payloadOf(page, start, size, usable, read), rowid);
      rows.push(wanted === null ? row : { ...row, cell: new Uint8Array(page.subarray(at, end)) });
    }
  };
  visit(1, 0);
  return rows;
}

/**
 * Whether the record at `start` of `page` names one of `wanted` as its
 * tbl_name (ASCII letters folded), read from its bytes on the page: the
 * third column of a schema row is near its start, and only a name that
 * runs past the page's part of the record needs the whole payload.
 */
function isWanted(
  page: Buffer,
  start: number,
  end: number,
  wanted: readonly Uint8Array[],
  usable: number,
  read: (n: number) => Buffer,
  size: number,
): boolean {
  const headerSize = quickVarint(page, start);
  let t = after;
  let body = start + headerSize;
  let serial = 0;
  for (let col = 0; col < 3; col++) {
    if (!(t < start + headerSize && t < end)) throw new Unreadable();
    serial = quickVarint(page, t);
    t = after;
    const len = serialSize(serial);
    if (!(len >= 0)) throw new Unreadable();
    if (col < 2) body += len;
  }
  if (serial < 13 || serial % 2 === 0) throw new Unreadable();
  const len = serialSize(serial);
  let bytes: Uint8Array = page;
  let from = body;
  if (body + len > end) {
    // The name spills to overflow pages: read the whole record.
    bytes = payloadOf(page, start, size, usable, read);
    from = body - start;
  }
  return wanted.some((w) => {
    if (w.length !== len) return false;
    for (let i = 0; i < len; i++) {
      const b = bytes[from + i]!;
      if ((b >= 65 && b <= 90 ? b + 32 : b) !== w[i]) return false;
    }
    return true;
  });
}

/** Where the varint {@link quickVarint} read last ends. */
let after = 0;

/**
 * The varint at `at`, its end left in {@link after}: the schema's leaves
 * hold thousands of cells, and a pair per varint is garbage. Past the
 * buffer's end it gives NaN.
 */
function quickVarint(b: Uint8Array, at: number): number {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const x = b[at + i]!;
    v = v * 128 + (x & 0x7f);
    if (x < 0x80) {
      after = at + i + 1;
      return v;
    }
  }
  after = at + 9;
  return v * 256 + b[at + 8]!;
}

/** The whole payload of `size` bytes of the table leaf cell whose payload starts at `q`. */
function payloadOf(
  page: Buffer,
  q: number,
  size: number,
  usable: number,
  read: (n: number) => Buffer,
): Buffer {
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

function schemaRow(record: Buffer, rowid: number): SchemaRow {
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
  return { type, name, tbl_name: table, rootpage: root ?? 0, sql, rowid };
}
