/**
 * Quoting identifiers and writing values as SQL literals, for the queries the
 * diff engine builds and for the CLI's row output.
 *
 * @module
 */
import { encodeSqliteText, hasEscapedBytes } from "../sqlite/text.ts";
import type { SqliteValue } from "../sqlite/value.ts";

export { foldName } from "./names.ts";

/** `name` as a double-quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `text` as a single-quoted SQL string literal. */
export function stringLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * A value as a SQL literal: NULL, 42, 1.5, 'text', x'00ff', and
 * `CAST(x'ff' AS TEXT)` for text that is not valid UTF-8. Reals that are
 * whole numbers keep a ".0" so they read back as REAL; infinities use the
 * 9e999 spelling the sqlite3 shell uses.
 *
 * @param v the value
 * @returns the literal
 */
export function sqlLiteral(v: SqliteValue): string {
  if (v === null) return "NULL";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") {
    if (v === Infinity) return "9e999";
    if (v === -Infinity) return "-9e999";
    return String(v);
  }
  if (typeof v === "string") {
    return hasEscapedBytes(v)
      ? `CAST(${hexLiteral(encodeSqliteText(v))} AS TEXT)`
      : stringLiteral(v);
  }
  return hexLiteral(v);
}

function hexLiteral(bytes: Uint8Array): string {
  let hex = "";
  for (const b of bytes) hex += b.toString(16).padStart(2, "0");
  return `x'${hex}'`;
}

/**
 * Joins conditions with `op` as a balanced tree of parenthesized pairs, so
 * that the expression's depth grows with the log of their number: a flat
 * `a OR b OR c ...` nests one level per term, and SQLite refuses a tree deeper
 * than 1,000 (a table may have 2,000 columns).
 *
 * @param op `OR`, `AND` or `||`
 * @param terms the conditions (at least one)
 * @returns the joined condition
 */
export function balanced(op: "OR" | "AND" | "||", terms: readonly string[]): string {
  if (terms.length === 1) return terms[0]!;
  const mid = terms.length >> 1;
  return `(${balanced(op, terms.slice(0, mid))} ${op} ${balanced(op, terms.slice(mid))})`;
}
