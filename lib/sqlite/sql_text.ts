/**
 * SQL text for SQLite: identifiers quoted, values written as literals that
 * read back as the same value, and long conditions joined so SQLite accepts
 * them. The one writer of SQL literals: the diff engine's queries, the
 * `db diff` text and its `--sql` patch, and the counterexample's script all
 * use it.
 *
 * @module
 */
import { encodeSqliteText, hasEscapedBytes } from "./text.ts";
import { bytesHex, type SqliteValue } from "./value.ts";

/**
 * `name` as a double-quoted SQL identifier.
 *
 * @param name a table, column or other name
 * @returns the quoted identifier
 * @example
 * ```ts
 * import { ident } from "./sql_text.ts";
 * ident('say "hi"'); // '"say ""hi"""'
 * ```
 */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * `text` as a single-quoted SQL string literal.
 *
 * @param text the text
 * @returns the literal
 * @example
 * ```ts
 * import { stringLiteral } from "./sql_text.ts";
 * stringLiteral("it's"); // "'it''s'"
 * ```
 */
export function stringLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * How {@link sqlLiteral} writes a value.
 *
 * @example
 * ```ts
 * import type { SqlLiteralOptions } from "./sql_text.ts";
 * const forAPatch: SqlLiteralOptions = { exact: true };
 * ```
 */
export interface SqlLiteralOptions {
  /**
   * The value is a REAL (SQLite said so): a whole number keeps a ".0", so
   * that 3.0 reads back as REAL, not INTEGER.
   */
  readonly real?: boolean;
  /**
   * Read back exactly by the sqlite3 shell of any version: a REAL by its
   * bits (`CAST(1 AS REAL)/2.0` for 0.5, since an old shell may round a
   * decimal), `-0.0` for negative zero, and text holding NUL or CR bytes
   * built with `char(..)` (the shell's reader stops at a NUL and drops the
   * CR of a CR LF).
   */
  readonly exact?: boolean;
  /**
   * The literal is for a UTF-16 database of this byte order: text with an
   * unpaired surrogate (which no UTF-8 holds) is written as its UTF-16
   * bytes, `CAST(x'00d8' AS TEXT)`, which such a database reads as the
   * same code units.
   */
  readonly utf16?: "le" | "be";
}

/**
 * A value as a SQL literal that SQLite reads back as the same value: `NULL`,
 * `42`, `9007199254740993`, `1.5`, `'text'`, `x'00ff'`, and
 * `CAST(x'61ff' AS TEXT)` for text that is not valid UTF-8 (see text.ts).
 * Infinities use the `9e999` spelling the sqlite3 shell uses; NaN, which
 * SQLite stores as NULL, is `NULL`.
 *
 * @param v the value
 * @param options whether it is a REAL, and whether the literal must be exact for any shell
 * @returns the literal
 * @example
 * ```ts
 * import { sqlLiteral } from "./sql_text.ts";
 * sqlLiteral("O'Brien"); // "'O''Brien'"
 * sqlLiteral(new Uint8Array([0, 255])); // "x'00ff'"
 * sqlLiteral("a\udcff"); // "CAST(x'61ff' AS TEXT)"
 * sqlLiteral("a\ud800"); // "'a'||char(55296)"
 * sqlLiteral(3, { real: true }); // "3.0"
 * sqlLiteral(0.5, { exact: true }); // "CAST(1 AS REAL)/2.0"
 * ```
 */
export function sqlLiteral(v: SqliteValue, options: SqlLiteralOptions = {}): string {
  if (v === null) return "NULL";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return numberLiteral(v, options);
  if (typeof v === "string") {
    if (options.utf16 !== undefined && !v.isWellFormed()) {
      return `CAST(${hexLiteral(utf16Bytes(v, options.utf16 === "le"))} AS TEXT)`;
    }
    if (!v.isWellFormed() && UNPAIRED.test(v)) return withUnpaired(v, options);
    if (hasEscapedBytes(v)) return `CAST(${hexLiteral(encodeSqliteText(v))} AS TEXT)`;
    return options.exact === true && /[\0\r]/.test(v) ? shellSafeText(v) : stringLiteral(v);
  }
  return hexLiteral(v);
}

function numberLiteral(v: number, options: SqlLiteralOptions): string {
  if (Number.isNaN(v)) return "NULL";
  if (v === Infinity) return "9e999";
  if (v === -Infinity) return "-9e999";
  const whole = options.real === true && Number.isInteger(v);
  if (options.exact !== true || Number.isSafeInteger(v) || Object.is(v, -0)) {
    if (Object.is(v, -0) && options.exact === true) return "-0.0";
    // toFixed, not String(), for an integer: V8 keeps the strings of recent
    // numbers in a cache that outlives young-generation collections, so a
    // patch of millions of integers promoted each one to the old generation
    // (db diff --sql peaked tens of MB above the diff itself). Exact below
    // 2^53, and never an exponent there.
    const text = Number.isSafeInteger(v) ? v.toFixed(0) : String(v);
    return whole && !/e/i.test(text) ? `${text}.0` : text;
  }
  return exactReal(v);
}

/** `2^k` as a REAL literal, for k up to 32 (made once, not once a value). */
const POWERS = Array.from({ length: 33 }, (_, k) => `${2 ** k}.0`);

/**
 * A finite double as SQL that evaluates to exactly it in any SQLite:
 * v = m * 2^e with m an integer of at most 53 bits, written as
 * `CAST(m AS REAL)` times or divided by powers of two (each step exact in
 * double arithmetic).
 */
function exactReal(v: number): string {
  let m = v;
  let e = 0;
  while (!Number.isInteger(m)) {
    m *= 2;
    e--;
  }
  while (Math.abs(m) > Number.MAX_SAFE_INTEGER) {
    m /= 2;
    e++;
  }
  let out = `CAST(${m.toFixed(0)} AS REAL)`;
  while (e > 0) {
    const k = Math.min(e, 32);
    out += `*${POWERS[k]}`;
    e -= k;
  }
  while (e < 0) {
    const k = Math.min(-e, 32);
    out += `/${POWERS[k]}`;
    e += k;
  }
  return out;
}

/**
 * An unpaired surrogate that is not an escaped byte (text.ts): the text of a
 * UTF-16 database, which UTF-8 has no form for.
 */
const UNPAIRED =
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udc7f\udd00-\udfff]/;

/**
 * Text holding such surrogates, for a UTF-8 database (or a person): each as
 * `char(55296)` between the literals of the runs around it, instead of the
 * U+FFFD an encoder would silently make of it. No UTF-8 database holds it
 * exactly (SQLite writes char()'s surrogate as its generalized UTF-8 bytes);
 * the `utf16` option is exact for a UTF-16 one.
 */
function withUnpaired(text: string, options: SqlLiteralOptions): string {
  const parts: string[] = [];
  let run = "";
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (pair) {
      run += text.slice(i, i + 2);
      i++;
    } else if (UNPAIRED.test(text[i]!)) {
      if (run !== "") parts.push(sqlLiteral(run, options));
      parts.push(`char(${c})`);
      run = "";
    } else run += text[i];
  }
  if (run !== "") parts.push(sqlLiteral(run, options));
  return parts.join("||");
}

function utf16Bytes(text: string, le: boolean): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < text.length; i++) view.setUint16(2 * i, text.charCodeAt(i), le);
  return out;
}

function hexLiteral(bytes: Uint8Array): string {
  return `x'${bytesHex(bytes)}'`;
}

/**
 * Text holding NUL or CR bytes, written so that the sqlite3 shell reads it
 * whole: those characters become `char(..)`, the rest quoted runs, joined by
 * `||` as a balanced tree. `char()` and `||` keep NUL bytes, and build text
 * in the database's own encoding (a `CAST(x'..' AS TEXT)` would read UTF-8
 * bytes as UTF-16 in a UTF-16 database).
 */
function shellSafeText(text: string): string {
  const parts: string[] = [];
  for (const m of text.matchAll(/([\0\r]+)|[^\0\r]+/g)) {
    if (m[1] === undefined) {
      parts.push(stringLiteral(m[0]));
      continue;
    }
    const codes = [...m[1]].map((c) => c.charCodeAt(0));
    for (let i = 0; i < codes.length; i += 100) {
      parts.push(`char(${codes.slice(i, i + 100).join(",")})`);
    }
  }
  return balanced("||", parts);
}

/**
 * Joins terms with `op` as a balanced tree of parenthesized pairs, so that
 * the expression's depth grows with the log of their number: a flat
 * `a OR b OR c ...` nests one level per term, and SQLite refuses a tree
 * deeper than 1,000 (a table may have 2,000 columns).
 *
 * @param op `OR`, `AND`, `||` or `+`
 * @param terms the terms (at least one)
 * @returns the joined expression
 * @example
 * ```ts
 * import { balanced } from "./sql_text.ts";
 * balanced("OR", ["a", "b", "c"]); // "(a OR (b OR c))"
 * ```
 */
export function balanced(op: "OR" | "AND" | "||" | "+", terms: readonly string[]): string {
  if (terms.length === 1) return terms[0]!;
  const mid = terms.length >> 1;
  return `(${balanced(op, terms.slice(0, mid))} ${op} ${balanced(op, terms.slice(mid))})`;
}
