/**
 * SQLite's record format: a header of serial types (one varint per column,
 * after a varint giving the header's size), then the values. Every record
 * the reader decodes is checked as SQLite's OP_Column checks it, and a bit
 * more: the header fits in the record, no serial type is one of the
 * reserved 10 and 11, and the values' sizes add up to the record's size
 * exactly.
 *
 * Values come out as the engine's `Statement.value()` gives them: integers
 * as numbers (bigints beyond 2^53), reals as numbers, BLOBs as bytes, TEXT
 * decoded exactly in the database's encoding (lib/sqlite/text.ts: UTF-8 with
 * bytes that are not UTF-8 escaped, or UTF-16 code units as they are).
 *
 * @module
 */
import type { SqliteValue } from "../sqlite/value.ts";
import { decodeSqliteTextAt, decodeUtf16Text } from "../sqlite/text.ts";
import type { TextEncoding } from "./header.ts";

/** Value sizes of serial types 0 to 11 (-1: reserved). */
const SIZES = [0, 1, 2, 3, 4, 6, 8, 8, 0, 0, -1, -1];

/**
 * The size of a value of serial type `type`.
 *
 * @param type the serial type
 * @returns its size in bytes, or -1 for the reserved types 10 and 11
 * @example
 * ```ts
 * import { serialSize } from "./record.ts";
 * serialSize(6); // 8: a 64-bit integer
 * serialSize(19); // 3: text of 3 bytes
 * ```
 */
export function serialSize(type: number): number {
  return type >= 12 ? Math.floor((type - 12) / 2) : SIZES[type] ?? -1;
}

/** The most a record header may hold, as SQLite allows it (98307 bytes). */
const MAX_HEADER = 98307;

/**
 * One record's header, parsed into arrays reused from record to record,
 * and the values read from it.
 *
 * @example
 * ```ts
 * import { Record } from "./record.ts";
 * // Header of 3 bytes (3, then serial types 1 and 15), then 7 and "a".
 * const bytes = new Uint8Array([3, 1, 15, 7, 0x61]);
 * const r = new Record("utf-8");
 * r.parse(bytes, 0, bytes.length, bytes.length); // null: no problem
 * [r.value(0), r.value(1)]; // [7, "a"]
 * ```
 */
export class Record {
  /** The number of columns the header lists. */
  count = 0;
  /** Where the parsed record starts in `buf`, and its size (set by {@link parse}). */
  at = 0;
  size = 0;
  /** Its header's size in bytes, the size varint included. */
  headerSize = 0;
  /** Each column's serial type. */
  types: Int32Array = new Int32Array(64);
  /** Each column's value offset, from the start of `buf`. */
  offsets: Int32Array = new Int32Array(64);
  /** The bytes the values are read from (set by {@link parse}). */
  buf: Uint8Array = new Uint8Array(0);
  readonly #encoding: TextEncoding;

  /** @param encoding how TEXT values are encoded (the database's encoding) */
  constructor(encoding: TextEncoding | null) {
    this.#encoding = encoding ?? "utf-8";
  }

  /**
   * Parses the header of the record of `size` bytes at `at` of `buf`,
   * checking it.
   *
   * @param buf the bytes
   * @param at where the record starts
   * @param avail how many of its bytes `buf` holds from `at` (at least its
   * header, or the header is read as far as it goes and found short)
   * @param size the record's size
   * @returns null, or what is wrong with it
   */
  parse(buf: Uint8Array, at: number, avail: number, size: number): string | null {
    this.buf = buf;
    let p = at;
    const limit = at + Math.min(avail, size);
    // The header's size, a varint (at most 3 bytes for 98307).
    let hs = 0;
    for (let i = 0;; i++) {
      if (p >= limit || i > 8) return "its record header runs past the record";
      const x = buf[p++]!;
      hs = hs * 128 + (x & 0x7f);
      if (x < 0x80) break;
    }
    if (hs > MAX_HEADER || hs > size) {
      return `its record header of ${hs} bytes is larger than the record (${size} bytes)`;
    }
    if (hs < p - at) return `its record header size ${hs} is smaller than its own varint`;
    const end = at + hs;
    if (end > limit) return "its record header runs past the record";
    let body = end;
    let n = 0;
    while (p < end) {
      let t = 0;
      for (let i = 0;; i++) {
        if (p >= end || i > 8) return "a serial type runs past the record header";
        const x = buf[p++]!;
        if (i === 8) {
          t = t * 256 + x;
          break;
        }
        t = t * 128 + (x & 0x7f);
        if (x < 0x80) break;
      }
      const width = t >= 12 ? Math.floor((t - 12) / 2) : SIZES[t]!;
      if (width < 0) return `column ${n + 1} has the reserved serial type ${t}`;
      if (n === this.types.length) this.#grow();
      this.types[n] = t;
      this.offsets[n] = body;
      body += width;
      n++;
    }
    this.count = n;
    if (body - at !== size) {
      return `its values take ${body - at - hs} bytes but the record holds ${size - hs}`;
    }
    this.at = at;
    this.size = size;
    this.headerSize = hs;
    return null;
  }

  /**
   * Takes the record of `size` bytes at `at` of `buf` as parsed when its
   * header is byte for byte that of `like` (a sound record of the same size
   * parsed before): the same serial types at the same offsets, so the same
   * check holds, at the cost of comparing the header's bytes instead of
   * decoding them. False: nothing is taken; {@link parse} it.
   *
   * @param like a record parsed without a problem
   * @param buf the bytes
   * @param at where the record starts
   * @param size the record's size (all of it in `buf`)
   * @returns whether it was taken
   */
  parseLike(like: Record, buf: Uint8Array, at: number, size: number): boolean {
    const hs = like.headerSize;
    if (size !== like.size || hs === 0 || hs > size) return false;
    const x = like.buf;
    for (let p = like.at, q = at, end = at + hs; q < end;) if (x[p++] !== buf[q++]) return false;
    const n = like.count;
    while (this.types.length < n) this.#grow();
    this.types.set(like.types.subarray(0, n));
    const shift = at - like.at;
    if (shift === 0) this.offsets.set(like.offsets.subarray(0, n));
    else for (let i = 0; i < n; i++) this.offsets[i] = like.offsets[i]! + shift;
    this.buf = buf;
    this.count = n;
    this.at = at;
    this.size = size;
    this.headerSize = hs;
    return true;
  }

  #grow(): void {
    const types = new Int32Array(this.types.length * 2);
    const offsets = new Int32Array(this.types.length * 2);
    types.set(this.types);
    offsets.set(this.offsets);
    this.types = types;
    this.offsets = offsets;
  }

  /** The size of column `i`'s value in bytes. */
  width(i: number): number {
    return serialSize(this.types[i]!);
  }

  /**
   * Column `i`'s value, as the engine reads it (see the module
   * documentation); a column past the header's end is null.
   *
   * @param i the column
   * @param real read an integer as a REAL (a column with REAL affinity,
   * which SQLite stores whole numbers of as integers)
   * @returns the value
   */
  value(i: number, real = false): SqliteValue {
    if (i >= this.count) return null;
    const t = this.types[i]!;
    const b = this.buf;
    const at = this.offsets[i]!;
    if (t === 0) return null;
    if (t <= 6) {
      const v = readInt(b, at, SIZES[t]!);
      return real ? Number(v) : v;
    }
    if (t === 7) return readReal(b, at);
    if (t === 8 || t === 9) return t - 8;
    const n = (t - 12) >> 1;
    if ((t & 1) === 0) {
      // A copy, and a plain Uint8Array: the page may lie in a Buffer, whose
      // slice() is a view of memory read into again.
      const out = new Uint8Array(n);
      out.set(b.subarray(at, at + n));
      return out;
    }
    const enc = this.#encoding;
    return enc === "utf-8"
      ? decodeSqliteTextAt(b, at, n)
      : decodeUtf16Text(b, at, n, enc === "utf-16le");
  }
}

/** Eight bytes, to read a big-endian IEEE 754 double through without an allocation. */
const REAL_BYTES = new Uint8Array(8);
const REAL = new Float64Array(REAL_BYTES.buffer);
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The big-endian IEEE 754 double at `at` (no allocation).
 *
 * @param b the bytes
 * @param at where it starts
 * @returns the number
 */
export function readReal(b: Uint8Array, at: number): number {
  if (LITTLE) { for (let k = 0; k < 8; k++) REAL_BYTES[k] = b[at + 7 - k]!; }
  else for (let k = 0; k < 8; k++) REAL_BYTES[k] = b[at + k]!;
  return REAL[0]!;
}

/** The storage class of a serial type: 0 NULL, 1 integer, 2 real, 3 text, 4 BLOB. */
function storage(t: number): number {
  return t === 0 ? 0 : t === 7 ? 2 : t <= 9 ? 1 : t % 2 === 1 ? 3 : 4;
}

/**
 * Whether column `i` of `a` and column `j` of `b` hold the same value as
 * SQLite's `IS` compares them with BINARY collation (`+x IS +y COLLATE
 * BINARY`): NULL is NULL, numbers equal as numbers (an integer and a real
 * exactly; with `real`, integers read as REALs first, as a column of REAL
 * affinity reads them), text and BLOBs byte for byte and of one class. No
 * value is built: the bytes are compared where they lie. Both records must
 * be of one text encoding.
 *
 * @param a a parsed record
 * @param i its column (past its header: NULL)
 * @param b another
 * @param j its column
 * @param real both columns have REAL affinity
 * @returns true when `IS` says they are the same
 */
export function sameStored(a: Record, i: number, b: Record, j: number, real = false): boolean {
  const ta = i < a.count ? a.types[i]! : 0;
  const tb = j < b.count ? b.types[j]! : 0;
  if (ta === tb) {
    // One serial type: the same bytes are the same value, and other bytes
    // another, but for a real (0.0 and -0.0 are equal).
    const n = ta >= 12 ? (ta - 12) >> 1 : SIZES[ta]!;
    const x = a.buf;
    const y = b.buf;
    let p = a.offsets[i]!;
    let q = b.offsets[j]!;
    let same = true;
    for (const end = p + n; p < end;) {
      if (x[p++] !== y[q++]) {
        same = false;
        break;
      }
    }
    if (same || ta !== 7) return same;
  }
  const ka = storage(ta);
  const kb = storage(tb);
  if (ka === 0 || kb === 0) return ka === kb;
  if (ka >= 3 || kb >= 3) {
    if (ka !== kb || ta !== tb) return false;
    const n = (ta - 12) >> 1;
    const x = a.buf;
    const y = b.buf;
    let p = a.offsets[i]!;
    let q = b.offsets[j]!;
    for (const end = p + n; p < end;) if (x[p++] !== y[q++]) return false;
    return true;
  }
  const va = a.value(i, real) as number | bigint;
  const vb = b.value(j, real) as number | bigint;
  if (typeof va === typeof vb) return va === vb;
  // An integer beyond 2^53 (a bigint) and a real.
  const [big, num] = typeof va === "bigint" ? [va, vb as number] : [vb as bigint, va as number];
  return Number.isInteger(num) && BigInt(num) === big;
}

/**
 * The big-endian two's-complement integer of `width` bytes at `at`: a
 * number when it is a safe integer, else a bigint (as Statement.value()).
 *
 * @param b the bytes
 * @param at where it starts
 * @param width 1, 2, 3, 4, 6 or 8
 * @returns the integer
 */
export function readInt(b: Uint8Array, at: number, width: number): number | bigint {
  if (width <= 6) {
    let v = 0;
    for (let k = 0; k < width; k++) v = v * 256 + b[at + k]!;
    return b[at]! >= 0x80 ? v - 2 ** (8 * width) : v;
  }
  const hi = (b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!;
  const lo = ((b[at + 4]! << 24) >>> 0) + (b[at + 5]! << 16) + (b[at + 6]! << 8) + b[at + 7]!;
  const v = hi * 4294967296 + lo;
  if (Number.isSafeInteger(v)) return v;
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/**
 * SQLite's varint of `n` (a non-negative integer below 2^53): big-endian
 * groups of 7 bits, every byte but the last with its high bit set.
 *
 * @param n the number
 * @returns its bytes
 */
export function varintBytes(n: number): number[] {
  if (n < 0x80) return [n];
  const out: number[] = [];
  let v = n;
  while (v > 0) {
    out.unshift(v & 0x7f);
    v = Math.floor(v / 128);
  }
  for (let i = 0; i < out.length - 1; i++) out[i]! |= 0x80;
  return out;
}

/**
 * A record of some fields of a parsed record, in the order given (a key's
 * fields, for key_order.ts compareRecords): their serial types and bytes
 * copied; a field past the record's end is NULL.
 *
 * @param r the parsed record
 * @param fields the fields to take, by their place in `r`
 * @returns the new record's bytes
 */
export function fieldsRecord(r: Record, fields: readonly number[]): Uint8Array {
  const types: number[] = [];
  let body = 0;
  for (const i of fields) {
    const t = i < r.count ? r.types[i]! : 0;
    types.push(...varintBytes(t));
    body += serialSize(t);
  }
  let hs = types.length + 1;
  if (varintBytes(hs).length > 1) hs = types.length + varintBytes(types.length + 2).length;
  const out = new Uint8Array(hs + body);
  out.set(varintBytes(hs), 0);
  out.set(types, hs - types.length);
  let at = hs;
  for (const i of fields) {
    if (i >= r.count) continue;
    const n = serialSize(r.types[i]!);
    out.set(r.buf.subarray(r.offsets[i]!, r.offsets[i]! + n), at);
    at += n;
  }
  return out;
}
