/**
 * How large one statement's answer may be, on a server or in PGlite: its
 * rows weighed as JavaScript holds them, against a limit (the same as
 * SQLite's in the worker pool, 32 MB, unless told otherwise), and the one
 * message that says it was passed.
 *
 * @module
 */
import { DEFAULT_LIMITS } from "../isolation/service.ts";

/** The default most bytes of one statement's answer. */
export const DEFAULT_RESULT_LIMIT_BYTES: number = DEFAULT_LIMITS.resultBytes;

const MB = 1024 * 1024;

/**
 * About what a row takes in memory as JavaScript values: the array, and
 * each value (a string by its length, bytes by theirs, anything else as a
 * number's cell).
 *
 * @param row the row's values
 * @returns its weight in bytes
 */
export function rowWeight(row: readonly unknown[]): number {
  let bytes = 32 + 8 * row.length;
  for (const v of row) {
    bytes += typeof v === "string" ? 16 + v.length : v instanceof Uint8Array ? 64 + v.length : 16;
  }
  return bytes;
}

/**
 * The message of an answer past the limit.
 *
 * @param limitBytes the limit
 * @returns `the result is larger than 32 MB; it was not read (--max-result-mb raises the limit)`
 */
export function tooLargeMessage(limitBytes: number): string {
  return `the result is larger than ${
    Math.round(limitBytes / MB)
  } MB; it was not read (--max-result-mb raises the limit)`;
}
