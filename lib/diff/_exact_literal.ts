/**
 * Values as exact SQL literals for `db diff --sql`, read back exactly by
 * the sqlite3 shell of any version.
 *
 * @module
 */
import { hasEscapedBytes } from "../sqlite/text.ts";
import type { SqliteValue } from "../sqlite/value.ts";
import { balanced, sqlLiteral, stringLiteral } from "./_sql.ts";

/**
 * A value as an exact SQL literal for `--sql`.
 *
 * @param v the value
 * @returns SQL that evaluates to exactly `v`
 */
export function exactLiteral(v: SqliteValue): string {
  if (typeof v === "string" && /[\0\r]/.test(v) && !hasEscapedBytes(v)) return shellSafeText(v);
  if (typeof v !== "number") return sqlLiteral(v);
  if (Number.isNaN(v)) return "NULL";
  if (Object.is(v, -0)) return "-0.0";
  if (Number.isSafeInteger(v)) return String(v);
  if (!Number.isFinite(v)) return v > 0 ? "9e999" : "-9e999";
  // v = m * 2^e with m an integer of at most 53 bits: every step below is
  // exact in double arithmetic (multiplying or dividing by a power of two).
  let m = v;
  let e = 0;
  while (!Number.isInteger(m)) {
    m *= 2;
    e--;
  }
  while (Math.abs(m) > Number.MAX_SAFE_INTEGER) {
    m /= 2;
    e++;
  }
  let out = `CAST(${m} AS REAL)`;
  while (e > 0) {
    const k = Math.min(e, 32);
    out += `*${2 ** k}.0`;
    e -= k;
  }
  while (e < 0) {
    const k = Math.min(-e, 32);
    out += `/${2 ** k}.0`;
    e += k;
  }
  return out;
}

/**
 * Text holding NUL or CR bytes, written so that the sqlite3 shell reads it
 * whole: a raw NUL ends the shell's input there, and its line reader drops
 * the CR of a CR LF. Those characters become `char(..)`, the rest quoted
 * runs, joined by `||` as a balanced tree (SQLite limits an expression's
 * depth to 1,000). `char()` and `||` keep NUL bytes, and build text in the
 * database's own encoding (a `CAST(x'..' AS TEXT)` would read UTF-8 bytes
 * as UTF-16 in a UTF-16 database).
 */
function shellSafeText(text: string): string {
  const parts: string[] = [];
  for (const m of text.matchAll(/([\0\r]+)|[^\0\r]+/g)) {
    if (m[1] === undefined) {
      parts.push(stringLiteral(m[0]));
      continue;
    }
    const codes = [...m[1]].map((c) => c.charCodeAt(0));
    for (let i = 0; i < codes.length; i += 100) {
      parts.push(`char(${codes.slice(i, i + 100).join(",")})`);
    }
  }
  return balanced("||", parts);
}
