/**
 * Kept rows of many columns, held as their values. Such a row as an object is
 * a dictionary (about 50 bytes a value under V8, 30 under JSC, against 8 in
 * an array) and building it is garbage that grows the heap: the changed rows
 * of a 995-column table kept whole cost some 250 kB of peak memory each. A
 * held row is built into an object when it is read, and that object is
 * reused while something holds it (a weak reference: once dropped, it is
 * garbage); the JSON writer and the text output read the values without
 * building it.
 *
 * @module
 */
import type { SqliteRow, SqliteValue } from "../sqlite/value.ts";
import { rowOf } from "./_row_reading.ts";
import { counted } from "./_kept_rows.ts";
import type { AddedRow, ChangedRow } from "./types.ts";

/** Rows at least this wide are held as their values. */
const HELD_FROM = 100;

/** A row held as its values: `values[i]` is column `names[i]`'s. */
export class HeldRow {
  readonly names: readonly string[];
  readonly values: readonly SqliteValue[];
  /** The row last built, while something still holds it. */
  #built: WeakRef<SqliteRow> | null = null;

  constructor(names: readonly string[], values: readonly SqliteValue[]) {
    this.names = names;
    this.values = values;
  }

  /** The row as an object: the one built before while it is still held, else a new one. */
  build(): SqliteRow {
    const known = this.#built?.deref();
    if (known !== undefined) return known;
    const row = rowOf(this.names, this.values);
    this.#built = new WeakRef(row);
    return row;
  }
}

/** A kept row: the row, or a wide one held as its values. */
export type KeptRow = SqliteRow | HeldRow;

/**
 * A row to keep: the row itself, or for a row of many columns its values.
 *
 * @param names the columns
 * @param values their values, in order
 */
export function keptRow(names: readonly string[], values: readonly SqliteValue[]): KeptRow {
  return names.length < HELD_FROM ? rowOf(names, values) : new HeldRow(names, values);
}

/** The held rows of a change, by property (`row`, `before`, `after`). */
type Held = Readonly<Record<string, HeldRow>>;

const heldOf = new WeakMap<object, Held>();

/**
 * The rows a change holds as values, by property, or undefined for a change
 * whose rows are plain objects.
 */
export function heldRows(change: object): Held | undefined {
  return heldOf.get(change);
}

const indexes = new WeakMap<readonly string[], Map<string, number>>();

/**
 * Column `column` of a row change's row `side`, as `change[side][column]`
 * reads it, but from a held row's values without building the row.
 *
 * @param change an added, removed or changed row
 * @param side which of its rows
 * @param column the column's name
 * @returns the value, or undefined when the row has no such column
 */
export function rowValue(
  change: AddedRow | ChangedRow,
  side: "row" | "before" | "after",
  column: string,
): SqliteValue | undefined {
  const held = heldOf.get(change);
  const row = held !== undefined && Object.hasOwn(held, side) ? held[side]! : undefined;
  if (row === undefined) return (change as unknown as Record<string, SqliteRow>)[side]![column];
  let at = indexes.get(row.names);
  if (at === undefined) {
    at = new Map(row.names.map((n, i) => [n, i]));
    indexes.set(row.names, at);
  }
  const i = at.get(column);
  return i === undefined ? undefined : row.values[i];
}

/** True for a name JavaScript lists before the others: an array index. */
function isIndex(name: string): boolean {
  const n = Number(name);
  return Number.isInteger(n) && n >= 0 && n < 2 ** 32 - 1 && String(n) === name;
}

const orders = new WeakMap<readonly string[], readonly number[]>();

/** Where each key of a row built of `names` is, in the order the object lists its keys. */
function keyOrder(names: readonly string[]): readonly number[] {
  let order = orders.get(names);
  if (order === undefined) {
    const at = names.map((_, i) => i);
    order = [
      ...at.filter((i) => isIndex(names[i]!)).sort((a, b) => Number(names[a]) - Number(names[b])),
      ...at.filter((i) => !isIndex(names[i]!)),
    ];
    orders.set(names, order);
  }
  return order;
}

/**
 * Maps the columns of an added or removed row's `row`, in the order
 * `Object.entries(change.row)` lists them, but from a held row's values
 * without building the row.
 *
 * @param change an added or removed row
 * @param f called with each column's name and value
 * @returns what `f` returned, in column order
 */
export function mapRow<T>(change: AddedRow, f: (name: string, value: SqliteValue) => T): T[] {
  const row = heldOf.get(change)?.["row"];
  if (row === undefined) return Object.entries(change.row).map(([k, v]) => f(k, v));
  return keyOrder(row.names).map((i) => f(row.names[i]!, row.values[i]!));
}

const read = (row: KeptRow): SqliteRow => (row instanceof HeldRow ? row.build() : row);

/**
 * An added or removed row from a kept row: `row` a plain property, or for a
 * held row a getter that builds it.
 */
export function addedOrRemoved(key: SqliteRow | null, row: KeptRow): AddedRow {
  if (!(row instanceof HeldRow)) return { key, row };
  const change = {
    key,
    get row() {
      return row.build();
    },
  };
  heldOf.set(change, { row });
  return change;
}

/**
 * An added or removed row read as its values: for a row only streamed
 * (`kept` false, read once and dropped) a plain row; for a kept one a row of
 * many columns held as its values, counted from them (see `counted`).
 *
 * @param kept whether the row is kept (the argument of `KeptRows.add`'s maker)
 * @param key the row's key, or null
 * @param names the columns
 * @param values their values, in order
 */
export function addedRowOf(
  kept: boolean,
  key: SqliteRow | null,
  names: readonly string[],
  values: readonly SqliteValue[],
): AddedRow {
  if (!kept) return { key, row: rowOf(names, values) };
  return counted(addedOrRemoved(key, keptRow(names, values)), [{ names, values }]);
}

/** A changed row from kept rows, as {@link addedOrRemoved}. */
export function changedRow(
  key: SqliteRow,
  before: KeptRow,
  after: KeptRow,
  changed: readonly string[],
): ChangedRow {
  if (!(before instanceof HeldRow) && !(after instanceof HeldRow)) {
    return { key, before, after, changed_columns: changed };
  }
  const change = {
    key,
    get before() {
      return read(before);
    },
    get after() {
      return read(after);
    },
    changed_columns: changed,
  };
  const held: Record<string, HeldRow> = {};
  if (before instanceof HeldRow) held["before"] = before;
  if (after instanceof HeldRow) held["after"] = after;
  heldOf.set(change, held);
  return change;
}
