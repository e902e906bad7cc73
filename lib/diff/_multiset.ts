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
import { fillRanges, forRanges, inRanges, rowOf, valuesOf as readValues } from "./_row_reading.ts";
import { addedRowOf } from "./_held_rows.ts";
import { balanced, foldName, ident } from "./_sql.ts";
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
  // Cell residues (page_plan.ts) say which rows of each side can differ;
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
  const same = (x: string, y: string, xs: readonly string[], ys: readonly string[]): string =>
    xs.length === 0 ? "" : ` AND ${
      balanced(
        "AND",
        xs.map((c, i) => `+${x}.${ident(ys[i]!)} IS +${y}.${ident(c)} COLLATE BINARY`),
      )
    }`;
  /** `FROM ... WHERE ...` of one side's rows that found no identical rowid partner. */
  const residue = (
    alias: string,
    table: string,
    cols: readonly string[],
    rowid: string | null,
    other: { alias: string; table: string; cols: readonly string[]; rowid: string | null },
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
        } = ${alias}.${ident(rowid!)}${same(alias, other.alias, cols, other.cols)})`,
      );
    }
    const where = conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : "";
    return `FROM ${from}${where}`;
  };
  const valuesOf = (alias: string, cols: readonly string[]): string[] =>
    cols.map((c) => `+${alias}.${ident(c)} COLLATE BINARY`);
  const fromA = residue("A", A, aCols, aRowid, {
    alias: "B",
    table: B,
    cols: bCols,
    rowid: bRowid,
  });
  const fromB = residue("B", B, bCols, bRowid, {
    alias: "A",
    table: A,
    cols: aCols,
    rowid: aRowid,
  });
  if (aCols.length >= COLUMNS_PER_STATEMENT) {
    mergeSorted(db, m, { a: valuesOf("A", aCols), b: valuesOf("B", bCols), fromA, fromB }, rows);
    return;
  }
  const side = (alias: string, cols: readonly string[], from: string, sign: number): string =>
    `SELECT ${
      valuesOf(alias, cols).map((v, i) => `${v} AS c${i}`).join(", ")
    }, ${sign} AS n ${from}`;
  const groups = aCols.map((_, i) => `c${i}`).join(", ");
  const stmt = db.prepare(
    `SELECT sum(n), ${groups} FROM (${side("A", aCols, fromA, 1)} UNION ALL ${
      side("B", bCols, fromB, -1)
    }) GROUP BY ${groups} HAVING sum(n) <> 0 ORDER BY ${groups}`,
  );
  forRanges(stmt, null, () => {
    const n = Number(stmt.value(0));
    const kind = n > 0 ? "removed" : "added";
    const names = n > 0 ? aCols : bCols;
    for (let i = 0; i < Math.abs(n); i++) {
      rows.add(kind, (kept) => rowChange(m, kept, names, readValues(stmt, names.length, 1)));
    }
  });
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
  readonly a: readonly string[];
  readonly b: readonly string[];
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
  const aCols = m.cols;
  const bCols = aCols.map((c) =>
    dataColumns(m.after.table).find((b) => foldName(b) === foldName(c))!
  );
  const sa = prepareSelect(db, q.a, `${q.fromA} ORDER BY ${q.a.join(", ")}`);
  let sb: RowSource | null = null;
  try {
    sb = prepareSelect(db, q.b, `${q.fromB} ORDER BY ${q.b.join(", ")}`);
    const n = aCols.length;
    const compare = (x: RowSource, y: RowSource): number => {
      for (let i = 0; i < n; i++) {
        const c = compareValues(x.value(i), y.value(i));
        if (c !== 0) return c;
      }
      return 0;
    };
    const emit = (stmt: RowSource, kind: "added" | "removed", names: readonly string[]): void => {
      rows.add(kind, (kept) => rowChange(m, kept, names, readValues(stmt, names.length, 0)));
    };
    let hasA = sa.step();
    let hasB = sb.step();
    while (hasA || hasB) {
      const c = !hasB ? -1 : !hasA ? 1 : compare(sa, sb);
      if (c <= 0 && hasA) {
        if (c < 0) emit(sa, "removed", aCols);
        hasA = sa.step();
      }
      if (c >= 0 && hasB) {
        if (c > 0) emit(sb, "added", bCols);
        hasB = sb.step();
      }
    }
  } finally {
    sa.finalize();
    sb?.finalize();
  }
}
