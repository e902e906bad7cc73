/**
 * The multiset comparison of rows that have no key to pair by: tables
 * without a PRIMARY KEY, and rows whose key holds a NULL.
 *
 * @module
 */
import type { Database } from "../sqlite/database.ts";
import type { SqliteRow, SqliteValue } from "../sqlite/value.ts";
import { compareValues } from "../sqlite/value.ts";
import { COLUMNS_PER_STATEMENT, prepareSelect, type RowSource } from "./_wide_select.ts";
import type { KeptRows } from "./_kept_rows.ts";
import { fillRanges, forRanges, inRanges, rowOf } from "./_row_reading.ts";
import { addedRowOf } from "./_held_rows.ts";
import { foldName } from "./names.ts";
import { balanced, ident, sqlLiteral } from "../sqlite/sql_text.ts";
import { dataColumns } from "./schema.ts";
import type { TableDataInput, TableSide } from "./table_data.ts";
import type { AddedRow } from "./types.ts";

const RANGES_TABLE = "temp.dbagenteval_ranges";
/** The before and after rows that may differ, from the cell comparison. */
export const RESIDUE_A = "temp.dbagenteval_residue_a";
export const RESIDUE_B = "temp.dbagenteval_residue_b";

/** What {@link multiset} compares. */
export interface MultisetInput {
  readonly before: TableSide;
  readonly after: TableSide;
  /** The before names of the columns compared (the after names match them, folded). */
  readonly cols: readonly string[];
  /** The `key` of each reported row, or null for none. */
  readonly keyOf: ((row: SqliteRow) => SqliteRow) | null;
  /** Only rows with a NULL in the key: the condition on each side. */
  readonly nullKeys: { readonly a: string; readonly b: string } | null;
  /**
   * Columns only the before (a) or after (b) side has (rows with NULL keys
   * carry them, as keyed rows do). The other side reads as the column's
   * default there; a before-only column's NULL counts as its default, as
   * a dropped column's NULL or default loses nothing.
   */
  readonly oneSide?: { readonly a: readonly OneSide[]; readonly b: readonly OneSide[] };
}

/** A column only one side has, with its default as stored. */
export interface OneSide {
  readonly name: string;
  readonly dflt: SqliteValue;
}

/**
 * Where the compared values sit: the common columns, then the before-only
 * ones, then the after-only ones; and which of them each side's rows carry,
 * in the table's own column order.
 */
interface Layout {
  /** Value expressions of side A and of side B, one per compared value. */
  readonly a: readonly string[];
  readonly b: readonly string[];
  /** A removed row's column names and their positions among the values. */
  readonly removed: { readonly names: readonly string[]; readonly at: readonly number[] };
  /** An added row's column names and their positions among the values. */
  readonly added: { readonly names: readonly string[]; readonly at: readonly number[] };
}

function layout(m: MultisetInput, aCols: readonly string[], bCols: readonly string[]): Layout {
  const onlyA = m.oneSide?.a ?? [];
  const onlyB = m.oneSide?.b ?? [];
  const value = (alias: string, c: string): string => `+${alias}.${ident(c)} COLLATE BINARY`;
  const a = [
    ...aCols.map((c) => value("A", c)),
    ...onlyA.map((c) =>
      c.dflt === null
        ? value("A", c.name)
        : `coalesce(+A.${ident(c.name)}, ${sqlLiteral(c.dflt)}) COLLATE BINARY`
    ),
    ...onlyB.map((c) => `${sqlLiteral(c.dflt)} COLLATE BINARY`),
  ];
  const b = [
    ...bCols.map((c) => value("B", c)),
    ...onlyA.map((c) => `${sqlLiteral(c.dflt)} COLLATE BINARY`),
    ...onlyB.map((c) => value("B", c.name)),
  ];
  const order = (
    table: TableSide,
    own: readonly string[],
    extra: readonly OneSide[],
    from: number,
  ): { names: string[]; at: number[] } => {
    const at = new Map<string, number>();
    own.forEach((c, i) => at.set(foldName(c), i));
    extra.forEach((c, i) => at.set(foldName(c.name), from + i));
    const names = dataColumns(table.table).filter((c) => at.has(foldName(c)));
    return { names, at: names.map((c) => at.get(foldName(c))!) };
  };
  return {
    a,
    b,
    removed: order(m.before, aCols, onlyA, aCols.length),
    added: order(m.after, bCols, onlyB, aCols.length + onlyA.length),
  };
}

/**
 * Compares rows as multisets (see table_data.ts): rows with an identical
 * rowid partner cancel, the residue is grouped and counted.
 *
 * @param input the connection and rowid ranges
 * @param m the sides, the columns and which rows take part
 * @param rows where row changes go
 */
export function multiset(input: TableDataInput, m: MultisetInput, rows: KeptRows): void {
  const { db } = input;
  const { before, after, nullKeys } = m;
  const aCols = m.cols;
  const bCols = aCols.map((c) =>
    dataColumns(after.table).find((b) => foldName(b) === foldName(c))!
  );
  const A = `${ident(before.schema)}.${ident(before.table.name)}`;
  const B = `${ident(after.schema)}.${ident(after.table.name)}`;
  const aRowid = before.table.rowidName;
  const bRowid = after.table.rowidName;
  // Cell residues (_residue.ts) say which rows of each side can differ;
  // the rest were cancelled in pairs already, so no rowid hint on top.
  const cells = aRowid !== null && bRowid !== null && nullKeys === null
    ? input.residue ?? null
    : null;
  const hint = aRowid !== null && bRowid !== null && cells === null;
  const ranges = hint && nullKeys === null ? input.ranges : null;
  if (cells !== null) {
    fillRanges(db, RESIDUE_A, cells.before);
    fillRanges(db, RESIDUE_B, cells.after);
  } else if (ranges !== null) fillRanges(db, RANGES_TABLE, ranges);
  const l = layout(m, aCols, bCols);
  // A row cancels with the other side's row of the same rowid when every
  // compared value is the same (one-sided columns against their default).
  const same = l.a.length === 0
    ? ""
    : ` AND ${balanced("AND", l.a.map((x, i) => `${x} IS ${l.b[i]!}`))}`;
  /** `FROM ... WHERE ...` of one side's rows that found no identical rowid partner. */
  const residue = (
    alias: string,
    table: string,
    rowid: string | null,
    other: { alias: string; table: string; rowid: string | null },
  ): string => {
    const from = cells !== null
      ? inRanges(alias === "A" ? RESIDUE_A : RESIDUE_B, table, alias, rowid!)
      : ranges === null
      ? `${table} AS ${alias}`
      : inRanges(RANGES_TABLE, table, alias, rowid!);
    const conditions: string[] = [];
    if (nullKeys !== null) conditions.push(`(${alias === "A" ? nullKeys.a : nullKeys.b})`);
    if (hint) {
      conditions.push(
        `NOT EXISTS (SELECT 1 FROM ${other.table} AS ${other.alias} WHERE ${other.alias}.${
          ident(other.rowid!)
        } = ${alias}.${ident(rowid!)}${same})`,
      );
    }
    const where = conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : "";
    return `FROM ${from}${where}`;
  };
  const fromA = residue("A", A, aRowid, { alias: "B", table: B, rowid: bRowid });
  const fromB = residue("B", B, bRowid, { alias: "A", table: A, rowid: aRowid });
  if (l.a.length >= COLUMNS_PER_STATEMENT) {
    mergeSorted(db, m, { layout: l, fromA, fromB }, rows);
    return;
  }
  const side = (values: readonly string[], from: string, sign: number): string =>
    `SELECT ${values.map((v, i) => `${v} AS c${i}`).join(", ")}, ${sign} AS n ${from}`;
  const groups = l.a.map((_, i) => `c${i}`).join(", ");
  const stmt = db.prepare(
    `SELECT sum(n), ${groups} FROM (${side(l.a, fromA, 1)} UNION ALL ${
      side(l.b, fromB, -1)
    }) GROUP BY ${groups} HAVING sum(n) <> 0 ORDER BY ${groups}`,
  );
  forRanges(stmt, null, () => {
    const n = Number(stmt.value(0));
    const kind = n > 0 ? "removed" : "added";
    const { names, at } = n > 0 ? l.removed : l.added;
    for (let i = 0; i < Math.abs(n); i++) {
      rows.add(kind, (kept) => rowChange(m, kept, names, valuesAt(stmt, at, 1)));
    }
  });
}

/** The values at positions `at` (after `offset`) of the current row. */
function valuesAt(stmt: RowSource, at: readonly number[], offset: number): SqliteValue[] {
  return at.map((i) => stmt.value(offset + i));
}

/**
 * A row left over on one side, from its values: a wide kept row is held as
 * its values (_held_rows.ts), not built into an object.
 */
function rowChange(
  m: MultisetInput,
  kept: boolean,
  names: readonly string[],
  values: readonly SqliteValue[],
): AddedRow {
  const key = m.keyOf === null ? null : m.keyOf(rowOf(names, values));
  return addedRowOf(kept, key, names, values);
}

/** The residue queries of a multiset comparison too wide for one GROUP BY. */
interface SortedSides {
  readonly layout: Layout;
  readonly fromA: string;
  readonly fromB: string;
}

/**
 * The multiset comparison of rows too wide for one result set with their
 * count: each side's residue sorted by every column (SQLite's external
 * sorter), merged here. Equal heads cancel; the smaller one is removed (A) or
 * added (B). Same order and answer as the GROUP BY.
 */
function mergeSorted(db: Database, m: MultisetInput, q: SortedSides, rows: KeptRows): void {
  const l = q.layout;
  const sa = prepareSelect(db, l.a, `${q.fromA} ORDER BY ${l.a.join(", ")}`);
  let sb: RowSource | null = null;
  try {
    sb = prepareSelect(db, l.b, `${q.fromB} ORDER BY ${l.b.join(", ")}`);
    const n = l.a.length;
    const compare = (x: RowSource, y: RowSource): number => {
      for (let i = 0; i < n; i++) {
        const c = compareValues(x.value(i), y.value(i));
        if (c !== 0) return c;
      }
      return 0;
    };
    const emit = (stmt: RowSource, kind: "added" | "removed"): void => {
      const { names, at } = kind === "removed" ? l.removed : l.added;
      rows.add(kind, (kept) => rowChange(m, kept, names, valuesAt(stmt, at, 0)));
    };
    let hasA = sa.step();
    let hasB = sb.step();
    while (hasA || hasB) {
      const c = !hasB ? -1 : !hasA ? 1 : compare(sa, sb);
      if (c <= 0 && hasA) {
        if (c < 0) emit(sa, "removed");
        hasA = sa.step();
      }
      if (c >= 0 && hasB) {
        if (c > 0) emit(sb, "added");
        hasB = sb.step();
      }
    }
  } finally {
    sa.finalize();
    sb?.finalize();
  }
}
