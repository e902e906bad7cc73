/**
 * Prints values for people as compact JSON (`[{"total":11900}]`), the form
 * the CLI uses where the docs show Python's repr. Handles what JSON.stringify
 * cannot: bigint (printed as a plain integer), BLOBs (as `x'00ff'`), undefined.
 *
 * @module
 */
import { shownBlob, shownText } from "../sqlite/shown_value.ts";

/**
 * Formats a value as compact JSON text. Long values are shown, not dumped
 * (lib/sqlite/shown_value.ts): a long BLOB as its first bytes, its size
 * and the start of its SHA-256 (`"x'00ff…' (10000000 bytes, sha256
 * 1a2b3c4d5e6f)"`), a long TEXT the same way, so a FAIL line, a report and
 * a run file stay readable and small whatever a query returned.
 *
 * @param value any value
 * @returns the text
 */
export function jsonText(value: unknown): string {
  if (value === undefined) return "null";
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return JSON.stringify(shownBlob(value));
  if (typeof value === "string") return JSON.stringify(shownText(value));
  if (Array.isArray(value)) return `[${value.map(jsonText).join(",")}]`;
  if (value !== null && typeof value === "object") {
    if (value instanceof Date) return JSON.stringify(value.toISOString());
    const parts = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`);
    return `{${parts.join(",")}}`;
  }
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  if (typeof value === "function" || typeof value === "symbol") {
    return JSON.stringify(String(value));
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * Formats a list of names the way the docs print them: `['expects', 'x']`.
 *
 * @param names the names
 * @returns the text
 */
export function nameList(names: readonly string[]): string {
  return `[${
    names.map((n) => `'${n.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`).join(", ")
  }]`;
}
