/**
 * Identifiers and values as SQL text, for the scripts the search prints.
 *
 * @module
 */
import type { SqliteValue } from "../sqlite/value.ts";

/** `name` as a double-quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * A value as a SQL literal that reads back as the same value: reals keep a
 * decimal point or exponent, so 3.0 stays REAL.
 *
 * @param v the value
 * @param real whether a whole number is a REAL (SQLite said so)
 * @returns the literal
 */
export function literal(v: SqliteValue, real = false): string {
  if (v === null) return "NULL";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") {
    if (v === Infinity) return "9e999";
    if (v === -Infinity) return "-9e999";
    const text = String(v);
    return real && Number.isInteger(v) && !/e/i.test(text) ? `${text}.0` : text;
  }
  if (typeof v === "string") return `'${v.replaceAll("'", "''")}'`;
  let hex = "";
  for (const b of v) hex += b.toString(16).padStart(2, "0");
  return `x'${hex}'`;
}
