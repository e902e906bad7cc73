/**
 * The order of an index b-tree's keys, checked: every entry of the tree,
 * read in the tree's order (leaves and interior cells alike), must be above
 * the one before it, as SQLite compares records (vdbeaux.c
 * sqlite3VdbeRecordCompare): field by field, NULL before numbers (integers
 * and reals compared exactly), numbers before text (by the field's
 * collation: BINARY, NOCASE or RTRIM), text before BLOBs (byte by byte), a
 * DESC field the other way round. An index whose leaves were swapped, or a
 * page whose cells are out of order, is damage that no walk of its interior
 * pages can see, and SQLite's lookups through it would miss rows.
 *
 * @module
 */
import { CellStream } from "./cell_stream.ts";
import type { PageOwners } from "./page_owners.ts";
import type { PageSource } from "./page_source.ts";
import { Record } from "./record.ts";

/** A collation the comparison knows. */
export type Collation = "binary" | "nocase" | "rtrim";

/** How one field of an index key compares. */
export interface KeyField {
  readonly collation: Collation;
  readonly desc: boolean;
}

/** The storage class of a serial type: 0 NULL, 1 number, 3 text, 4 BLOB. */
function storage(t: number): number {
  return t === 0 ? 0 : t <= 9 ? 1 : t % 2 === 1 ? 3 : 4;
}

function compareNumbers(a: number | bigint, b: number | bigint): number {
  if (typeof a === typeof b) return a < b ? -1 : a > b ? 1 : 0;
  // A bigint (beyond 2^53) and a number: exactly.
  const [x, y, s] = typeof a === "bigint" ? [a, b as number, 1] : [b as bigint, a as number, -1];
  if (Number.isNaN(y)) return s;
  if (!Number.isFinite(y)) return y > 0 ? -s : s;
  const f = BigInt(Math.floor(y));
  if (x !== f) return x < f ? -s : s;
  return y > Math.floor(y) ? -s : 0;
}

function compareBytes(
  a: Uint8Array,
  p: number,
  n: number,
  b: Uint8Array,
  q: number,
  m: number,
  nocase: boolean,
): number {
  const len = Math.min(n, m);
  for (let i = 0; i < len; i++) {
    let x = a[p + i]!;
    let y = b[q + i]!;
    if (nocase) {
      if (x >= 65 && x <= 90) x += 32;
      if (y >= 65 && y <= 90) y += 32;
    }
    if (x !== y) return x - y;
  }
  return n - m;
}

/**
 * Compares field `i` of two parsed records as SQLite does.
 *
 * @param a a record
 * @param b another
 * @param i the field
 * @param collation how text compares
 * @returns negative, zero or positive
 */
export function compareField(a: Record, b: Record, i: number, collation: Collation): number {
  const ta = i < a.count ? a.types[i]! : 0;
  const tb = i < b.count ? b.types[i]! : 0;
  const ka = storage(ta);
  const kb = storage(tb);
  if (ka !== kb) return ka - kb;
  if (ka === 0) return 0;
  if (ka === 1) {
    const x = a.value(i) as number | bigint;
    const y = b.value(i) as number | bigint;
    if (typeof x === "number" && typeof y === "number") return x < y ? -1 : x > y ? 1 : 0;
    return compareNumbers(x, y);
  }
  let n = a.width(i);
  let m = b.width(i);
  const p = a.offsets[i]!;
  const q = b.offsets[i]!;
  if (ka === 3 && collation === "rtrim") {
    while (n > 0 && a.buf[p + n - 1] === 0x20) n--;
    while (m > 0 && b.buf[q + m - 1] === 0x20) m--;
  }
  return compareBytes(a.buf, p, n, b.buf, q, m, ka === 3 && collation === "nocase");
}

/**
 * Compares two index keys field by field.
 *
 * @param a a record
 * @param b another
 * @param fields how each leading field compares (the rest are not compared)
 * @returns negative, zero or positive
 */
export function compareKeys(a: Record, b: Record, fields: readonly KeyField[]): number {
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    const c = compareField(a, b, i, f.collation);
    if (c !== 0) return f.desc ? -c : c;
  }
  return 0;
}

/**
 * Reads every entry of the index b-tree at `root` in the tree's order and
 * checks each is above the one before it (see the module documentation);
 * its pages, overflow chains included, are checked as any tree's are.
 *
 * @param src the file
 * @param root the index's root page
 * @param fields how its key's fields compare (for an index: its columns and the rowid)
 * @param owners the file's page owners (the tree walked before; overflow pages are claimed), or null
 * @param name what to call the index in a message
 * @returns the number of entries
 * @throws {SqliteDamageError} at the first entry out of order
 * @example
 * ```ts
 * import { PageSource } from "./page_source.ts";
 * import { checkKeyOrder } from "./key_order.ts";
 * const src = PageSource.open("examples/chinook/Chinook_Sqlite.sqlite");
 * const fields = [{ collation: "binary", desc: false }] as const;
 * // An index of Chinook (IFK_AlbumArtistId: ArtistId, then the rowid).
 * await checkKeyOrder(src, 16, [...fields, ...fields], null, "index IFK_AlbumArtistId") > 0; // true
 * src.close();
 * ```
 */
export async function checkKeyOrder(
  src: PageSource,
  root: number,
  fields: readonly KeyField[],
  owners: PageOwners | null,
  name: string,
): Promise<number> {
  const cells = new CellStream(src, root, "index", owners, owners === null ? "none" : "expect");
  const records = [new Record(src.header.encoding), new Record(src.header.encoding)];
  // The entry before stays parsed in the other record: where it lies on
  // the current leaf, or (a leaf's last) copied into one of two buffers.
  const copies = [new Uint8Array(256), new Uint8Array(256)];
  let count = 0;
  try {
    for (let turn = 0;; turn ^= 1) {
      const p = cells.ensure(1);
      if (p !== null) await p;
      if (!cells.locate(0)) break;
      const page = cells.page!;
      const i = cells.index;
      const size = page.payload[i]!;
      let from: Uint8Array = page.buf;
      let at = page.start[i]!;
      if (page.overflow[i] !== 0) {
        from = cells.payload(0);
        at = 0;
      } else if (i === page.count - 1) {
        // The leaf's last entry: its buffer may be read into once the
        // stream moves on (an interior cell is a copy already).
        let bytes = copies[turn]!;
        if (bytes.length < size) {
          bytes = copies[turn] = new Uint8Array(Math.max(size, 2 * bytes.length));
        }
        if (size <= 64) { for (let k = 0; k < size; k++) bytes[k] = from[at + k]!; }
        else bytes.set(from.subarray(at, at + size));
        from = bytes;
        at = 0;
      }
      const r = records[turn]!;
      const problem = r.parse(from, at, size, size);
      if (problem !== null) throw src.damaged(page.number, `cell ${i + 1}: ${problem}`);
      if (count > 0 && compareKeys(records[turn ^ 1]!, r, fields) >= 0) {
        throw src.damaged(
          page.number,
          `cell ${
            i + 1
          } of ${name} is not above the entry before it: the index's keys are out of order`,
        );
      }
      count++;
      cells.skip(1);
    }
  } finally {
    await cells.close();
  }
  return count;
}
