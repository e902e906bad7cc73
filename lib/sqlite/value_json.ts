/**
 * SQLite values in JSON, one codec for every JSON the toolkit writes or
 * reads values in: the diff document, the run file's rows, the agent
 * protocol's rows (`--agent-cmd`, `--agent-url`) and the wire to a hosted
 * `--agent` module. A value is a JSON null, number or string, except what
 * JSON cannot carry, which becomes a one-key object:
 *
 * | value                                  | JSON                              |
 * | -------------------------------------- | --------------------------------- |
 * | integer beyond 2^53 (a `bigint`)       | `{"$bigint": "9007199254740993"}` |
 * | BLOB (`Uint8Array`)                    | `{"$blob": "AP8Q"}` (base64)      |
 * | REAL infinity, NaN, `-0`               | `{"$real": "Infinity"}`, `"-0"`   |
 *
 * A document decodes these only where a value stands (a row's column, not
 * the row itself, so a column named `$bigint` stays a column). The hosted
 * wire carries arbitrary data and decodes them anywhere
 * ({@link encodeJsonAnywhere}), escaping an object of its own that looks
 * like one.
 *
 * @module
 */
import { Buffer } from "node:buffer";

const REALS = new Set(["Infinity", "-Infinity", "NaN", "-0"]);
const TAGS = new Set(["$bigint", "$blob", "$real"]);
/** An escaped look-alike on the wire: `$$bigint`, `$$$blob`, ... */
const ESCAPED = /^\$\$+(bigint|blob|real)$/;

/**
 * A value as JSON can hold it: a bigint, a BLOB or a REAL without a JSON
 * number becomes its one-key object; anything else is returned as it is.
 *
 * @param value the value
 * @returns the value, or its one-key object
 * @example
 * ```ts
 * import { encodeValue } from "./value_json.ts";
 * encodeValue(9007199254740993n); // { $bigint: "9007199254740993" }
 * encodeValue(new Uint8Array([0, 255, 16])); // { $blob: "AP8Q" }
 * encodeValue(-0); // { $real: "-0" }
 * encodeValue("text"); // "text"
 * ```
 */
export function encodeValue(value: unknown): unknown {
  if (typeof value === "bigint") return { $bigint: value.toString() };
  if (value instanceof Uint8Array) return { $blob: Buffer.from(value).toString("base64") };
  if (typeof value === "number" && (!Number.isFinite(value) || Object.is(value, -0))) {
    return { $real: Object.is(value, -0) ? "-0" : String(value) };
  }
  return value;
}

/**
 * {@link encodeValue} as a `JSON.stringify` replacer: it reads the raw value
 * (before a `Buffer`'s `toJSON`), so a Buffer is a BLOB too.
 *
 * @param key the key JSON.stringify is at
 * @param value the value after toJSON
 * @returns what to write
 * @example
 * ```ts
 * import { valueReplacer } from "./value_json.ts";
 * JSON.stringify({ n: 2n ** 64n, b: new Uint8Array([1]) }, valueReplacer);
 * // '{"n":{"$bigint":"18446744073709551616"},"b":{"$blob":"AQ=="}}'
 * ```
 */
export function valueReplacer(this: unknown, key: string, value: unknown): unknown {
  const raw = (this as Record<string, unknown> | null)?.[key];
  return encodeValue(raw instanceof Uint8Array ? raw : value);
}

/** The tag and text of a one-key value object, or undefined. */
function tagged(x: unknown): [string, string] | undefined {
  if (x === null || typeof x !== "object" || Array.isArray(x)) return undefined;
  let found: [string, string] | undefined;
  for (const key in x) {
    if (!Object.hasOwn(x, key)) continue;
    if (found !== undefined) return undefined;
    const text = (x as Record<string, unknown>)[key];
    if (typeof text !== "string") return undefined;
    found = [key, text];
  }
  if (found === undefined) return undefined;
  const [key, text] = found;
  if (key === "$bigint" && /^-?\d+$/.test(text)) return found;
  if (key === "$blob" && /^[A-Za-z0-9+/]*={0,2}$/.test(text)) return found;
  if (key === "$real" && REALS.has(text)) return found;
  return undefined;
}

/**
 * Whether `x` is one of the one-key objects {@link encodeValue} writes.
 *
 * @param x a parsed JSON value
 * @returns true for `{"$bigint": digits}`, `{"$blob": base64}` and `{"$real": "Infinity" | "-Infinity" | "NaN" | "-0"}`
 * @example
 * ```ts
 * import { isEncodedValue } from "./value_json.ts";
 * isEncodedValue({ $blob: "AP8Q" }); // true
 * isEncodedValue({ $blob: "AP8Q", more: 1 }); // false
 * ```
 */
export function isEncodedValue(x: unknown): boolean {
  return tagged(x) !== undefined;
}

/**
 * A value back from JSON: a one-key value object becomes its value (a
 * `$bigint` that fits in 2^53 a number, as the engine reads it); anything
 * else is returned as it is.
 *
 * @param x a parsed JSON value
 * @returns the value
 * @example
 * ```ts
 * import { decodeValue } from "./value_json.ts";
 * decodeValue({ $bigint: "9007199254740993" }); // 9007199254740993n
 * decodeValue({ $bigint: "42" }); // 42
 * decodeValue({ $blob: "AP8Q" }); // Uint8Array [0, 255, 16]
 * decodeValue({ $real: "-Infinity" }); // -Infinity
 * decodeValue(1.5); // 1.5
 * ```
 */
export function decodeValue(x: unknown): unknown {
  const found = tagged(x);
  if (found === undefined) return x;
  const [kind, text] = found;
  if (kind === "$blob") return new Uint8Array(Buffer.from(text, "base64"));
  if (kind === "$real") return text === "-0" ? -0 : Number(text);
  const n = BigInt(text);
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(n)
    : n;
}

/** The source text of a JSON integer, signed. */
const INTEGER = /^-?\d+$/;

/** What JSON.parse passes a reviver beside the value (Deno 2 and Bun have it). */
type ReviverContext = { readonly source?: string } | undefined;

/**
 * `JSON.parse`, with integers beyond 2^53 written as plain integers read
 * exactly, as bigints: for JSON that programs in other languages write
 * (Python's `json.dumps`, Go's `encoding/json`), where such an integer is a
 * bare number and `JSON.parse` alone would round 9007199254740993 to ...992.
 * Every other number stays a JavaScript number (`1e20` and
 * `9007199254740993.0` are REALs).
 *
 * @param text the JSON text
 * @returns the value
 * @throws {SyntaxError} when the text is not JSON
 * @example
 * ```ts
 * import { parseExactJson } from "./value_json.ts";
 * parseExactJson('{"n": 9007199254740993, "r": 1.5}'); // { n: 9007199254740993n, r: 1.5 }
 * ```
 */
export function parseExactJson(text: string): unknown {
  // Only an integer of 16 digits or more can be past 2^53: text without such
  // a run (nearly every reply) is parsed without a reviver call per value.
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  const reviver = (_key: string, value: unknown, context: ReviverContext): unknown =>
    typeof value === "number" && !Number.isSafeInteger(value) &&
      context?.source !== undefined && INTEGER.test(context.source)
      ? BigInt(context.source)
      : value;
  return JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
}

/**
 * JSON text of any data, with every value JSON cannot carry encoded
 * wherever it is, and an object of the data's own that looks like an
 * encoded value (`{ $bigint: "1" }`) escaped (`{ $$bigint: "1" }`), so
 * that {@link decodeJsonAnywhere} gives back exactly what was written.
 *
 * @param value the data
 * @param stringify `JSON.stringify` (the host passes the one it saw before an agent module could replace it)
 * @returns the text
 * @example
 * ```ts
 * import { decodeJsonAnywhere, encodeJsonAnywhere } from "./value_json.ts";
 * const data = { rows: [{ n: 2n ** 64n }], output: { $blob: "not a BLOB" } };
 * decodeJsonAnywhere(encodeJsonAnywhere(data)); // the same data
 * ```
 */
export function encodeJsonAnywhere(
  value: unknown,
  stringify: typeof JSON.stringify = JSON.stringify,
): string {
  return stringify(value, function (this: unknown, key: string, v: unknown): unknown {
    const out = valueReplacer.call(this, key, v);
    if (out !== v || v === null || typeof v !== "object" || Array.isArray(v)) return out;
    const keys = Object.keys(v);
    if (keys.length === 1 && (TAGS.has(keys[0]!) || ESCAPED.test(keys[0]!))) {
      return { [`$${keys[0]}`]: (v as Record<string, unknown>)[keys[0]!] };
    }
    return v;
  });
}

/**
 * The data {@link encodeJsonAnywhere} wrote.
 *
 * @param text the JSON text
 * @param parse `JSON.parse` (the host passes the one it saw before an agent module could replace it)
 * @param options `bigints: "always"` keeps every `$bigint` a bigint, as PostgreSQL's BIGINT is
 *   (by default one that fits in 2^53 is a number, as SQLite's engine reads it)
 * @returns the data
 * @throws {SyntaxError} when the text is not JSON
 * @example
 * ```ts
 * import { decodeJsonAnywhere } from "./value_json.ts";
 * decodeJsonAnywhere('[{"$real": "NaN"}, {"$$real": "NaN"}]'); // [NaN, { $real: "NaN" }]
 * decodeJsonAnywhere('{"$bigint": "25"}', JSON.parse, { bigints: "always" }); // 25n
 * ```
 */
export function decodeJsonAnywhere(
  text: string,
  parse: typeof JSON.parse = JSON.parse,
  options: { readonly bigints?: "always" } = {},
): unknown {
  return parse(text, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    if (options.bigints === "always") {
      const found = tagged(v);
      if (found?.[0] === "$bigint") return BigInt(found[1]);
    }
    const decoded = decodeValue(v);
    if (decoded !== v) return decoded;
    const keys = Object.keys(v);
    if (keys.length === 1 && ESCAPED.test(keys[0]!)) {
      return { [keys[0]!.slice(1)]: (v as Record<string, unknown>)[keys[0]!] };
    }
    return v;
  });
}
