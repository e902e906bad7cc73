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
