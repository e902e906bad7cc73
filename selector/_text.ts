/**
 * Small text helpers shared by the selector's errors and explanations:
 * JSON paths, values as a person reads them, and unknown names with a
 * "did you mean" (lib/suggest.ts).
 *
 * @module
 */
import type { SqliteValue } from "../lib/sqlite/value.ts";
import { suggest } from "../lib/suggest.ts";

/** One step of a JSON path: an object key or a list index. */
export type PathKey = string | number;

/**
 * Formats a JSON path the way the selector's errors name it:
 * `rows.changed.where[0].role`; a key that is not a plain name is quoted
 * (`where[0]["first name"]`).
 */
export function formatPath(keys: readonly PathKey[]): string {
  let out = "";
  for (const key of keys) {
    if (typeof key === "number") out += `[${key}]`;
    else if (/^[$A-Za-z_][\w$-]*$/.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

/** What a value from a selector document is, for an error message: `a list`, `a number (3)`. */
export function describeInput(input: unknown): string {
  if (input === null) return "null";
  if (input === undefined) return "nothing";
  if (Array.isArray(input)) return "a list";
  switch (typeof input) {
    case "string":
      return `text (${JSON.stringify(input)})`;
    case "number":
    case "bigint":
      return `a number (${String(input)})`;
    case "boolean":
      return `${input}`;
    case "object":
      return "an object";
    default:
      return `a ${typeof input}`;
  }
}

/** A SQLite value as a person reads it: `"text"`, `42`, `NULL`, `x'00ff'`. */
export function formatValue(value: SqliteValue | boolean): string {
  if (value === null) return "NULL";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") {
    return String(value);
  }
  let hex = "";
  for (const byte of value) hex += byte.toString(16).padStart(2, "0");
  return `x'${hex}'`;
}

/** A list of values: `["admin","root"]`. */
export function formatList(values: readonly (SqliteValue | boolean)[]): string {
  return `[${values.map(formatValue).join(",")}]`;
}

/** "unknown key "x"; did you mean "y"?" or the list of valid names. */
export function unknownName(kind: string, word: string, candidates: readonly string[]): string {
  const near = suggest(word, candidates);
  if (near !== undefined) return `unknown ${kind} ${JSON.stringify(word)}; did you mean "${near}"?`;
  return `unknown ${kind} ${JSON.stringify(word)}; expected one of ${candidates.join(", ")}`;
}
