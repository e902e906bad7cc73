/**
 * Rows with their column list, so two columns of the same name both survive.
 *
 * A query like `SELECT a.Name, b.Name FROM ...` returns two columns called
 * `Name`. As objects keyed by column name, the second would overwrite the
 * first. Everywhere rows are objects (traces, the checks' details, reports),
 * a repeated name's later columns get the keys `Name (2)`, `Name (3)`, ...
 * ({@link rowKeys}), and the true column list travels beside the rows, so the
 * row comparison still sees two columns named `Name`.
 *
 * This file is a leaf: executors (SQLite, PostgreSQL) and the harness both
 * import it.
 *
 * @module
 */

/**
 * Rows as a column list and positional values: the form an agent or an
 * executor may return instead of a list of objects.
 *
 * @example
 * ```ts
 * import { type RowSet, rowObjects } from "./row_set.ts";
 * const set: RowSet = { columns: ["Name", "Name"], rows: [["Rock", "AC/DC"]] };
 * rowObjects(set); // [{ Name: "Rock", "Name (2)": "AC/DC" }]
 * ```
 */
export interface RowSet {
  /** The column names, in order; a name may repeat. */
  readonly columns: readonly string[];
  /** Each row's values, in column order. */
  readonly rows: readonly (readonly unknown[])[];
}

/**
 * Rows as objects, plus the column list when it says more than the objects'
 * keys do (a repeated name).
 *
 * @example
 * ```ts
 * import { type KeyedRows, readRowSet } from "./row_set.ts";
 * const read: KeyedRows = readRowSet({ columns: ["n", "n"], rows: [[1, 2]] });
 * read.columns; // ["n", "n"]
 * ```
 */
export interface KeyedRows {
  /** The rows as objects, keyed by {@link rowKeys}. */
  readonly rows: Record<string, unknown>[];
  /** The true column names, in order, when a name repeats; otherwise absent. */
  readonly columns?: readonly string[];
}

/**
 * The object keys for a column list: each name as it is, and a repeated
 * name's later occurrences as `name (2)`, `name (3)`, ... (skipping any key
 * already taken by a real column).
 *
 * @param columns the column names, in order
 * @returns one distinct key per column
 * @example
 * ```ts
 * import { rowKeys } from "./row_set.ts";
 * rowKeys(["Name", "Name", "Total"]); // ["Name", "Name (2)", "Total"]
 * ```
 */
export function rowKeys(columns: readonly string[]): string[] {
  const taken = new Set(columns);
  if (taken.size === columns.length) return [...columns];
  const used = new Set<string>();
  return columns.map((name) => {
    if (!used.has(name)) {
      used.add(name);
      return name;
    }
    let n = 2;
    while (taken.has(`${name} (${n})`) || used.has(`${name} (${n})`)) n++;
    const key = `${name} (${n})`;
    used.add(key);
    return key;
  });
}

/**
 * True when a column list repeats a name.
 *
 * @param columns the column names
 * @returns whether any name appears twice
 * @example
 * ```ts
 * import { hasDuplicateColumns } from "./row_set.ts";
 * hasDuplicateColumns(["a", "b", "a"]); // true
 * ```
 */
export function hasDuplicateColumns(columns: readonly string[]): boolean {
  return new Set(columns).size !== columns.length;
}

/**
 * A row set as objects keyed by {@link rowKeys}.
 *
 * @param set the column list and positional rows
 * @returns one object per row
 * @example
 * ```ts
 * import { rowObjects } from "./row_set.ts";
 * rowObjects({ columns: ["a", "b"], rows: [[1, 2]] }); // [{ a: 1, b: 2 }]
 * ```
 */
export function rowObjects(set: RowSet): Record<string, unknown>[] {
  const keys = rowKeys(set.columns);
  return set.rows.map((values) => {
    const row: Record<string, unknown> = {};
    keys.forEach((key, i) => {
      row[key] = values[i];
    });
    return row;
  });
}

/**
 * Rows (objects, optionally with their true column list) as a row set: the
 * columns in order with positional values. Objects without a column list
 * give the union of their keys, in first-seen order.
 *
 * @param rows the rows as objects
 * @param columns the true column names, when known (keys are then {@link rowKeys} of them)
 * @returns the row set
 * @example
 * ```ts
 * import { toRowSet } from "./row_set.ts";
 * toRowSet([{ Name: "a", "Name (2)": "b" }], ["Name", "Name"]); // { columns: ["Name", "Name"], rows: [["a", "b"]] }
 * ```
 */
export function toRowSet(
  rows: readonly object[],
  columns?: readonly string[],
): RowSet {
  let names: readonly string[];
  let keys: readonly string[];
  if (columns !== undefined) {
    names = columns;
    keys = rowKeys(columns);
  } else {
    const seen = new Set<string>();
    for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
    names = keys = [...seen];
  }
  return {
    columns: names,
    rows: rows.map((row) => keys.map((k) => (row as Record<string, unknown>)[k])),
  };
}

/**
 * True when a value has the shape of a {@link RowSet}: an object (not a list)
 * with a `columns` list of strings and a `rows` list.
 *
 * @param value anything
 * @returns whether it is a row set
 * @example
 * ```ts
 * import { isRowSet } from "./row_set.ts";
 * isRowSet({ columns: ["n"], rows: [[1]] }); // true
 * isRowSet([{ n: 1 }]); // false
 * ```
 */
export function isRowSet(value: unknown): value is RowSet {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return Array.isArray(v["columns"]) && Array.isArray(v["rows"]);
}

/**
 * Reads a {@link RowSet} into objects, checking its shape.
 *
 * @param set a value with `columns` and `rows`
 * @param names how the messages name the two lists (default "columns" and "rows")
 * @returns the rows as objects, with the column list when a name repeats
 * @throws {TypeError} naming the bad part: a column that is not text, a row
 *   that is not a list, or a row with the wrong number of values
 * @example
 * ```ts
 * import { readRowSet } from "./row_set.ts";
 * readRowSet({ columns: ["n"], rows: [[1], [2]] }).rows; // [{ n: 1 }, { n: 2 }]
 * ```
 */
export function readRowSet(
  set: RowSet,
  names: { readonly columns: string; readonly rows: string } = { columns: "columns", rows: "rows" },
): KeyedRows {
  if (!Array.isArray(set.columns)) throw new TypeError(`${names.columns} must be a list of names`);
  const bad = set.columns.findIndex((c) => typeof c !== "string");
  if (bad >= 0) {
    throw new TypeError(
      `${names.columns}[${bad}] must be a column name (text), got ${
        JSON.stringify(set.columns[bad])
      }`,
    );
  }
  set.rows.forEach((row, i) => {
    if (!Array.isArray(row)) {
      throw new TypeError(
        `${names.rows}[${i}] must be a list of values in column order, like [1, "a"]`,
      );
    }
    if (row.length !== set.columns.length) {
      throw new TypeError(
        `${names.rows}[${i}] has ${row.length} value(s) for ${set.columns.length} column(s)`,
      );
    }
  });
  const rows = rowObjects(set);
  return hasDuplicateColumns(set.columns) ? { rows, columns: [...set.columns] } : { rows };
}

/**
 * Rows as objects that also carry their column list: what the executors
 * return. `columns` is not enumerable, so the rows print, serialize and
 * compare as a plain list of objects, and it keeps a repeated name that the
 * objects key as `Name (2)`.
 *
 * @example
 * ```ts
 * import { type ResultRows, resultRows } from "./row_set.ts";
 * const rows: ResultRows = resultRows(["n", "n"], [[1, 2]]);
 * rows; // [{ n: 1, "n (2)": 2 }]
 * rows.columns; // ["n", "n"]
 * ```
 */
export type ResultRows = Record<string, unknown>[] & { readonly columns: readonly string[] };

/**
 * Builds {@link ResultRows} from a column list and positional values.
 *
 * @param columns the column names, in order
 * @param values each row's values, in column order
 * @returns the rows as objects, carrying `columns`
 * @example
 * ```ts
 * import { resultRows } from "./row_set.ts";
 * resultRows(["a"], [[1], [2]]); // [{ a: 1 }, { a: 2 }]
 * ```
 */
export function resultRows(
  columns: readonly string[],
  values: readonly (readonly unknown[])[],
): ResultRows {
  const rows = rowObjects({ columns, rows: values });
  return Object.defineProperty(rows, "columns", {
    value: [...columns],
    enumerable: false,
  }) as ResultRows;
}
