/**
 * The diff document as JSON, and back, without loss.
 *
 * Row values that JSON cannot carry as themselves become one-key objects
 * (`{"$bigint": "9007199254740993"}`, `{"$blob": "AP8Q"}`,
 * `{"$real": "-0"}`: the codec of lib/sqlite/value_json.ts; a plain object is
 * never a SQLite value, so nothing is ambiguous). Reading back decodes only
 * row values (in _json_schema.ts), never a row itself: a table whose one
 * column is named `$bigint` is still a row.
 *
 * @module
 */
import * as v from "valibot";
import { UsageError } from "../errors.ts";
import { collectGarbage } from "../sqlite/collect_garbage.ts";
import { encodeValue } from "../sqlite/value_json.ts";
import { diffSchema } from "./_json_schema.ts";
import { plainJson } from "./_kept_rows.ts";
import { type HeldRow, heldRows } from "./_held_rows.ts";
import { type DatabaseDiff, DIFF_FORMAT_VERSION } from "./types.ts";

/** The replacer of the document's text: row values JSON cannot carry, encoded. */
function encode(_key: string, value: unknown): unknown {
  return encodeValue(value);
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
  if (value === null || typeof value !== "object") {
    // Already encoded: a primitive here is one JSON has a literal for.
    write(JSON.stringify(value));
    return;
  }
  // A change holding rows as values is walked here, its rows written from
  // their values (see _held_rows.ts).
  const held = heldRows(value);
  if (held === undefined && (depth >= WHOLE_AT || !isPlain(value))) {
    write(piece(value, depth));
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
    const row = held !== undefined && Object.hasOwn(held, key) ? held[key]! : undefined;
    const v = row ?? resolved(key, (value as Record<string, unknown>)[key]);
    if (!serialisable(v)) continue;
    write(`${first ? "{" : ","}\n${inner}${JSON.stringify(key)}: `);
    first = false;
    if (row !== undefined) writeHeldRow(row, inner, depth + 1, write);
    else writeValue(v, inner, depth + 1, write);
  }
  write(first ? "{}" : `\n${indent}}`);
}

/**
 * The text of `value` placed `depth` levels deep, by one JSON.stringify call:
 * `value` is wrapped in `depth` arrays, whose brackets are then cut off (a
 * slice, not a copy of the text).
 */
function piece(value: unknown, depth: number): string {
  let wrapped = value;
  for (let i = 0; i < depth; i++) wrapped = [wrapped];
  // A kept row change whose values JSON has literals for needs no encoding:
  // without a replacer, JSON.stringify takes its fast path.
  const text = plainJson(value)
    ? JSON.stringify(wrapped, null, 2)
    : JSON.stringify(wrapped, encode, 2);
  if (depth === 0) return text;
  // "[\n  [\n    " before the value and "\n  ]\n]" after it, at depth 2.
  const before = 2 * depth + depth * (depth + 1);
  const after = depth * (depth + 1);
  return text.slice(before, text.length - after);
}

/** True for a name JavaScript lists before the others: an array index. */
function isIndex(name: string): boolean {
  const n = Number(name);
  return Number.isInteger(n) && n >= 0 && n < 2 ** 32 - 1 && String(n) === name;
}

/** What a held row's text is made of at one indent, per column list. */
interface RowText {
  readonly indent: string;
  /** The columns in the order of the row object's keys (array indexes first, ascending). */
  readonly order: readonly number[];
  /** What precedes each value: the separator, the indent and the quoted name. */
  readonly prefixes: readonly string[];
}

const rowTexts = new WeakMap<readonly string[], RowText>();

function rowText(names: readonly string[], indent: string): RowText {
  const known = rowTexts.get(names);
  if (known !== undefined && known.indent === indent) return known;
  const at = names.map((_, i) => i);
  const order = [
    ...at.filter((i) => isIndex(names[i]!)).sort((a, b) => Number(names[a]) - Number(names[b])),
    ...at.filter((i) => !isIndex(names[i]!)),
  ];
  const prefixes = order.map((i, n) =>
    `${n === 0 ? "{" : ","}\n${indent}  ${JSON.stringify(names[i])}: `
  );
  const text = { indent, order, prefixes };
  rowTexts.set(names, text);
  return text;
}

/** Writes a held row as JSON.stringify writes the row object, from its values. */
function writeHeldRow(
  row: HeldRow,
  indent: string,
  depth: number,
  write: (t: string) => void,
): void {
  const { order, prefixes } = rowText(row.names, indent);
  if (order.length === 0) return write("{}");
  let text = "";
  for (let n = 0; n < order.length; n++) {
    const v = row.values[order[n]!]!;
    text += prefixes[n]! + (
      v === null
        ? "null"
        : typeof v === "string"
        ? JSON.stringify(v)
        : typeof v === "number" && Number.isFinite(v) && !Object.is(v, -0)
        ? String(v)
        : piece(encode("", v), depth + 1)
    );
  }
  write(`${text}\n${indent}}`);
}

/** An array or an object JSON.stringify walks by its keys (not a boxed primitive). */
function isPlain(value: object): boolean {
  return !(value instanceof Number || value instanceof String || value instanceof Boolean ||
    value instanceof BigInt);
}

/**
 * How much text is written between two collections under Bun (see
 * collect_garbage.ts): its collector let the pieces' garbage grow the heap
 * by 60 MB for the 22 MB document of a 995-column table's kept rows; a
 * collection every 4 MB (some 8 ms each) keeps it to 10.
 */
const GC_EVERY_CHARS = 4 << 20;

/**
 * Writes the text of {@link diffToJson} piece by piece, so the document is
 * never one string in memory however many rows it holds.
 *
 * @param diff the document
 * @param write called with each piece of the text, in order
 * @example
 * ```ts
 * import { diffToJson, writeDiffJson } from "./json.ts";
 * import { type DatabaseDiff, DIFF_FORMAT_VERSION } from "./types.ts";
 * const diff: DatabaseDiff = {
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
  let written = 0;
  const counted = (text: string): void => {
    write(text);
    written += text.length;
    if (written >= GC_EVERY_CHARS) {
      written = 0;
      collectGarbage();
    }
  };
  if (serialisable(root)) writeValue(root, "", 0, counted);
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
