/**
 * SQLite values as Python's sqlite3 module hands them to the public
 * benchmarks' evaluators, and the bits of Python those evaluators lean on:
 * `==` between them (1 == 1.0, '1' != 1), `str(x) + str(type(x))` (the sort
 * key of test-suite-sql-eval's row "unordering") and code-point string order.
 *
 * @module
 */
import type { StoredValue } from "./stored.ts";
import { bytesHex } from "../sqlite/value.ts";

/**
 * A key equal for two values exactly when Python's `==` says they are equal
 * (and so also their hashes): an INTEGER and a REAL of the same value are
 * equal, text and numbers never are.
 *
 * @param v a value
 * @returns the key
 */
export function pyKey(v: StoredValue): string {
  if (v === null) return "n";
  if (typeof v === "bigint") return `i${v}`;
  if (typeof v === "number") {
    return Number.isInteger(v) ? `i${BigInt(v)}` : `f${v}`;
  }
  if (typeof v === "string") return `s${v}`;
  return `b${bytesHex(v)}`;
}

/**
 * The key of a row (a tuple) under Python's `==`.
 *
 * @param row the values
 * @returns the key
 */
export function pyRowKey(row: readonly StoredValue[]): string {
  return JSON.stringify(row.map(pyKey));
}

/**
 * Python's `repr(float)`: the shortest digits that read back as the same
 * double, fixed notation for exponents from -4 to 15, else `1e+16` style.
 *
 * @param x the number
 * @returns e.g. `3.0`, `0.0001`, `1e-05`, `1e+16`
 */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mantissa, e] = Math.abs(x).toExponential().split("e") as [string, string];
  const digits = mantissa.replace(".", "");
  const exp = Number(e);
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
    const whole = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
    return `${sign}${whole}.${digits.slice(exp + 1) || "0"}`;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

/** Each byte as Python's bytes repr writes it between single quotes (the quote itself apart). */
const BYTE_REPR: readonly string[] = Array.from(
  { length: 256 },
  (_, c) =>
    c === 0x5c
      ? "\\\\"
      : c === 0x09
      ? "\\t"
      : c === 0x0a
      ? "\\n"
      : c === 0x0d
      ? "\\r"
      : c < 0x20 || c >= 0x7f
      ? `\\x${c.toString(16).padStart(2, "0")}`
      : String.fromCharCode(c),
);

function pyBytesRepr(b: Uint8Array): string {
  const hasSingle = b.includes(0x27);
  const quote = hasSingle && !b.includes(0x22) ? '"' : "'";
  const code = quote.charCodeAt(0);
  // Joined a chunk at a time: a 10 MB BLOB is one 40 MB string, not a rope
  // of ten million pieces.
  const parts: string[] = [];
  for (let at = 0; at < b.length; at += 65536) {
    const chunk: string[] = [];
    const end = Math.min(b.length, at + 65536);
    for (let i = at; i < end; i++) {
      const c = b[i]!;
      chunk.push(c === code ? `\\${quote}` : BYTE_REPR[c]!);
    }
    parts.push(chunk.join(""));
  }
  return `b${quote}${parts.join("")}${quote}`;
}

/**
 * `str(x) + str(type(x))`, the key test-suite-sql-eval sorts a row's values
 * by before comparing rows regardless of column order.
 *
 * @param v a value
 * @returns e.g. `3<class 'int'>`, `3.0<class 'float'>`
 */
export function pyStrWithType(v: StoredValue): string {
  if (v === null) return "None<class 'NoneType'>";
  if (typeof v === "bigint") return `${v}<class 'int'>`;
  if (typeof v === "number") return `${pyFloatRepr(v)}<class 'float'>`;
  if (typeof v === "string") return `${v}<class 'str'>`;
  return `${pyBytesRepr(v)}<class 'bytes'>`;
}

/**
 * Python's string order (by code point; JavaScript's `<` compares UTF-16
 * units, which differs only between astral characters and U+E000..U+FFFF).
 *
 * @param a a string
 * @param b another
 * @returns negative, zero or positive
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (an astral character) sorts above every BMP unit.
    const sx = x >= 0xd800 && x <= 0xdfff;
    const sy = y >= 0xd800 && y <= 0xdfff;
    if (sx !== sy) return sx ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
