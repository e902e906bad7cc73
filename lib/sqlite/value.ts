/**
 * SQLite values in JavaScript, and the one comparison of them that the diff
 * engine, the selector language and row comparison all share.
 *
 * @module
 */
import { Buffer } from "node:buffer";

/**
 * A value as SQLite stores it: NULL, INTEGER (a `number` when it fits in
 * 2^53, else a `bigint`), REAL (`number`), TEXT (`string`) or BLOB
 * (`Uint8Array`).
 *
 * @example
 * ```ts
 * import { openMemoryDatabase } from "./database.ts";
 * import type { SqliteValue } from "./value.ts";
 * const db = await openMemoryDatabase();
 * const [row] = db.query("SELECT NULL AS n, 1 AS i, 9007199254740993 AS big, 0.5 AS r, 'a' AS t, x'00' AS b");
 * const values: SqliteValue[] = Object.values(row!);
 * values.map((v) => v instanceof Uint8Array ? "blob" : v === null ? "null" : typeof v);
 * // ["null", "number", "bigint", "number", "string", "blob"]
 * db.close();
 * ```
 */
export type SqliteValue = null | number | bigint | string | Uint8Array;

/**
 * A row keyed by column name.
 *
 * @example
 * ```ts
 * import { openMemoryDatabase } from "./database.ts";
 * import type { SqliteRow } from "./value.ts";
 * const db = await openMemoryDatabase();
 * const rows: SqliteRow[] = db.query("SELECT 1 AS id, 'alice' AS name");
 * rows; // [{ id: 1, name: "alice" }]
 * db.close();
 * ```
 */
export type SqliteRow = Record<string, SqliteValue>;

/**
 * A new, empty row object without a prototype, so that any column name is
 * an ordinary key: `row["__proto__"] = 1` stores a value instead of
 * replacing the prototype, and `row["toString"]` is undefined unless the
 * row has such a column. Every row the engine builds starts here.
 *
 * @returns an empty row
 * @example
 * ```ts
 * import { emptyRow } from "./value.ts";
 * const row = emptyRow();
 * row["__proto__"] = 1;
 * Object.keys(row); // ["__proto__"]
 * row["constructor"]; // undefined
 * ```
 */
export function emptyRow(): SqliteRow {
  return Object.create(null) as SqliteRow;
}

/**
 * Sets a column on a row as an own property, whatever its name: a plain
 * assignment of `__proto__` would replace an ordinary object's prototype
 * instead of storing the value (and drop the column from `Object.keys`).
 *
 * @param row the row (ordinary or from {@link emptyRow})
 * @param name the column name
 * @param value the value
 * @example
 * ```ts
 * import { setColumn } from "./value.ts";
 * const row = {};
 * setColumn(row, "__proto__", 1);
 * Object.keys(row); // ["__proto__"]
 * ```
 */
export function setColumn(row: SqliteRow, name: string, value: SqliteValue): void {
  if (name === "__proto__") {
    Object.defineProperty(row, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else row[name] = value;
}

/** SQLite's storage classes in their sort order. */
function storageRank(v: SqliteValue): number {
  if (v === null) return 0;
  if (typeof v === "number" || typeof v === "bigint") return 1;
  if (typeof v === "string") return 2;
  return 3;
}

/**
 * Compares two values the way SQLite orders them with the BINARY collation:
 * NULL < numbers < text < BLOB; integers and reals compare exactly (no
 * rounding through a double beyond 2^53); text compares by code point, which
 * is UTF-8 byte order; BLOBs compare bytewise.
 *
 * @param a the first value
 * @param b the second value
 * @returns a negative number, zero or a positive number
 * @example
 * ```ts
 * import { compareValues } from "./value.ts";
 * compareValues(1, 1.0); // 0
 * compareValues(9007199254740993n, 9007199254740992); // 1
 * compareValues(1, "1"); // -1: numbers sort before text
 * ```
 */
export function compareValues(a: SqliteValue, b: SqliteValue): number {
  const ra = storageRank(a);
  const rb = storageRank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 0:
      return 0;
    case 1:
      return compareNumbers(a as number | bigint, b as number | bigint);
    case 2:
      return compareText(a as string, b as string);
    default:
      return compareBytes(a as Uint8Array, b as Uint8Array);
  }
}

/**
 * True when SQLite's `a IS b` holds: NULL IS NULL, 1 IS 1.0, but 1, '1' and
 * x'31' are three different values.
 *
 * @param a the first value
 * @param b the second value
 * @returns whether the values are the same
 * @example
 * ```ts
 * import { sameValue } from "./value.ts";
 * sameValue(null, null); // true
 * sameValue(1, "1"); // false
 * ```
 */
export function sameValue(a: SqliteValue, b: SqliteValue): boolean {
  if (a === b) return true;
  return compareValues(a, b) === 0;
}

/** Exact comparison of two SQLite numbers, integer or real. */
export function compareNumbers(a: number | bigint, b: number | bigint): number {
  if (typeof a === "number" && typeof b === "number") {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === "bigint" && typeof b === "bigint") {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === "bigint") return -compareNumbers(b, a);
  // a is a number, b a bigint.
  const x = a as number;
  const y = b as bigint;
  if (Number.isNaN(x)) return -1;
  if (x === Infinity) return 1;
  if (x === -Infinity) return -1;
  const floor = BigInt(Math.floor(x));
  if (floor !== y) return floor < y ? -1 : 1;
  return x > Math.floor(x) ? 1 : 0;
}

/** Compares text by Unicode code point, which matches SQLite's BINARY order on UTF-8. */
export function compareText(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 puts surrogates (code points above U+FFFF) below U+E000..U+FFFF;
    // UTF-8 and code point order put them above. Shift to code point order.
    if (x >= 0xd800) x += x <= 0xdfff ? 0x2000 : -0x800;
    if (y >= 0xd800) y += y <= 0xdfff ? 0x2000 : -0x800;
    return x - y;
  }
  return a.length - b.length;
}

/** Compares byte arrays as memcmp does, shorter first on a common prefix. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/**
 * A BLOB's bytes as lower-case hex, at native speed (a 10 MB BLOB is one
 * 20 MB string, not ten million small ones).
 *
 * @param bytes the bytes
 * @returns two hex digits a byte
 * @example
 * ```ts
 * import { bytesHex } from "./value.ts";
 * bytesHex(new Uint8Array([0, 255, 16])); // "00ff10"
 * ```
 */
export function bytesHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}
