/**
 * The one row comparison, shared by rows_match and reference_rows, exactly as
 * the spec's "How rows are compared":
 *
 * - columns with the same name on both sides are compared with each other
 *   (names match exactly first, then ignoring case, as SQL does);
 * - every other expected column is paired with a different actual column by
 *   its values: `{count: 2}` matches a column named `total` holding 2;
 * - extra actual columns are fine;
 * - 2, 2.0 and "2.00" are equal; numbers are rounded to `precision` places;
 * - row order is ignored unless `ordered`;
 * - null and "" are equal (an empty value);
 * - text that only looks like a number stays text: "01234" is not 1234;
 * - rows are multisets: duplicates count, and the row counts must be equal.
 *
 * Worked example of the pairing: expected `[{n: 2, name: "a"}]`, actual
 * `[{name: "a", total: 2, extra: 9}]`. `name` pairs by name. `n` has no
 * same-name column, so it tries the unpaired actual columns `total` and
 * `extra` in turn and keeps `total`, the first whose values make the rows
 * equal; `extra` is an allowed extra column.
 *
 * @module
 */
import { normalizeNumber } from "./normalize.ts";

/**
 * How to compare, from the case.
 *
 * @example
 * ```ts
 * import { compareRows, type CompareRowsOptions } from "./rows.ts";
 * const options: CompareRowsOptions = { ordered: false, precision: 1 };
 * compareRows([{ avg: 3.04 }, { avg: 1.0 }], [{ avg: "1" }, { avg: 3.0 }], options); // true
 * ```
 */
export interface CompareRowsOptions {
  /** Row order matters. Default false. */
  readonly ordered?: boolean;
  /** Decimal places numbers are rounded to. Default 2. */
  readonly precision?: number;
}

type Cells = readonly string[];

/**
 * A value's comparison key: empty values (null, undefined, "") are one key,
 * numbers (see {@link normalizeNumber}) another family, text and everything
 * else their own.
 *
 * @param value a cell value
 * @param precision decimal places for numbers
 * @returns the key
 */
export function cellKey(value: unknown, precision: number): string {
  if (value === null || value === undefined || value === "") return "e";
  const n = normalizeNumber(value, precision);
  if (n !== null) return `n${n}`;
  if (typeof value === "string") return `t${value}`;
  if (value instanceof Uint8Array) return `b${Array.from(value).join(",")}`;
  if (value instanceof Date) return `t${value.toISOString()}`;
  if (Array.isArray(value)) return `a[${value.map((v) => cellKey(v, precision)).join("\u0001")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `o{${entries.map(([k, v]) => `${k}\u0002${cellKey(v, precision)}`).join("\u0001")}}`;
  }
  return `t${String(value)}`;
}

function columnsOf(rows: readonly object[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

function columnKeys(rows: readonly object[], column: string, precision: number): Cells {
  return rows.map((row) => cellKey((row as Record<string, unknown>)[column], precision));
}

function sameMultiset(a: Cells, b: Cells): boolean {
  if (a.length !== b.length) return false;
  const counts = new Map<string, number>();
  for (const k of a) counts.set(k, (counts.get(k) ?? 0) + 1);
  for (const k of b) {
    const c = counts.get(k);
    if (c === undefined || c === 0) return false;
    counts.set(k, c - 1);
  }
  return true;
}

/** Pairs same-name columns: exact names first, then names equal ignoring case. */
function pairByName(expected: string[], actual: string[]): Map<string, string> {
  const pairs = new Map<string, string>();
  const free = new Set(actual);
  for (const e of expected) {
    if (free.has(e)) {
      pairs.set(e, e);
      free.delete(e);
    }
  }
  for (const e of expected) {
    if (pairs.has(e)) continue;
    const lower = e.toLowerCase();
    const a = [...free].find((c) => c.toLowerCase() === lower);
    if (a !== undefined) {
      pairs.set(e, a);
      free.delete(a);
    }
  }
  return pairs;
}

function rowsEqual(
  actual: readonly Cells[],
  expected: readonly Cells[],
  ordered: boolean,
): boolean {
  const join = (cells: Cells): string => cells.join("\u0000");
  if (ordered) return actual.every((row, i) => join(row) === join(expected[i]!));
  return sameMultiset(actual.map(join), expected.map(join));
}

/**
 * True when the agent's rows are the expected rows, as the spec's "How rows
 * are compared" says (see the module documentation).
 *
 * @param actual the agent's rows
 * @param expected the correct rows (from expect.rows or the reference SQL)
 * @param options `ordered` and `precision` from the case
 * @returns whether they match
 * @example
 * ```ts
 * import { compareRows } from "./rows.ts";
 * compareRows([{ total: 2.0, store: "s1" }], [{ count: "2.00" }]); // true
 * compareRows([{ zip: 1234 }], [{ zip: "01234" }]); // false
 * compareRows([{ n: 1 }, { n: 2 }], [{ n: 2 }, { n: 1 }], { ordered: true }); // false
 * ```
 */
export function compareRows(
  actual: readonly object[],
  expected: readonly object[],
  options: CompareRowsOptions = {},
): boolean {
  if (actual.length !== expected.length) return false;
  if (expected.length === 0) return true;
  const precision = options.precision ?? 2;
  const ordered = options.ordered ?? false;
  const expectedColumns = columnsOf(expected);
  const actualColumns = columnsOf(actual);
  if (expectedColumns.length > actualColumns.length) return false;

  const byName = pairByName(expectedColumns, actualColumns);
  const expectedCells = new Map(
    expectedColumns.map((c) => [c, columnKeys(expected, c, precision)]),
  );
  const actualCells = new Map(actualColumns.map((c) => [c, columnKeys(actual, c, precision)]));

  // Named pairs must hold column by column (as multisets, or in order).
  for (const [e, a] of byName) {
    const ek = expectedCells.get(e)!;
    const ak = actualCells.get(a)!;
    if (ordered ? ek.some((k, i) => k !== ak[i]) : !sameMultiset(ek, ak)) return false;
  }

  // Candidates for the other expected columns: unpaired actual columns with
  // the same values as a multiset (a necessary condition, cheap to test).
  const used = new Set(byName.values());
  const unpaired = expectedColumns.filter((c) => !byName.has(c));
  const freeActual = actualColumns.filter((c) => !used.has(c));
  const candidates = unpaired.map((e) =>
    freeActual.filter((a) => sameMultiset(expectedCells.get(e)!, actualCells.get(a)!))
  );
  if (candidates.some((c) => c.length === 0)) return false;

  const expectedRows = rowsOf(
    expectedColumns.length,
    expected.length,
    (i) => expectedCells.get(expectedColumns[i]!)!,
  );
  const mapping = expectedColumns.map((e) => byName.get(e));
  const taken = new Set(used);
  let budget = 10_000; // pairings tried; only pathological column sets get near it

  const search = (k: number): boolean => {
    if (k === unpaired.length) {
      budget--;
      const actualRows = rowsOf(
        mapping.length,
        actual.length,
        (i) => actualCells.get(mapping[i]!)!,
      );
      return rowsEqual(actualRows, expectedRows, ordered);
    }
    const slot = expectedColumns.indexOf(unpaired[k]!);
    for (const a of candidates[k]!) {
      if (taken.has(a) || budget <= 0) continue;
      taken.add(a);
      mapping[slot] = a;
      if (search(k + 1)) return true;
      taken.delete(a);
    }
    mapping[slot] = undefined;
    return false;
  };
  return search(0);
}

/** Transposes per-column keys into per-row keys. */
function rowsOf(columns: number, rows: number, column: (i: number) => Cells): Cells[] {
  const cols = Array.from({ length: columns }, (_, i) => column(i));
  return Array.from({ length: rows }, (_, r) => cols.map((c) => c[r]!));
}

/**
 * True when the agent's rows match one of several acceptable results.
 *
 * @param actual the agent's rows
 * @param acceptable the acceptable results, each a list of rows
 * @param options `ordered` and `precision` from the case
 * @returns whether one matches
 * @example
 * ```ts
 * import { matchesAny } from "./rows.ts";
 * matchesAny([{ category: "Electronics" }], [[{ category: "Electronics", total: 2000 }], [{ category: "Electronics" }]]); // true
 * ```
 */
export function matchesAny(
  actual: readonly object[],
  acceptable: readonly (readonly object[])[],
  options: CompareRowsOptions = {},
): boolean {
  return acceptable.some((rows) => compareRows(actual, rows, options));
}
