/**
 * The one row comparison, shared by rows_match and reference_rows, exactly as
 * "How rows are compared" in docs/harness.md:
 *
 * - columns with the same name on both sides are compared with each other
 *   (names match exactly first, then ignoring case, as SQL does);
 * - every other expected column is paired with a different actual column by
 *   its values: `{count: 2}` matches a column named `total` holding 2;
 * - the pairing is one-to-one: no actual column serves two expected ones, and
 *   a name the actual side repeats more often than the expected side leaves
 *   its surplus columns to the expected columns no name pairs;
 * - when names cannot pair the columns so that the rows are equal and both
 *   sides have as many columns, they pair by position: rows that are equal
 *   position by position always match;
 * - extra actual columns are fine, unless `strictColumns` (a case's
 *   `strict_columns`, `run --strict-columns`): then the actual rows must
 *   have no more columns than the expected ones;
 * - 2, 2.0 and "2.00" are equal; numbers are rounded to `precision` places;
 * - row order is ignored unless `ordered`;
 * - null and "" are equal (an empty value);
 * - text that only looks like a number stays text: "01234" is not 1234;
 * - rows are multisets: duplicates count, and the row counts must be equal.
 *
 * Either side may be a list of objects or a {@link RowSet} (a column list and
 * positional values), which keeps two columns of the same name: expected
 * `SELECT T2.Name, T3.Name` has two `Name` columns, and an actual result with
 * one `Name` column cannot cover both, so it does not match. A name that
 * repeats pairs with the same-named columns on the other side in whichever
 * order makes the rows equal, so `T3.Name, T2.Name` matches `T2.Name,
 * T3.Name`.
 *
 * Worked example of the pairing: expected `[{n: 2, name: "a"}]`, actual
 * `[{name: "a", total: 2, extra: 9}]`. `name` pairs by name. `n` has no
 * same-name column, so it tries the unpaired actual columns `total` and
 * `extra` in turn and keeps `total`, the first whose values make the rows
 * equal; `extra` is an allowed extra column.
 *
 * @module
 */
import { bytesHex } from "../sqlite/value.ts";
import { isRowSet, type RowSet, toRowSet } from "../row_set.ts";
import { normalizeNumber } from "./normalize.ts";
import { sameMultiset } from "./_multiset.ts";

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
  /**
   * An extra actual column fails (for consumers that read columns by
   * position). Default false: extra columns are fine.
   */
  readonly strictColumns?: boolean;
}

/**
 * Rows as the comparison takes them: a list of objects, or a {@link RowSet}
 * (column list and positional values, duplicate names kept).
 *
 * @example
 * ```ts
 * import { compareRows, type ComparableRows } from "./rows.ts";
 * const reference: ComparableRows = { columns: ["Name", "Name"], rows: [["Rock", "AC/DC"]] };
 * compareRows([{ Name: "AC/DC" }], reference); // false: one column cannot be both
 * ```
 */
export type ComparableRows = readonly object[] | RowSet;

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
  if (value instanceof Uint8Array) return `b${bytesHex(value)}`;
  if (value instanceof Date) return `t${value.toISOString()}`;
  if (Array.isArray(value)) return `a[${value.map((v) => cellKey(v, precision)).join("\u0001")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `o{${entries.map(([k, v]) => `${k}\u0002${cellKey(v, precision)}`).join("\u0001")}}`;
  }
  return `t${String(value)}`;
}

function indexBy(names: readonly string[], key: (name: string) => string): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  names.forEach((name, i) => {
    const k = key(name);
    const list = groups.get(k);
    if (list === undefined) groups.set(k, [i]);
    else list.push(i);
  });
  return groups;
}

/**
 * Which actual columns each expected column may pair with, by name: the
 * same-named actual columns (exact names first, then ignoring case), or,
 * for an expected column no actual name matches, the spare actual columns.
 * Spare are the columns no expected name claims and the surplus of a name
 * the actual side repeats more often than the expected side (`SELECT a, a`
 * against `SELECT a, a AS b`: one `a` pairs with `a`, the other is spare
 * for `b`). When a name repeats more often on the expected side, its
 * surplus may take a spare column. The search then keeps the pairing
 * one-to-one.
 */
function nameCandidates(expected: readonly string[], actual: readonly string[]): number[][] {
  const candidates: number[][] = expected.map(() => []);
  const groups: [readonly number[], readonly number[]][] = [];
  const claimed = new Set<number>();
  const pair = (es: readonly number[], as: readonly number[]): void => {
    for (const a of as) claimed.add(a);
    groups.push([es, as]);
  };
  const exact = indexBy(actual, (n) => n);
  const left: number[] = [];
  for (const [name, es] of indexBy(expected, (n) => n)) {
    const as = exact.get(name);
    if (as === undefined) left.push(...es);
    else pair(es, as);
  }
  const folded = indexBy(actual, (n) => n.toLowerCase());
  const loose: number[] = [];
  for (const [name, positions] of indexBy(left.map((e) => expected[e]!), (n) => n.toLowerCase())) {
    const es = positions.map((p) => left[p]!);
    const as = (folded.get(name) ?? []).filter((a) => !claimed.has(a));
    if (as.length === 0) loose.push(...es);
    else pair(es, as);
  }
  const spare = actual.map((_, i) => i).filter((i) => !claimed.has(i));
  for (const [es, as] of groups) if (as.length > es.length) spare.push(...as);
  for (const e of loose) candidates[e] = spare;
  for (const [es, as] of groups) {
    // A name repeated more often on the expected side may also use spare columns.
    const list = as.length < es.length ? [...as, ...spare] : [...as];
    for (const e of es) candidates[e] = list;
  }
  return candidates;
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

function columnCells(set: RowSet, precision: number): Cells[] {
  return set.columns.map((_, c) => set.rows.map((row) => cellKey(row[c], precision)));
}

function asRowSet(rows: ComparableRows): RowSet {
  return isRowSet(rows) ? rows : toRowSet(rows as readonly object[]);
}

/**
 * True when the agent's rows are the expected rows, as "How rows are
 * compared" in docs/harness.md says (see the module documentation).
 *
 * @param actual the agent's rows (objects, or a column list and positional rows)
 * @param expected the correct rows (from expect.rows or the reference SQL)
 * @param options `ordered`, `precision` and `strictColumns` from the case
 * @returns whether they match
 * @example
 * ```ts
 * import { compareRows } from "./rows.ts";
 * compareRows([{ total: 2.0, store: "s1" }], [{ count: "2.00" }]); // true
 * compareRows([{ zip: 1234 }], [{ zip: "01234" }]); // false
 * compareRows([{ n: 1 }, { n: 2 }], [{ n: 2 }, { n: 1 }], { ordered: true }); // false
 * compareRows([{ total: 2, store: "s1" }], [{ total: 2 }], { strictColumns: true }); // false
 * compareRows({ columns: ["Name", "Name"], rows: [["b", "a"]] }, { columns: ["Name", "Name"], rows: [["a", "b"]] }); // true
 * ```
 */
export function compareRows(
  actual: ComparableRows,
  expected: ComparableRows,
  options: CompareRowsOptions = {},
): boolean {
  const got = asRowSet(actual);
  const want = asRowSet(expected);
  if (got.rows.length !== want.rows.length) return false;
  // An empty list of objects has no columns to count.
  if (
    options.strictColumns === true && want.columns.length > 0 &&
    got.columns.length > want.columns.length
  ) return false;
  if (want.rows.length === 0) return true;
  const precision = options.precision ?? 2;
  const ordered = options.ordered ?? false;
  if (want.columns.length > got.columns.length) return false;

  const expectedCells = columnCells(want, precision);
  const actualCells = columnCells(got, precision);
  const sameColumn = (e: Cells, a: Cells): boolean =>
    ordered ? e.every((k, i) => k === a[i]) : sameMultiset(e, a);

  // Candidates: columns allowed by name whose values agree column by column
  // (a necessary condition, cheap to test).
  const candidates = nameCandidates(want.columns, got.columns).map((list, e) =>
    list.filter((a) => sameColumn(expectedCells[e]!, actualCells[a]!))
  );
  const expectedRows = rowsOf(expectedCells, want.rows.length);
  // Most constrained first: forced pairs (one candidate) cost nothing.
  const order = want.columns.map((_, i) => i).sort((x, y) =>
    candidates[x]!.length - candidates[y]!.length
  );
  const mapping: number[] = want.columns.map(() => -1);
  const taken = new Set<number>();
  let budget = 10_000; // pairings tried; only pathological column sets get near it

  const search = (k: number): boolean => {
    if (k === order.length) {
      budget--;
      const actualRows = rowsOf(mapping.map((a) => actualCells[a]!), got.rows.length);
      return rowsEqual(actualRows, expectedRows, ordered);
    }
    const slot = order[k]!;
    for (const a of candidates[slot]!) {
      if (taken.has(a) || budget <= 0) continue;
      taken.add(a);
      mapping[slot] = a;
      if (search(k + 1)) return true;
      taken.delete(a);
    }
    mapping[slot] = -1;
    return false;
  };
  if (search(0)) return true;
  // Names could not pair the columns so that the rows are equal. With as
  // many columns on each side, pair them by position: rows equal position
  // by position are equal, whatever the columns are called.
  if (want.columns.length !== got.columns.length) return false;
  return rowsEqual(rowsOf(actualCells, got.rows.length), expectedRows, ordered);
}

/** Transposes per-column keys into per-row keys. */
function rowsOf(cols: readonly Cells[], rows: number): Cells[] {
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
  actual: ComparableRows,
  acceptable: readonly ComparableRows[],
  options: CompareRowsOptions = {},
): boolean {
  return acceptable.some((rows) => compareRows(actual, rows, options));
}
