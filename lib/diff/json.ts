/**
 * The diff document as JSON, and back, without loss.
 *
 * Row values that JSON cannot carry as themselves become one-key objects
 * (a plain object is never a SQLite value, so nothing is ambiguous):
 * - an integer beyond 2^53 (a bigint): `{"$bigint": "9007199254740993"}`;
 * - a BLOB: `{"$blob": "AP8Q"}` (standard base64);
 * - a REAL JSON has no number for: `{"$real": "Infinity"}`, `"-Infinity"`,
 *   `"NaN"` or `"-0"`.
 * Every other value is a JSON null, number or string. Reading back decodes
 * only row values (in _json_schema.ts), never a row itself: a table whose
 * one column is named `$bigint` is still a row.
 *
 * @module
 */
import * as v from "valibot";
import { Buffer } from "node:buffer";
import { UsageError } from "../errors.ts";
import { diffSchema } from "./_json_schema.ts";
import { plainJson } from "./_kept_rows.ts";
import { type DatabaseDiff, DIFF_FORMAT_VERSION } from "./types.ts";

function encode(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return { $bigint: value.toString() };
  if (value instanceof Uint8Array) return { $blob: Buffer.from(value).toString("base64") };
  if (typeof value === "number" && (!Number.isFinite(value) || Object.is(value, -0))) {
    return { $real: Object.is(value, -0) ? "-0" : String(value) };
  }
  return value;
}

/**
 * Serialises a diff document to JSON (two-space indented).
 *
 * @param diff the document
 * @returns the JSON text
 * @example
 * ```ts
 * import { diffToJson } from "./json.ts";
 * import { DIFF_FORMAT_VERSION } from "./types.ts";
 * const text = diffToJson({
 *   version: DIFF_FORMAT_VERSION,
 *   settings: { include_schema: true, include_data: true, max_rows: 1000, tables: null },
 *   databases: [],
 * });
 * JSON.parse(text).version; // 1
 * ```
 */
export function diffToJson(diff: DatabaseDiff): string {
  return JSON.stringify(diff, encode, 2);
}

/**
 * Subtrees this deep are serialised by one JSON.stringify call each (the
 * document is at depth 0, a row change at 7): a piece is at most a row change,
 * however many rows the document holds.
 */
const WHOLE_AT = 7;

/** The value JSON.stringify serialises for `value` under `key`: after toJSON and the encoding. */
function resolved(key: string, value: unknown): unknown {
  const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  if (typeof toJSON === "function") value = toJSON.call(value, key);
  return encode(key, value);
}

/** False for what JSON.stringify leaves out of an object (and writes as null in an array). */
function serialisable(value: unknown): boolean {
  return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
}

function writeValue(
  value: unknown,
  indent: string,
  depth: number,
  write: (t: string) => void,
): void {
  if (value === null || typeof value !== "object" || depth >= WHOLE_AT || !isPlain(value)) {
    // Strings never hold a raw line break (JSON escapes it), so indenting
    // every line of the piece places it as the whole document would.
    // A kept row change whose values JSON has literals for needs no encoding:
    // without a replacer, JSON.stringify takes its fast path.
    const text = plainJson(value)
      ? JSON.stringify(value, null, 2)
      : JSON.stringify(value, encode, 2);
    write(indent === "" ? text : text.replaceAll("\n", `\n${indent}`));
    return;
  }
  const inner = indent + "  ";
  if (Array.isArray(value)) {
    if (value.length === 0) return write("[]");
    for (let i = 0; i < value.length; i++) {
      write(i === 0 ? `[\n${inner}` : `,\n${inner}`);
      const v = resolved(String(i), value[i]);
      if (serialisable(v)) writeValue(v, inner, depth + 1, write);
      else write("null");
    }
    return write(`\n${indent}]`);
  }
  let first = true;
  for (const key of Object.keys(value)) {
    const v = resolved(key, (value as Record<string, unknown>)[key]);
    if (!serialisable(v)) continue;
    write(`${first ? "{" : ","}\n${inner}${JSON.stringify(key)}: `);
    first = false;
    writeValue(v, inner, depth + 1, write);
  }
  write(first ? "{}" : `\n${indent}}`);
}

/** An array or an object JSON.stringify walks by its keys (not a boxed primitive). */
function isPlain(value: object): boolean {
  return !(value instanceof Number || value instanceof String || value instanceof Boolean ||
    value instanceof BigInt);
}

/**
 * Writes the text of {@link diffToJson} piece by piece, so the document is
 * never one string in memory however many rows it holds.
 *
 * @param diff the document
 * @param write called with each piece of the text, in order
 * @example
 * ```ts
 * import { diffToJson, writeDiffJson } from "./json.ts";
 * import { DIFF_FORMAT_VERSION } from "./types.ts";
 * const diff = {
 *   version: DIFF_FORMAT_VERSION,
 *   settings: { include_schema: true, include_data: true, max_rows: 1000, tables: null },
 *   databases: [],
 * };
 * let text = "";
 * writeDiffJson(diff, (piece) => (text += piece));
 * text === diffToJson(diff); // true
 * ```
 */
export function writeDiffJson(diff: DatabaseDiff, write: (text: string) => void): void {
  const root = resolved("", diff);
  if (serialisable(root)) writeValue(root, "", 0, write);
}

/**
 * Reads a diff document written by {@link diffToJson}, checking its shape.
 *
 * @param text the JSON text
 * @returns the document, with bigints and BLOBs restored
 * @throws {UsageError} when the text is not JSON or not a diff document,
 * naming the JSON path of the first mistake
 * @example
 * ```ts
 * import { diffFromJson } from "./json.ts";
 * const diff = diffFromJson(
 *   '{"version":1,"settings":{"include_schema":true,"include_data":true,"max_rows":1000,"tables":null},"databases":[]}',
 * );
 * diff.databases.length; // 0
 * ```
 */
export function diffFromJson(text: string): DatabaseDiff {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UsageError(
      `The diff document is not valid JSON (${
        (e as Error).message
      }); write it with "dbagenteval db diff --json FILE"`,
      { cause: e },
    );
  }
  const parsed = v.safeParse(diffSchema, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = issue === undefined ? "" : (v.getDotPath(issue) ?? "");
    throw new UsageError(
      `The diff document is not a dbagenteval diff (version ${DIFF_FORMAT_VERSION}) at ${
        path === "" ? "the top level" : `"${path}"`
      }: ${issue?.message ?? "invalid"}; write it with "dbagenteval db diff --json FILE"`,
    );
  }
  return parsed.output as DatabaseDiff;
}
