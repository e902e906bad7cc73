/**
 * The changed rows of a table keyed by its rowid, read from its cells
 * without SQLite, for a diff that would otherwise start the WebAssembly
 * engine for a handful of rows (`db diff --table` on one small changed
 * table among thousands: the engine's start alone is several times
 * sqldiff's whole run; bench/README.md).
 *
 * Only where reading a record gives exactly what SQLite's query gives
 * (_keyed.ts): both sides have the same schema row (so the same columns),
 * the key is an INTEGER PRIMARY KEY (the rowid), no column is hidden or
 * generated, every record holds every column (none added by ALTER TABLE
 * since the row was written: that one would read the column's default),
 * every integer is a safe integer, the file is UTF-8, and the page
 * comparison narrowed the rows to rowid ranges (page_plan.ts). Values come
 * out as Statement.value() makes them: integers and reals as numbers (a
 * REAL column's whole number read as SQLite's REAL affinity reads it, the
 * same number), text decoded by lib/sqlite/text.ts, BLOBs as bytes; the
 * key column, stored as NULL, is the rowid. A row is a candidate change as
 * `+A.c IS NOT +B.c COLLATE BINARY` makes it: text and BLOBs equal byte
 * for byte and of one type, numbers equal as numbers, NULL equal to NULL.
 * Rows come in the order of the engine's queries: removed and changed by
 * rowid, then added by rowid.
 *
 * Anything else gives null before a row is told, and the engine diffs the
 * table. So does a residue of more than {@link MAX_CELLS} cells or
 * {@link MAX_BYTES} of records a side: the rows are held until every one is
 * known to be readable this way, and memory stays flat.
 *
 * @module
 */
import * as fs from "node:fs";
import type { SqliteValue } from "../sqlite/value.ts";
import { sameValue } from "../sqlite/value.ts";
import { decodeSqliteText } from "../sqlite/text.ts";
import { localPayload, serialSize, TABLE_INTERIOR, TABLE_LEAF } from "./_btree_format.ts";
import { counted, type KeptRows } from "./_kept_rows.ts";
import { addedOrRemoved, changedRow, keptRow } from "./_held_rows.ts";
import { emptyRow } from "../sqlite/value.ts";
import { rowOf } from "./_row_reading.ts";
import type { RowidRanges } from "./_rowid_ranges.ts";
import type { PageScan } from "./_page_scan.ts";
import { dataColumns, type TableSchema } from "./schema.ts";
import type { TableData } from "./table_data.ts";
import { foldName } from "./names.ts";

/** The most cells a side may hold in the ranges: beyond, the engine diffs the table. */
export const MAX_CELLS = 20_000;
/**
 * Differing pages of the named tables beyond which the engine starts while
 * the pages are still compared: a change that large is the engine's work,
 * and its start then overlaps the comparison.
 */
export const CELL_PAGES = 64;
/** The most pages a side's walk may read. */
const MAX_PAGES = 4 * CELL_PAGES;
/** The most record bytes a side may hold (BLOBs of megabytes go to the engine, which streams them). */
export const MAX_BYTES = 8 * 1024 * 1024;

class Unfit extends Error {}

/** A value as stored: its serial type and, for text and BLOBs, its bytes. */
interface Stored {
  readonly serial: number;
  readonly value: SqliteValue;
  readonly bytes: Uint8Array | null;
}

interface Row {
  readonly rowid: number;
  readonly values: readonly Stored[];
}

/**
 * Reads the rows of `table` in `ranges` on both sides, or gives null when
 * they cannot be read exactly so (see the module documentation).
 *
 * @param scan the page scan (its files open)
 * @param before the table's before schema
 * @param after its after schema (the same schema row)
 * @param ranges the rowid ranges outside which both sides hold the same rows
 * @returns what tells the row changes to a KeptRows, or null
 */
export function cellRows(
  scan: PageScan,
  before: TableSchema,
  after: TableSchema,
  ranges: RowidRanges,
): ((rows: KeptRows) => TableData) | null {
  if (!cellRowsFit(before) || before.sql !== after.sql || before.rootPage <= 0) return null;
  if (ranges.length > MAX_CELLS) return null;
  const cols = dataColumns(before);
  const keyAt = cols.findIndex((c) => foldName(c) === foldName(before.key[0]!));
  if (keyAt < 0 || cols.length !== before.columns.length) return null;
  let a: Row[];
  let b: Row[];
  try {
    const reader = (fd: number, pages: number, root: number): Row[] =>
      new CellReader(fd, pages, scan.pageSize, scan.usable, cols.length, keyAt).rows(root, ranges);
    a = reader(scan.before.fd, scan.before.pages, before.rootPage);
    b = reader(scan.after.fd, scan.after.pages, after.rootPage);
  } catch (e) {
    if (e instanceof Unfit || e instanceof RangeError) return null;
    throw e;
  }
  return (rows) => {
    const plain = (r: Row): SqliteValue[] => r.values.map((v) => v.value);
    const key = (values: readonly SqliteValue[]) => {
      const out = emptyRow();
      out[cols[keyAt]!] = values[keyAt]!;
      return out;
    };
    let j = 0;
    for (const ra of a) {
      while (j < b.length && b[j]!.rowid < ra.rowid) j++;
      const rb = b[j]?.rowid === ra.rowid ? b[j]! : null;
      if (rb === null) {
        rows.add("removed", (kept) => {
          const values = plain(ra);
          if (!kept) return { key: key(values), row: rowOf(cols, values) };
          return counted(addedOrRemoved(key(values), keptRow(cols, values)), [{
            names: cols,
            values,
          }]);
        });
        continue;
      }
      if (!ra.values.some((v, i) => i !== keyAt && distinct(v, rb.values[i]!))) continue;
      rows.add("changed", (kept) => {
        const va = plain(ra);
        const vb = plain(rb);
        const changed = cols.filter((_, i) => !sameValue(va[i]!, vb[i]!));
        if (!kept) {
          return {
            key: key(va),
            before: rowOf(cols, va),
            after: rowOf(cols, vb),
            changed_columns: changed,
          };
        }
        return counted(
          changedRow(key(va), keptRow(cols, va), keptRow(cols, vb), changed),
          [{ names: cols, values: va }, { names: cols, values: vb }],
        );
      });
    }
    let i = 0;
    for (const rb of b) {
      while (i < a.length && a[i]!.rowid < rb.rowid) i++;
      if (a[i]?.rowid === rb.rowid) continue;
      rows.add("added", (kept) => {
        const values = plain(rb);
        if (!kept) return { key: key(values), row: rowOf(cols, values) };
        return counted(addedOrRemoved(key(values), keptRow(cols, values)), [{
          names: cols,
          values,
        }]);
      });
    }
    return { key: before.key, keyKind: before.keyKind, comparedColumns: cols, rows };
  };
}

/**
 * Whether a table's rows can be read from its records as the engine reads
 * them (its shape only: each record is checked as it is read).
 *
 * @param t the table
 * @returns true for a rowid table keyed by an INTEGER PRIMARY KEY, no hidden or generated column
 */
export function cellRowsFit(t: TableSchema): boolean {
  // Paired by rowid (--rowid), a table without an INTEGER PRIMARY KEY has a
  // hidden key no record holds.
  const key = foldName(t.key[0] ?? "");
  return t.keyKind === "rowid" && t.key.length === 1 && t.module === null && !t.withoutRowid &&
    t.columns.every((c) => c.hidden === 0) && foldName(t.name) !== "sqlite_sequence" &&
    t.columns.some((c) => foldName(c.name) === key);
}

/** `+a IS NOT +b COLLATE BINARY` on two stored values. */
function distinct(a: Stored, b: Stored): boolean {
  const kind = (s: number): number => (s === 0 ? 0 : s <= 9 ? 1 : s % 2 === 1 ? 3 : 4);
  const ka = kind(a.serial);
  if (ka !== kind(b.serial)) return true;
  if (ka === 0) return false;
  if (ka === 1) return a.value !== b.value;
  const x = a.bytes!;
  const y = b.bytes!;
  if (x.length !== y.length) return true;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return true;
  return false;
}

/** Reads the cells of one table b-tree in rowid ranges, decoded. */
class CellReader {
  readonly #fd: number;
  readonly #pages: number;
  readonly #size: number;
  readonly #usable: number;
  readonly #columns: number;
  readonly #keyAt: number;
  readonly #out: Row[] = [];
  #bytes = 0;
  #read = 0;

  constructor(
    fd: number,
    pages: number,
    size: number,
    usable: number,
    columns: number,
    keyAt: number,
  ) {
    this.#fd = fd;
    this.#pages = pages;
    this.#size = size;
    this.#usable = usable;
    this.#columns = columns;
    this.#keyAt = keyAt;
  }

  rows(root: number, ranges: RowidRanges): Row[] {
    this.#walk(root, ranges, -Infinity, Infinity, 0);
    return this.#out;
  }

  #page(n: number): Uint8Array {
    if (n < 1 || n > this.#pages || ++this.#read > MAX_PAGES) throw new Unfit();
    const page = new Uint8Array(this.#size);
    if (fs.readSync(this.#fd, page, 0, this.#size, (n - 1) * this.#size) !== this.#size) {
      throw new Unfit();
    }
    return page;
  }

  /** Whether some range meets (lo, hi]. */
  #wanted(ranges: RowidRanges, lo: number, hi: number): boolean {
    // The first range that ends above lo: it meets (lo, hi] if it starts by hi.
    const i = firstEndingAbove(ranges, lo);
    return i < ranges.length && Number(ranges.lo(i)) <= hi;
  }

  /** Walks page `n`, whose rowids lie in (lo, hi]. */
  #walk(n: number, ranges: RowidRanges, lo: number, hi: number, depth: number): void {
    if (depth > 40) throw new Unfit();
    const page = this.#page(n);
    const h = n === 1 ? 100 : 0;
    const cells = (page[h + 3]! << 8) | page[h + 4]!;
    if (page[h] === TABLE_INTERIOR) {
      const at = (i: number): number => (page[h + 12 + 2 * i]! << 8) | page[h + 13 + 2 * i]!;
      let low = lo;
      for (let i = 0; i < cells; i++) {
        const c = at(i);
        const child = u32(page, c);
        const [key] = varint(page, c + 4);
        // A negative rowid is a 9-byte varint: no safe number orders it.
        if (!Number.isSafeInteger(key) || key <= low) throw new Unfit();
        if (this.#wanted(ranges, low, key)) this.#walk(child, ranges, low, key, depth + 1);
        low = key;
      }
      if (this.#wanted(ranges, low, hi)) this.#walk(u32(page, h + 8), ranges, low, hi, depth + 1);
      return;
    }
    if (page[h] !== TABLE_LEAF) throw new Unfit();
    for (let i = 0; i < cells; i++) {
      const c = (page[h + 8 + 2 * i]! << 8) | page[h + 9 + 2 * i]!;
      const [size, q] = varint(page, c);
      const [rowid, start] = varint(page, q);
      if (!Number.isSafeInteger(rowid)) throw new Unfit();
      if (!inRanges(ranges, rowid)) continue;
      this.#bytes += size;
      if (this.#out.length >= MAX_CELLS || this.#bytes > MAX_BYTES) throw new Unfit();
      this.#out.push({ rowid, values: this.#record(this.#payload(page, start, size), rowid) });
    }
  }

  /** A cell's whole payload, overflow pages included. */
  #payload(page: Uint8Array, start: number, size: number): Uint8Array {
    const local = localPayload(size, this.#usable, TABLE_LEAF);
    if (start + local > this.#usable) throw new Unfit();
    if (local === size) return page.subarray(start, start + size);
    const out = new Uint8Array(size);
    out.set(page.subarray(start, start + local));
    let filled = local;
    let next = u32(page, start + local);
    for (let guard = 0; filled < size; guard++) {
      if (next === 0 || guard > this.#pages) throw new Unfit();
      const o = this.#page(next);
      const k = Math.min(this.#usable - 4, size - filled);
      out.set(o.subarray(4, 4 + k), filled);
      filled += k;
      next = u32(o, 0);
    }
    return out;
  }

  /** The values of a record, as the engine reads them. */
  #record(rec: Uint8Array, rowid: number): Stored[] {
    const [headerSize, first] = varint(rec, 0);
    let t = first;
    let body = headerSize;
    const out: Stored[] = [];
    while (t < headerSize) {
      const [serial, next] = varint(rec, t);
      t = next;
      const len = serialSize(serial);
      if (len < 0 || body + len > rec.length) throw new Unfit();
      out.push(stored(rec, body, serial, len));
      body += len;
    }
    // A record written before an ADD COLUMN reads the column's default.
    if (out.length !== this.#columns || t !== headerSize) throw new Unfit();
    const key = out[this.#keyAt]!;
    if (key.serial !== 0) throw new Unfit();
    out[this.#keyAt] = { serial: 1, value: rowid, bytes: null };
    return out;
  }
}

function stored(rec: Uint8Array, at: number, serial: number, len: number): Stored {
  if (serial === 0) return { serial, value: null, bytes: null };
  if (serial === 8 || serial === 9) return { serial, value: serial - 8, bytes: null };
  if (serial === 7) {
    const v = new DataView(rec.buffer, rec.byteOffset + at, 8).getFloat64(0);
    return { serial, value: v, bytes: null };
  }
  if (serial <= 6) {
    const big = readInt(rec, at, len);
    if (big > BigInt(Number.MAX_SAFE_INTEGER) || big < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new Unfit();
    }
    return { serial, value: Number(big), bytes: null };
  }
  const bytes = rec.subarray(at, at + len);
  if (serial % 2 === 1) return { serial, value: decodeSqliteText(bytes), bytes };
  return { serial, value: bytes.slice(), bytes };
}

/** A big-endian two's-complement integer of `len` bytes. */
function readInt(rec: Uint8Array, at: number, len: number): bigint {
  let v = 0n;
  for (let i = 0; i < len; i++) v = (v << 8n) | BigInt(rec[at + i]!);
  return BigInt.asIntN(len * 8, v);
}

function inRanges(ranges: RowidRanges, rowid: number): boolean {
  const i = firstEndingAbove(ranges, rowid - 1);
  return i < ranges.length && Number(ranges.lo(i)) <= rowid;
}

/** The first of the sorted, disjoint ranges whose end is above `x` (ranges.length if none). */
function firstEndingAbove(ranges: RowidRanges, x: number): number {
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (Number(ranges.hi(mid)) > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function u32(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
}

/** The varint at `at` and the offset after it. */
function varint(b: Uint8Array, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const x = b[at + i];
    if (x === undefined) throw new Unfit();
    v = v * 128 + (x & 0x7f);
    if (x < 0x80) return [v, at + i + 1];
  }
  const x = b[at + 8];
  if (x === undefined) throw new Unfit();
  return [v * 256 + x, at + 9];
}
