/**
 * Canonical text for values and rows, so that changes can be matched through
 * a Map. Two values get the same text exactly when `sameValue` holds: 1 and
 * 1.0 (one JS number) agree, an integral REAL beyond 2^53 agrees with the
 * equal bigint, and 1, '1' and x'31' stay apart.
 *
 * @module
 */
import type { SqliteRow, SqliteValue } from "../sqlite/value.ts";

/** The canonical text of one value. */
export function valueText(v: SqliteValue): string {
  if (v === null) return "z";
  if (typeof v === "bigint") return `n${v}`;
  if (typeof v === "number") {
    return Number.isInteger(v) && !Number.isSafeInteger(v) ? `n${BigInt(v)}` : `n${String(v)}`;
  }
  if (typeof v === "string") return `s${JSON.stringify(v)}`;
  let hex = "b";
  for (const b of v) hex += b.toString(16).padStart(2, "0");
  return hex;
}

/** The canonical text of a row: its columns in name order with their values. */
export function rowText(row: SqliteRow | null): string {
  if (row === null) return "null";
  return Object.keys(row).sort().map((k) => `${JSON.stringify(k)}=${valueText(row[k]!)}`).join(
    ",",
  );
}
