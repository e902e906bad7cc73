/**
 * Values that meet, miss or sit on a query's comparisons (`atoms.ts`): a
 * small finite-domain solver for one column at a time. The domain is what
 * the column could hold in a candidate: the given values, the queries'
 * constants and their neighbours in the column's type, plain values. A
 * comparison is evaluated here roughly as SQLite does (numbers before text,
 * text by code point, LIKE without case for ASCII); the database has the
 * last word, since every candidate is judged by running the queries.
 *
 * @module
 */
import type { SqliteValue } from "../../sqlite/value.ts";
import type { Atom } from "../atoms.ts";
import { boundaryValues, type ColumnPool } from "../pools.ts";

function numeric(v: SqliteValue): number | null {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  return null;
}

/** SQLite's order of two non-NULL values: numbers first, then text, then blobs. */
function compare(a: SqliteValue, b: SqliteValue): number {
  const x = numeric(a);
  const y = numeric(b);
  if (x !== null && y !== null) return x < y ? -1 : x > y ? 1 : 0;
  if (x !== null) return -1;
  if (y !== null) return 1;
  const s = String(a);
  const t = String(b);
  return s < t ? -1 : s > t ? 1 : 0;
}

function likeRegex(pattern: string, glob: boolean): RegExp {
  let re = "";
  for (const ch of pattern) {
    if (!glob && ch === "%") re += "[\\s\\S]*";
    else if (!glob && ch === "_") re += "[\\s\\S]";
    else if (glob && ch === "*") re += "[\\s\\S]*";
    else if (glob && ch === "?") re += "[\\s\\S]";
    else re += ch.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`, glob ? "" : "i");
}

/**
 * A constant as the column compares it: a number for a numeric column
 * (numeric text included), text for a text column.
 *
 * @param value the constant
 * @param pool the column's pool
 * @returns the value
 */
export function typed(value: number | string, pool: ColumnPool): SqliteValue {
  const a = pool.column.affinity;
  if (a === "TEXT") return String(value);
  if (
    (a === "INTEGER" || a === "REAL" || a === "NUMERIC") && typeof value === "string" &&
    /^-?\d+(\.\d+)?$/.test(value) && !pool.format.date
  ) return Number(value);
  return value;
}

/**
 * Whether a value meets an atom; undefined when it cannot be told here
 * (the column is inside a function call).
 *
 * @param v the value
 * @param atom the comparison
 * @param pool the column's pool (its type)
 * @returns true, false or undefined
 */
export function meets(v: SqliteValue, atom: Atom, pool: ColumnPool): boolean | undefined {
  if (atom.wrapped) return undefined;
  if (atom.op === "null") return v === null;
  if (atom.op === "notnull") return v !== null;
  if (v === null) return false;
  const c = atom.values.map((x) => typed(x, pool));
  let r: boolean;
  switch (atom.op) {
    case "=":
      r = compare(v, c[0]!) === 0;
      break;
    case "<>":
      r = compare(v, c[0]!) !== 0;
      break;
    case "<":
      r = compare(v, c[0]!) < 0;
      break;
    case "<=":
      r = compare(v, c[0]!) <= 0;
      break;
    case ">":
      r = compare(v, c[0]!) > 0;
      break;
    case ">=":
      r = compare(v, c[0]!) >= 0;
      break;
    case "between":
      r = compare(v, c[0]!) >= 0 && compare(v, c[1]!) <= 0;
      break;
    case "in":
      r = c.some((x) => compare(v, x) === 0);
      break;
    case "like":
    case "glob":
      r = typeof v === "string" || typeof v === "number"
        ? likeRegex(String(c[0]), atom.op === "glob").test(String(v))
        : false;
      break;
  }
  return atom.negated ? !r : r;
}

function key(v: SqliteValue): string {
  return `${typeof v}:${String(v)}`;
}

/**
 * The values of a column's type next to an atom's constants: each
 * constant, one below and one above (half a unit and a hundredth too where
 * the type keeps fractions), the day or second before and after a date,
 * case and whitespace variants of text, a `LIKE` pattern filled in.
 *
 * @param atom the comparison
 * @param pool the column's pool
 * @returns the values, the constants themselves first
 */
export function edgeValues(atom: Atom, pool: ColumnPool): SqliteValue[] {
  const a = pool.column.affinity;
  const out: SqliteValue[] = [];
  for (const value of atom.values) {
    const c = typed(value, pool);
    out.push(c);
    if (typeof c === "number") {
      out.push(c - 1, c + 1);
      if (a !== "INTEGER") out.push(c - 0.5, c + 0.5, c - 0.01, c + 0.01);
      if (!Number.isInteger(c)) out.push(Math.floor(c), Math.ceil(c));
      continue;
    }
    const words = {
      numbers: [],
      strings: [String(value)],
      names: new Set<string>(),
    };
    const generic = new Set(
      boundaryValues({ ...words, strings: [] }, a, pool.format).map(key),
    );
    out.push(...boundaryValues(words, a, pool.format).filter((v) => !generic.has(key(v))));
  }
  const seen = new Set<string>();
  return out.filter((v) => {
    if (seen.has(key(v))) return false;
    seen.add(key(v));
    return true;
  });
}

/** An atom and the pool of the column it compares (the type it is evaluated in). */
export interface Check {
  readonly atom: Atom;
  readonly pool: ColumnPool;
}

/**
 * The first value of a domain that meets every check (an atom that cannot
 * be told counts as met), or the one that meets the most.
 *
 * @param domain the values to choose from, best first
 * @param checks the comparisons on the column
 * @returns the value, or undefined for an empty domain
 */
export function solve(
  domain: readonly SqliteValue[],
  checks: readonly Check[],
): SqliteValue | undefined {
  let best: SqliteValue | undefined;
  let bestScore = -1;
  for (const v of domain) {
    const score = checks.filter((c) => meets(v, c.atom, c.pool) !== false).length;
    if (score === checks.length) return v;
    if (score > bestScore) {
      best = v;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Values of a domain that miss an atom: another tenant, another status, a
 * value outside the IN list, text that does not match the pattern, NULL
 * for IS NOT NULL. The domain's order is kept.
 *
 * @param domain the values to choose from, best first
 * @param atom the comparison to miss
 * @param pool the column's pool
 * @returns the values
 */
export function missing(
  domain: readonly SqliteValue[],
  atom: Atom,
  pool: ColumnPool,
): SqliteValue[] {
  return domain.filter((v) => meets(v, atom, pool) === false);
}
