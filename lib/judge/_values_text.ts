/**
 * Rows and values as JSON text for a judge's prompt: exact big integers,
 * BLOBs as SQL hex literals, long text shortened, and a capped row list that
 * says how many rows it left out.
 *
 * @module
 */
import type { Row } from "../eval/trace.ts";

/** How much of the rows a prompt shows. */
export interface RowsTextOptions {
  /** At most this many rows are shown. */
  readonly maxRows: number;
  /** A text value longer than this is cut, saying how much was left out. */
  readonly maxTextChars: number;
}

/** The defaults: enough for a judge to see the result, small enough for any context window. */
export const ROWS_TEXT_DEFAULTS: RowsTextOptions = { maxRows: 50, maxTextChars: 300 };

/** BLOBs longer than this show only their first bytes. */
const MAX_BLOB_BYTES = 32;
/** Nesting deeper than this (or a cycle) prints as "...". */
const MAX_DEPTH = 6;
/**
 * An array, or an object inside a row, shows at most this many items (a
 * driver may return a JSON or array column with thousands); a row's own
 * columns are all shown.
 */
const MAX_ITEMS = 50;

/**
 * One value as JSON text. A bigint prints as its exact digits (a valid JSON
 * number, which `JSON.stringify` refuses), a BLOB as the string `"x'00FF'"`,
 * NaN and infinities as strings, undefined as null. Arrays, and objects
 * below the top level, show their first 50 items and say how many they left out.
 *
 * @param value any value an agent or an executor returned
 * @param maxTextChars text longer than this is cut
 * @returns JSON text
 */
export function valueText(value: unknown, maxTextChars: number, depth = 0): string {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "boolean":
      return String(value);
    case "bigint":
      return value.toString();
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : JSON.stringify(String(value));
    case "string":
      return JSON.stringify(cutText(value, maxTextChars));
    case "object":
      break;
    default:
      return JSON.stringify(String(value));
  }
  if (value instanceof Uint8Array) return JSON.stringify(blobText(value));
  if (value instanceof Date) {
    return JSON.stringify(Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString());
  }
  if (depth >= MAX_DEPTH) return JSON.stringify("...");
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => valueText(v, maxTextChars, depth + 1));
    return `[${[...items, ...itemsLeftOut(value.length)].join(",")}]`;
  }
  const entries = Object.entries(value);
  const fields = (depth === 0 ? entries : entries.slice(0, MAX_ITEMS)).map(([k, v]) =>
    `${JSON.stringify(k)}:${valueText(v, maxTextChars, depth + 1)}`
  );
  const left = depth === 0 ? [] : itemsLeftOut(entries.length).map((note) => `"...":${note}`);
  return `{${[...fields, ...left].join(",")}}`;
}

/**
 * A block of rows, one JSON object a line, capped.
 *
 * @param rows the rows
 * @param options how many rows and how much text to show
 * @returns the text, ending with a line that says how many rows were left out, if any
 * @example
 * ```ts
 * import { rowsText } from "./_values_text.ts";
 * rowsText([{ n: 1n }, { n: 2 }, { n: 3 }], { maxRows: 2, maxTextChars: 100 });
 * // '{"n":1}\n{"n":2}\n(1 more row left out: 3 rows in all, only the first 2 are shown)'
 * ```
 */
export function rowsText(rows: readonly Row[], options: RowsTextOptions): string {
  if (rows.length === 0) return "(no rows)";
  const shown = rows.slice(0, Math.max(0, options.maxRows));
  const lines = shown.map((row) => valueText(row, options.maxTextChars));
  const left = rows.length - shown.length;
  if (left > 0) {
    lines.push(
      `(${left} more row${left === 1 ? "" : "s"} left out: ${rows.length} rows in all, ` +
        `only the first ${shown.length} are shown)`,
    );
  }
  return lines.join("\n");
}

/**
 * Text cut to a length, saying how many characters were left out.
 *
 * @param text the text
 * @param max the most characters to keep
 * @returns the text, or its start and a note
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  // Cut on a code point boundary so a surrogate pair is never split.
  const kept = text.slice(0, max);
  const safe = /[\uD800-\uDBFF]$/.test(kept) ? kept.slice(0, -1) : kept;
  return `${safe}... (${text.length - safe.length} more characters)`;
}

/** A note, as a JSON string, for the items past {@link MAX_ITEMS}; none when all are shown. */
function itemsLeftOut(count: number): string[] {
  const left = count - MAX_ITEMS;
  return left > 0
    ? [JSON.stringify(`(${left} more item${left === 1 ? "" : "s"} of ${count})`)]
    : [];
}

/** A BLOB as a SQL hex literal, its start only when long. */
function blobText(bytes: Uint8Array): string {
  const head = Array.from(
    bytes.subarray(0, MAX_BLOB_BYTES),
    (b) => b.toString(16).padStart(2, "0").toUpperCase(),
  ).join("");
  return bytes.length <= MAX_BLOB_BYTES ? `x'${head}'` : `x'${head}...' (${bytes.length} bytes)`;
}
