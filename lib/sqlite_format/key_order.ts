/**
 * The order of an index b-tree's keys, checked: every entry of the tree,
 * read in the tree's order (leaves and interior cells alike), must be above
 * the one before it, as SQLite compares records (vdbeaux.c
 * sqlite3VdbeRecordCompare): field by field, NULL before numbers (integers
 * and reals compared exactly), numbers before text (by the field's
 * collation: BINARY, NOCASE or RTRIM), text before BLOBs (byte by byte), a
 * DESC field the other way round. In a UTF-16 file BINARY compares the
 * file's bytes, while NOCASE and RTRIM, which SQLite defines for UTF-8
 * only, compare each text's UTF-8 form. An index whose leaves were swapped, or a
 * page whose cells are out of order, is damage that no walk of its interior
 * pages can see, and SQLite's lookups through it would miss rows.
 *
 * The check runs as a tree is read, whoever reads it ({@link KeyOrder}, which
 * a CellStream is given): an index that only SQLite's lookups use is read
 * for it alone ({@link checkKeyOrder}), while a WITHOUT ROWID table's tree,
 * which the diff's comparison of its pages reads anyway, is checked in that
 * same pass. Keys are compared where they lie, header and values read from
 * the page's bytes, nothing built per entry; within a page each entry is
 * compared with the one before it, and the last entry of each page is kept
 * (copied) for the first of the next.
 *
 * @module
 */
import { type BtreePage, RECORD, recordCheck } from "./btree_page.ts";
import { CellStream } from "./cell_stream.ts";
import type { PageOwners } from "./page_owners.ts";
import type { PageSource } from "./page_source.ts";
import { readInt, readReal, Record } from "./record.ts";
import type { TextEncoding } from "./header.ts";

/** A collation the comparison knows. */
export type Collation = "binary" | "nocase" | "rtrim";

/**
 * The collation the comparison knows by a name SQLite gives it (`BINARY`,
 * `NOCASE`, `RTRIM`, in any case), or undefined for any other (an
 * application's own).
 *
 * @param name the collation's name
 * @returns the collation, or undefined
 */
export function knownCollation(name: string): Collation | undefined {
  const n = name.toLowerCase();
  return n === "binary" || n === "nocase" || n === "rtrim" ? n : undefined;
}

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

/** Two UTF-8 texts compared under `collation`. */
function compareText(
  a: Uint8Array,
  p: number,
  n: number,
  b: Uint8Array,
  q: number,
  m: number,
  collation: Collation,
): number {
  if (collation === "rtrim") {
    while (n > 0 && a[p + n - 1] === 0x20) n--;
    while (m > 0 && b[q + m - 1] === 0x20) m--;
  }
  return compareBytes(a, p, n, b, q, m, collation === "nocase");
}

/** Value sizes of serial types 0 to 9. */
const WIDTHS = [0, 1, 2, 3, 4, 6, 8, 8, 0, 0];

/** The end of the varint read last by {@link varintAt}. */
let varintEnd = 0;

/** The varint at `p` (exact to 2^53, which serial types and header sizes stay under). */
function varintAt(b: Uint8Array, p: number): number {
  let x = b[p]!;
  if (x < 0x80) {
    varintEnd = p + 1;
    return x;
  }
  let v = x & 0x7f;
  for (let k = 1; k < 9; k++) {
    x = b[p + k]!;
    if (k === 8) {
      varintEnd = p + 9;
      return v * 256 + x;
    }
    v = v * 128 + (x & 0x7f);
    if (x < 0x80) {
      varintEnd = p + k + 1;
      return v;
    }
  }
  return v;
}

/** The number of serial type `t` (1 to 9) at `at`. */
function numberAt(b: Uint8Array, at: number, t: number): number | bigint {
  if (t === 8 || t === 9) return t - 8;
  if (t === 7) return readReal(b, at);
  return readInt(b, at, WIDTHS[t]!);
}

const UTF16_DECODERS = {
  "utf-16le": new TextDecoder("utf-16le", { fatal: true, ignoreBOM: true }),
  "utf-16be": new TextDecoder("utf-16be", { fatal: true, ignoreBOM: true }),
};
const UTF8 = new TextEncoder();

/**
 * The UTF-8 bytes of `n` bytes of UTF-16 text at `at`: SQLite's NOCASE and
 * RTRIM compare text in UTF-8 (they are defined for it alone), so a UTF-16
 * file's text is converted before either compares it. Null for text that
 * is not valid UTF-16 (a lone surrogate), whose conversion is SQLite's own.
 */
function utf8Of(b: Uint8Array, at: number, n: number, encoding: "utf-16le" | "utf-16be") {
  try {
    return UTF8.encode(UTF16_DECODERS[encoding].decode(b.subarray(at, at + n)));
  } catch {
    return null;
  }
}

/**
 * Compares two index records of `fields.length` leading fields where they
 * lie, as SQLite orders them (see the module documentation); both records'
 * headers must be sound (the page parse checked them).
 *
 * @param a the bytes holding one record
 * @param pa where it starts
 * @param b the bytes holding another
 * @param pb where it starts
 * @param fields how each leading field compares
 * @param encoding the file's text encoding (NOCASE and RTRIM compare UTF-16 text as UTF-8)
 * @returns negative, zero or positive; NaN when two texts of a UTF-16 file
 *   cannot be put in SQLite's order here (one is not valid UTF-16)
 */
export function compareRecords(
  a: Uint8Array,
  pa: number,
  b: Uint8Array,
  pb: number,
  fields: readonly KeyField[],
  encoding: TextEncoding | null = "utf-8",
): number {
  const ea = pa + varintAt(a, pa);
  let qa = varintEnd;
  const eb = pb + varintAt(b, pb);
  let qb = varintEnd;
  let da = ea;
  let db = eb;
  for (let f = 0; f < fields.length; f++) {
    // Serial types of one byte (below 128: text up to 57 bytes) are read inline.
    let ta = 0;
    if (qa < ea) {
      ta = a[qa]!;
      if (ta < 0x80) qa++;
      else {
        ta = varintAt(a, qa);
        qa = varintEnd;
      }
    }
    let tb = 0;
    if (qb < eb) {
      tb = b[qb]!;
      if (tb < 0x80) qb++;
      else {
        tb = varintAt(b, qb);
        qb = varintEnd;
      }
    }
    const field = fields[f]!;
    if (ta === tb && ta >= 12 && field.collation === "binary") {
      // The same storage class and length, compared as bytes: the common case.
      const n = (ta - 12) >> 1;
      let c = 0;
      for (let k = 0; k < n; k++) {
        c = a[da + k]! - b[db + k]!;
        if (c !== 0) break;
      }
      if (c !== 0) return field.desc ? -c : c;
      da += n;
      db += n;
      continue;
    }
    if (ta === 7 && tb === 7 && a[da]! >> 7 === b[db]! >> 7) {
      // Two reals of one sign: their IEEE 754 bytes order as their
      // magnitudes do (0.0 and -0.0, of two signs, go the long way).
      let c = 0;
      for (let k = 0; k < 8 && c === 0; k++) c = a[da + k]! - b[db + k]!;
      if (a[da]! >= 0x80) c = -c;
      if (c !== 0) return field.desc ? -c : c;
      da += 8;
      db += 8;
      continue;
    }
    const ka = storage(ta);
    const kb = storage(tb);
    let c = ka - kb;
    if (c === 0 && ka === 1) {
      const x = numberAt(a, da, ta);
      const y = numberAt(b, db, tb);
      c = typeof x === "number" && typeof y === "number"
        ? (x < y ? -1 : x > y ? 1 : 0)
        : compareNumbers(x, y);
    } else if (c === 0 && ka >= 3) {
      const n = (ta - 12) >> 1;
      const m = (tb - 12) >> 1;
      const text = ka === 3;
      if (text && field.collation !== "binary" && encoding !== null && encoding !== "utf-8") {
        const x = utf8Of(a, da, n, encoding);
        const y = utf8Of(b, db, m, encoding);
        if (x === null || y === null) return NaN;
        c = compareText(x, 0, x.length, y, 0, y.length, field.collation);
      } else if (text) c = compareText(a, da, n, b, db, m, field.collation);
      else c = compareBytes(a, da, n, b, db, m, false);
    }
    if (c !== 0) return field.desc ? -c : c;
    da += ta >= 12 ? (ta - 12) >> 1 : WIDTHS[ta]!;
    db += tb >= 12 ? (tb - 12) >> 1 : WIDTHS[tb]!;
  }
  return 0;
}

/**
 * The key order of one index b-tree, checked as its entries go by in the
 * tree's order (see the module documentation): a CellStream given one
 * tells it each page it lets go of.
 *
 * Entries out of order are damage ({@link SqliteDamageError}), unless the
 * order was made to {@link KeyOrder.note} them: then it only says whether
 * the tree is in order under fields that are a guess (a WITHOUT ROWID
 * table's key is checked as the diff's page comparison reads it, before
 * SQLite is asked how its columns compare), and a tree not in order under
 * the guess is read again under the right fields.
 *
 * @example
 * ```ts
 * import { KeyOrder } from "./key_order.ts";
 * const order = new KeyOrder([{ collation: "binary", desc: false }], "index i");
 * order.entries; // 0: none seen yet
 * order.inOrder; // true
 * ```
 */
export class KeyOrder {
  readonly fields: readonly KeyField[];
  readonly name: string;
  /** What an entry out of order is: damage (thrown), or noted in {@link inOrder}. */
  readonly mode: "throw" | "note";
  /** Entries checked so far. */
  entries = 0;
  /** Every entry so far is above the one before it (in "note" mode, false after the first that is not). */
  inOrder = true;
  /** The last entry seen: a copy of its record. */
  #last = new Uint8Array(256);
  #hasLast = false;
  #record: Record | null = null;

  /**
   * @param fields how the key's leading fields compare
   * @param name what to call the tree in a message (`index "i"`)
   * @param mode what an entry out of order is (see the class documentation)
   */
  constructor(fields: readonly KeyField[], name: string, mode: "throw" | "note" = "throw") {
    this.fields = fields;
    this.name = name;
    this.mode = mode;
  }

  /**
   * Checks the entries of a parsed page (a leaf, or an index tree's
   * interior cell made a page of one) after the entry before them.
   *
   * @param page the page
   * @param payload cell `i`'s whole payload, for a cell that spills
   * @throws {SqliteDamageError} at the first entry not above the one before it
   */
  page(page: BtreePage, payload: (i: number) => Uint8Array): void {
    const count = page.count;
    if (count === 0 || !this.inOrder) return;
    const buf = page.buf;
    const fields = this.fields;
    const encoding = page.src.header.encoding;
    let prev = -1;
    for (let i = 0; i < count; i++) {
      if (page.overflow[i] !== 0) {
        const bytes = this.#spilled(page, i, payload);
        if (!this.#after(page, i, bytes, 0, prev)) return;
        this.#keep(bytes, 0, bytes.length);
        prev = -1;
        continue;
      }
      const at = page.start[i]!;
      if (prev >= 0) {
        if (compareRecords(buf, prev, buf, at, fields, encoding) >= 0 && !this.#disorder(page, i)) {
          return;
        }
      } else if (!this.#after(page, i, buf, at, -1)) return;
      prev = at;
    }
    this.entries += count;
    if (prev >= 0) this.#keep(buf, prev, page.payload[count - 1]!);
  }

  /**
   * A page the same as one checked by {@link page} for another stream (its
   * entries are in order): only its first entry is checked against the
   * entry before it here, and its last kept.
   *
   * @param page the other stream's parsed copy of the page
   * @param payload cell `i`'s whole payload, for a cell that spills
   */
  proxied(page: BtreePage, payload: (i: number) => Uint8Array): void {
    const count = page.count;
    if (count === 0 || !this.inOrder) return;
    const last = count - 1;
    const ok = page.overflow[0] !== 0
      ? this.#after(page, 0, this.#spilled(page, 0, payload), 0, -1)
      : this.#after(page, 0, page.buf, page.start[0]!, -1);
    if (!ok) return;
    if (page.overflow[last] !== 0) {
      const bytes = this.#spilled(page, last, payload);
      this.#keep(bytes, 0, bytes.length);
    } else this.#keep(page.buf, page.start[last]!, page.payload[last]!);
    this.entries += count;
  }

  /**
   * Cell `i`'s whole payload, its record header checked: a header too long
   * for the cell's page is checked when its chain is read alone, but not
   * when the chain was compared with the other side's.
   */
  #spilled(page: BtreePage, i: number, payload: (i: number) => Uint8Array): Uint8Array {
    const bytes = payload(i);
    if (recordCheck(bytes, 0, bytes.length, bytes.length) !== RECORD.OK) {
      this.#record ??= new Record(page.src.header.encoding);
      const problem = this.#record.parse(bytes, 0, bytes.length, bytes.length);
      throw page.src.damaged(page.number, `cell ${i + 1}: ${problem ?? "a damaged record"}`);
    }
    return bytes;
  }

  /**
   * Checks the entry at `at` of `bytes` (cell `i`) against the kept one,
   * unless `prev` is at hand: false when it is out of order (noted).
   */
  #after(page: BtreePage, i: number, bytes: Uint8Array, at: number, prev: number): boolean {
    const encoding = page.src.header.encoding;
    const above = prev >= 0
      ? compareRecords(page.buf, prev, bytes, at, this.fields, encoding)
      : this.#hasLast
      ? compareRecords(this.#last, 0, bytes, at, this.fields, encoding)
      : -1;
    // NaN (texts not put in order here) is taken as in order.
    return !(above >= 0) || this.#disorder(page, i);
  }

  /** Cell `i` of `page` is not above the entry before it: thrown, or noted (false). */
  #disorder(page: BtreePage, i: number): false {
    if (this.mode === "note") {
      this.inOrder = false;
      return false;
    }
    throw page.src.damaged(
      page.number,
      `cell ${
        i + 1
      } of ${this.name} is not above the entry before it: the index's keys are out of order`,
    );
  }

  #keep(bytes: Uint8Array, at: number, size: number): void {
    if (this.#last.length < size) {
      this.#last = new Uint8Array(Math.max(size, 2 * this.#last.length));
    }
    const last = this.#last;
    if (size <= 64) { for (let k = 0; k < size; k++) last[k] = bytes[at + k]!; }
    else last.set(bytes.subarray(at, at + size));
    this.#hasLast = true;
  }
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
  const order = new KeyOrder(fields, name);
  const cells = new CellStream(src, root, "index", owners, owners === null ? "none" : "expect");
  cells.order = order;
  try {
    for (;;) {
      const p = cells.ensure(1);
      if (p !== null) await p;
      if (!cells.locate(0)) break;
      // Letting go of the page checks its entries.
      cells.skipLeaf();
    }
  } finally {
    await cells.close();
  }
  return order.entries;
}
