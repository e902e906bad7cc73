/**
 * PostgreSQL's side of a search's values: how a column's type maps to the
 * kinds of values the strategies make (the affinities SQLite's path uses),
 * how a value the given database prints becomes a candidate's value, and
 * how a candidate's value is written as a literal the column takes, for the
 * sandbox and for the script a user replays with psql.
 *
 * @module
 */
import type { SqliteValue } from "../sqlite/value.ts";
import type { Affinity, SearchColumn } from "./schema.ts";

/**
 * The kind of values a column of this PostgreSQL type holds: whole
 * numbers (and booleans, as 0 and 1), numbers with fractions, text, dates
 * and times (NUMERIC with a DATE or TIME type name, as in SQLite), and
 * anything else (BLOB: values are tried and the column's input function
 * decides).
 *
 * @param type the type as `format_type` prints it, e.g. "numeric(10,2)"
 * @returns the affinity
 */
export function pgAffinity(type: string): Affinity {
  const t = type.toLowerCase();
  if (/^(smallint|integer|bigint|boolean)$/.test(t)) return "INTEGER";
  if (/^(numeric|real|double precision)\b/.test(t)) return "REAL";
  if (/^(text|character|character varying|name|citext)\b/.test(t)) return "TEXT";
  if (/^(date|timestamp|time)\b/.test(t)) return "NUMERIC";
  return "BLOB";
}

function isBoolean(column: SearchColumn): boolean {
  return column.declaredType.toLowerCase() === "boolean";
}

/**
 * A value as the given database prints it (`::text`) made into the value
 * the strategies work with: whole numbers as numbers (bigint beyond 2^53),
 * booleans as 1 and 0, numbers with fractions as numbers when that is
 * exact, everything else as its text.
 *
 * @param text the printed value, or null
 * @param column the column it came from
 * @returns the value
 */
export function pgValue(text: string | null, column: SearchColumn): SqliteValue {
  if (text === null) return null;
  if (isBoolean(column)) return text === "t" || text === "true" ? 1 : 0;
  if (column.affinity === "INTEGER" && /^-?\d+$/.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : BigInt(text);
  }
  if (column.affinity === "REAL" && /^-?\d+(\.\d+)?$/.test(text)) {
    const n = Number(text);
    // Only when the number reads back as the same decimal (12.50 is 12.5).
    if (Number.isFinite(n) && text.replace(/^-?0*|\.|0*$/g, "").length <= 15) return n;
  }
  return text;
}

/**
 * A candidate's value as a literal for a column: numbers bare where the
 * column is numeric (a fraction for a whole-number column is quoted, so the
 * column refuses it instead of rounding it), booleans as TRUE and FALSE,
 * everything else as quoted text the column's input function reads (a date,
 * a UUID, JSON). A value the column cannot hold makes the INSERT fail, and
 * the row is left out.
 *
 * @param v the value
 * @param column the column
 * @returns the literal
 */
export function pgLiteral(v: SqliteValue, column: SearchColumn): string {
  if (v === null) return "NULL";
  if (isBoolean(column) && (v === 0 || v === 1)) return v === 1 ? "TRUE" : "FALSE";
  if (typeof v === "bigint" && column.affinity === "INTEGER" && !isBoolean(column)) {
    return v.toString();
  }
  if (typeof v === "number" && Number.isFinite(v) && !isBoolean(column)) {
    if (column.affinity === "REAL" || (column.affinity === "INTEGER" && Number.isInteger(v))) {
      return String(v);
    }
  }
  if (v instanceof Uint8Array) {
    let hex = "";
    for (const b of v) hex += b.toString(16).padStart(2, "0");
    return `'\\x${hex}'`;
  }
  const text = typeof v === "number" && !Number.isFinite(v)
    ? (Number.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity")
    : String(v);
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * A value as a quoted text literal, for SQL inside SQL.
 *
 * @param text the text
 * @returns `'text'` with quotes doubled
 */
export function pgText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
