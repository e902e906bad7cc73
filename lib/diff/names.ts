/**
 * Names compared as SQLite compares identifiers.
 *
 * @module
 */

/**
 * A name folded the way SQLite compares identifiers: ASCII letters only.
 * `K` and `k` are one column, but the Kelvin sign U+212A, `É` and `é` are
 * names of their own (JavaScript's `toLowerCase()` would merge them).
 *
 * @param name a table, column, index, view or trigger name
 * @returns the name with A-Z lowered
 * @example
 * ```ts
 * import { foldName } from "./names.ts";
 * foldName("Users"); // "users"
 * foldName("\u00c9"); // "\u00c9"
 * ```
 */
export function foldName(name: string): string {
  return name.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}
