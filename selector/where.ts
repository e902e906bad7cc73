/**
 * Where clauses compiled to {@link Condition}s over one row change.
 *
 * A bare column condition reads the row's values: the row itself for an added
 * or removed row, the after values for a changed one. `$before`, `$after` and
 * `$key` read the other sides; `$changed_columns` reads the list of columns
 * whose values changed. A column the row does not have fails its condition
 * (so `{"permissions": "all"}` is simply false on a table without that
 * column); `$not` then turns that false into true, as logic says.
 *
 * @module
 */
import type { SqliteRow, SqliteValue } from "../lib/sqlite/value.ts";
import { OPERATOR_NAMES, OPERATORS, type ValueTest } from "./operators.ts";
import { compileRegex } from "./operators.ts";
import { formatList } from "./_text.ts";
import type {
  ChangedColumnsCondition,
  ColumnCondition,
  OperatorObject,
  Where,
  WhereObject,
} from "./types.ts";
import { isPlainObject } from "./_schema_kit.ts";

/** One row change as the conditions see it. */
export interface RowView {
  /** What bare column conditions read: the row (added, removed) or the after values (changed). */
  readonly values: SqliteRow;
  /** The key columns' values, or null for a table compared without a key. */
  readonly key: SqliteRow | null;
  readonly before: SqliteRow | null;
  readonly after: SqliteRow | null;
  /** The columns whose values changed; null for an added or removed row. */
  readonly changedColumns: readonly string[] | null;
}

/** A compiled condition on one row change. */
export interface Condition {
  test(row: RowView): boolean;
  /** How many of its comparisons hold: the best-scoring row is the nearest miss. */
  score(row: RowView): number;
  /** The condition in words: `role in ["admin","root"]`. */
  describe(): string;
  /** The columns it reads, to show them for a near miss. */
  readonly columns: readonly string[];
}

/** Every condition holds (an empty list holds for every row). */
export function allOf(conditions: readonly Condition[]): Condition {
  if (conditions.length === 1) return conditions[0]!;
  return {
    test: (row) => conditions.every((c) => c.test(row)),
    score: (row) => conditions.reduce((sum, c) => sum + c.score(row), 0),
    describe: () =>
      conditions.length === 0 ? "any row" : conditions.map((c) => c.describe()).join(" and "),
    columns: conditions.flatMap((c) => c.columns),
  };
}

/** Some condition holds. */
export function anyOf(conditions: readonly Condition[]): Condition {
  if (conditions.length === 1) return conditions[0]!;
  return {
    test: (row) => conditions.some((c) => c.test(row)),
    score: (row) => Math.max(0, ...conditions.map((c) => c.score(row))),
    describe: () => `(${conditions.map((c) => c.describe()).join(" or ")})`,
    columns: conditions.flatMap((c) => c.columns),
  };
}

function not(inner: Condition): Condition {
  return {
    test: (row) => !inner.test(row),
    score: (row) => inner.test(row) ? 0 : 1,
    describe: () => `not (${inner.describe()})`,
    columns: inner.columns,
  };
}

/** Runs `inner` against one side of the row: its before or after values, or its key. */
function onSide(side: "before" | "after" | "key", inner: Condition): Condition {
  const view = (row: RowView): RowView | null => {
    const values = row[side];
    return values === null ? null : { ...row, values };
  };
  return {
    test: (row) => {
      const v = view(row);
      return v !== null && inner.test(v);
    },
    score: (row) => {
      const v = view(row);
      return v === null ? 0 : inner.score(v);
    },
    describe: () => `$${side}: ${inner.describe()}`,
    columns: inner.columns,
  };
}

function has(values: SqliteRow, column: string): boolean {
  return Object.hasOwn(values, column);
}

/** `column` holds a value and `test` accepts it. */
function columnTest(column: string, tests: readonly ValueTest[], text: string): Condition {
  return {
    test: (row) => {
      if (!has(row.values, column)) return false;
      const value: SqliteValue = row.values[column]!;
      for (const t of tests) if (!t(value)) return false;
      return true;
    },
    score: (row) => {
      if (!has(row.values, column)) return 0;
      const value = row.values[column]!;
      return tests.filter((t) => t(value)).length;
    },
    describe: () => text,
    columns: [column],
  };
}

/** A column condition: a value (equality) or an operator object (all hold). */
export function compileColumn(column: string, condition: ColumnCondition): Condition {
  if (!isPlainObject(condition)) {
    const op = OPERATORS.$eq;
    return columnTest(column, [op.build(condition)], op.describe(column, condition));
  }
  const ops = condition as OperatorObject;
  const tests: ValueTest[] = [];
  const words: string[] = [];
  for (const name of OPERATOR_NAMES) {
    if (!(name in ops)) continue;
    const operand = ops[name];
    tests.push(OPERATORS[name].build(operand));
    words.push(OPERATORS[name].describe(column, operand));
  }
  return columnTest(column, tests, words.join(" and "));
}

/** Every listed column is present and not NULL (a row template of names). */
export function notNull(columns: readonly string[]): Condition {
  return {
    test: (row) => columns.every((c) => has(row.values, c) && row.values[c] !== null),
    score: (row) => columns.filter((c) => has(row.values, c) && row.values[c] !== null).length,
    describe: () => `${columns.join(", ")} ${columns.length === 1 ? "is" : "are"} not NULL`,
    columns,
  };
}

/** A test on the set of changed columns. */
function changedSet(
  test: (changed: readonly string[]) => boolean,
  text: string,
  columns: readonly string[],
): Condition {
  return {
    test: (row) => row.changedColumns !== null && test(row.changedColumns),
    score: (row) =>
      row.changedColumns === null
        ? 0
        : test(row.changedColumns)
        ? columns.length + 1
        : columns.filter((c) => row.changedColumns!.includes(c)).length,
    describe: () => text,
    columns,
  };
}

/** Every listed column changed in the row. */
export function changedAll(columns: readonly string[]): Condition {
  return changedSet(
    (changed) => columns.every((c) => changed.includes(c)),
    `${columns.join(", ")} changed`,
    columns,
  );
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((x) => set.has(x));
}

function compileChangedColumns(condition: ChangedColumnsCondition): Condition {
  if (typeof condition === "string") return changedAll([condition]);
  if (Array.isArray(condition)) return changedAll(condition);
  const ops = condition as Exclude<ChangedColumnsCondition, string | readonly string[]>;
  const parts: Condition[] = [];
  const eq = (want: string | readonly string[]): Condition =>
    typeof want === "string" ? changedAll([want]) : changedSet(
      (c) => sameSet(c, want),
      `changed columns are exactly ${formatList(want)}`,
      want,
    );
  if (ops.$eq !== undefined) parts.push(eq(ops.$eq));
  if (ops["$not-eq"] !== undefined) parts.push(not(eq(ops["$not-eq"])));
  const anyIn = (want: readonly string[]): Condition =>
    changedSet(
      (c) => want.some((w) => c.includes(w)),
      `one of ${formatList(want)} changed`,
      want,
    );
  if (ops.$in !== undefined) parts.push(anyIn(ops.$in));
  if (ops["$not-in"] !== undefined) parts.push(not(anyIn(ops["$not-in"])));
  if (ops.$regex !== undefined) {
    const re = compileRegex(ops.$regex) as RegExp;
    parts.push(changedSet(
      (c) => c.some((name) => re.test(name)),
      `a changed column matches /${ops.$regex}/`,
      [],
    ));
  }
  return allOf(parts);
}

/** Compiles one where object: every key must hold. */
export function compileWhereObject(object: WhereObject): Condition {
  const parts: Condition[] = [];
  for (const [key, value] of Object.entries(object)) {
    switch (key) {
      case "$and":
        parts.push(allOf((value as readonly WhereObject[]).map(compileWhereObject)));
        break;
      case "$or":
        parts.push(anyOf((value as readonly WhereObject[]).map(compileWhereObject)));
        break;
      case "$not":
        parts.push(not(compileWhereObject(value as WhereObject)));
        break;
      case "$before":
      case "$after":
      case "$key":
        parts.push(
          onSide(
            key.slice(1) as "before" | "after" | "key",
            compileWhereObject(value as WhereObject),
          ),
        );
        break;
      case "$changed_columns":
        parts.push(compileChangedColumns(value as ChangedColumnsCondition));
        break;
      default:
        parts.push(compileColumn(key, value as ColumnCondition));
    }
  }
  return allOf(parts);
}

/** Compiles a where clause: an object, or a list of objects that must all hold. */
export function compileWhere(where: Where): Condition {
  return Array.isArray(where)
    ? allOf((where as readonly WhereObject[]).map(compileWhereObject))
    : compileWhereObject(where as WhereObject);
}
