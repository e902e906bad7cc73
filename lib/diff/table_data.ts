/**
 * The data plane of one table: which rows were added, removed or changed.
 *
 * The comparison runs inside SQLite, as sqldiff does: the before file is the
 * connection's `main` schema and the after file is attached, so only rows
 * that differ cross into JavaScript. Each query walks its outer table in key
 * order through the table's own b-tree (no ORDER BY sort, checked with
 * EXPLAIN QUERY PLAN), so memory stays flat whatever the table's size; only
 * the kept changes (`maxRows` per kind) are held.
 *
 * Three ways to pair rows:
 * - keyed (both sides have the same key columns): a LEFT JOIN on the key
 *   finds removed and changed rows, a NOT EXISTS finds added ones. Values are
 *   compared with `+a IS NOT +b COLLATE BINARY`: the unary `+` drops column
 *   affinity (so TEXT '1' never equals INTEGER 1 after a type change) and
 *   BINARY drops a NOCASE collation, leaving SQLite's plain `IS`: 1 IS 1.0,
 *   but 1, '1' and x'31' differ, and integers compare exactly. A column only
 *   one side has changes a paired row when its value is not the column's
 *   default (`ALTER TABLE ... ADD COLUMN phone` then one `UPDATE` shows that
 *   row changed; dropping a column shows the rows that held a value in it).
 *   Rows whose key holds a NULL (a rowid table's non-INTEGER primary key
 *   allows it) cannot pair by key: they are compared as a multiset of whole
 *   rows, like a keyless table, so an unchanged one is never reported
 *   whatever the page layout.
 * - multiset (no key on either side, same columns): rows whose rowid partner
 *   on the other side is identical cancel first (a sound shortcut: removing
 *   one equal element from both multisets leaves their difference alone);
 *   the residue is grouped by every column and counted, so duplicates count
 *   and rows are only ever added or removed. The GROUP BY sorts the residue
 *   in memory: memory grows with the number of rows that moved or changed,
 *   not with the table.
 * - whole (one side only, or the key is not shared): every row of the
 *   before side is removed and every row of the after side added. When
 *   both sides exist the rows carry no key (`key_kind` none) and come in
 *   value order, like keyless rows.
 *
 * @module
 */
import type { Database } from "../sqlite/database.ts";
import type { CellResidue, KeySink } from "./_residue.ts";
import { type ByteBudget, KeptRows } from "./_kept_rows.ts";
import { keyed } from "./_keyed.ts";
import { multiset } from "./_multiset.ts";
import { whole } from "./_whole.ts";
import type { RowEvent } from "./listener.ts";
import { foldName } from "./names.ts";
import { dataColumns, type TableSchema } from "./schema.ts";
import type { KeyKind } from "./types.ts";

export { dataColumns };

/** One side of a table: the attached schema name and the table. */
export interface TableSide {
  readonly schema: string;
  readonly table: TableSchema;
}

/** A closed range of rowids. */
export type RowidRange = readonly [bigint, bigint];

/** What {@link diffTableData} compares. */
export interface TableDataInput {
  readonly db: Database;
  readonly before: TableSide | null;
  readonly after: TableSide | null;
  readonly maxRows: number;
  /** The bytes kept rows may still hold (shared by the tables of a database). */
  readonly budget?: ByteBudget;
  /**
   * Rowid ranges outside which both sides are known to hold the same rows
   * (from the page comparison), or null to compare everything. Iterated
   * once per query, so it must be re-iterable.
   */
  readonly ranges: Iterable<RowidRange> | null;
  /**
   * The rowids of each side that may differ, from comparing cells (see
   * _residue.ts), for tables whose rows pair by record; null or absent
   * when not known.
   */
  readonly residue?: CellResidue | null;
  /** The keys of a WITHOUT ROWID table's rows that may differ (see _residue.ts). */
  readonly residueKeys?: ((sink: KeySink) => boolean) | null;
  /** The key was chosen (the `keys` option), so no index may back it. */
  readonly chosenKey?: boolean;
  /** Called with every row change, kept or not (see listener.ts). */
  readonly onRow?: ((event: RowEvent) => void) | null;
  /** Where the row changes go, when the caller made it (else one is made of the fields above). */
  readonly rows?: KeptRows;
}

/** The data plane of one table. */
export interface TableData {
  readonly key: readonly string[];
  readonly keyKind: KeyKind;
  readonly comparedColumns: readonly string[];
  readonly rows: KeptRows;
}

/** How a table pair will be compared. */
export type PairingMode = "keyed" | "multiset" | "whole";

/**
 * How two sides of a table are paired: keyed when both share the key
 * columns, multiset when neither has a key and the columns are the same,
 * else whole (removed plus added).
 *
 * @param before the before table
 * @param after the after table
 * @returns the mode
 */
export function pairingMode(before: TableSchema, after: TableSchema): PairingMode {
  const folded = (names: readonly string[]): string => names.map(foldName).join("\0");
  if (before.keyKind !== "none" && after.keyKind !== "none") {
    return folded(before.key) === folded(after.key) ? "keyed" : "whole";
  }
  if (before.keyKind === "none" && after.keyKind === "none") {
    const cols = (t: TableSchema): string[] => dataColumns(t).map(foldName).sort();
    return cols(before).join("\0") === cols(after).join("\0") ? "multiset" : "whole";
  }
  return "whole";
}

/**
 * Compares the rows of one table.
 *
 * @param input the connection, the two sides, the row cap and rowid ranges
 * @returns the key used, the compared columns and the row changes
 */
export function diffTableData(input: TableDataInput): TableData {
  const { before, after } = input;
  const rows = input.rows ?? new KeptRows(input.maxRows, input.onRow ?? null, input.budget);
  if (before !== null && after !== null) {
    const mode = pairingMode(before.table, after.table);
    if (mode === "keyed") return keyed(input, before, after, rows);
    if (mode === "multiset") {
      const cols = dataColumns(before.table);
      multiset(input, { before, after, cols, keyOf: null, nullKeys: null }, rows);
      return { key: [], keyKind: "none", comparedColumns: cols, rows };
    }
  }
  const both = before !== null && after !== null;
  if (before !== null) whole(input.db, { side: before, kind: "removed", keyed: !both }, rows);
  if (after !== null) whole(input.db, { side: after, kind: "added", keyed: !both }, rows);
  const only = after ?? before;
  return {
    key: both ? [] : only?.table.key ?? [],
    keyKind: both ? "none" : only?.table.keyKind ?? "none",
    comparedColumns: both ? commonColumns(before.table, after.table) : [],
    rows,
  };
}

function commonColumns(a: TableSchema, b: TableSchema): string[] {
  const inB = new Set(dataColumns(b).map(foldName));
  return dataColumns(a).filter((c) => inB.has(foldName(c)));
}
