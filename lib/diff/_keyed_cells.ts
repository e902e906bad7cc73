/**
 * Rows from cells for a WITHOUT ROWID table: its two trees compared by
 * record (_tree_compare.ts) and the rows that found no equal record on the
 * other side paired by their key here, without SQLite, as the engine's
 * keyed query pairs them (_keyed.ts): each file is read once, and the
 * engine need not start.
 *
 * Only where this gives exactly what the engine gives: both sides have the
 * same schema row; every key field compares as BINARY and ascending, in
 * the key's own tree and in an ORDER BY of its column (so the tree's order
 * is the order the engine's queries return rows in, and two keys pair when
 * SQLite's `=` says they are equal); no column is generated as VIRTUAL;
 * every default is a literal (as for rowid tables, _cell_rows.ts). The
 * tree's key order is checked as it is read (lib/sqlite_format
 * key_order.ts); a side out of order, or a residue of more than
 * {@link MAX_ROWS} rows or {@link MAX_BYTES} a side, is left to the engine,
 * which reads (and reports) it.
 *
 * Why pairing the residue alone is exact: a row cancelled against an equal
 * record has that record's key on both sides, and a side holds one row a
 * key (the order check fails on two), so no row of the residue has its
 * partner among the cancelled rows.
 *
 * A WITHOUT ROWID record holds the key columns first, in key order, then
 * the other columns in table order. Rows come as the engine's queries give
 * them: removed and changed in key order, then added in key order.
 *
 * @module
 */
import type { SqliteValue } from "../sqlite/value.ts";
import { emptyRow, sameValue } from "../sqlite/value.ts";
import { compareRecords, type KeyField, KeyOrder } from "../sqlite_format/key_order.ts";
import type { TextEncoding } from "../sqlite_format/header.ts";
import { Record } from "../sqlite_format/record.ts";
import { counted, type KeptRows } from "./_kept_rows.ts";
import { addedOrRemoved, changedRow, keptRow } from "./_held_rows.ts";
import { rowOf } from "./_row_reading.ts";
import {
  type CellSide,
  columnDefaults,
  differingCells,
  type Layout,
  realAffinity,
} from "./_cell_rows.ts";
import { parseCreateTable } from "./_create_table.ts";
import { compareByRecord } from "./_tree_compare.ts";
import { foldName } from "./names.ts";
import { dataColumns, type TableSchema } from "./schema.ts";
import type { TableData } from "./table_data.ts";

/** Beyond this many residue rows a side, the engine pairs the table's rows. */
const MAX_ROWS = 100_000;
/** Beyond this many bytes of residue records a side, the engine pairs them. */
const MAX_BYTES = 32 * 1024 * 1024;

/** How a WITHOUT ROWID table's records map to its columns and key. */
export interface KeyedLayout extends Layout {
  /** The key's columns, in key order. */
  readonly keyNames: readonly string[];
  /** Per key field: the column (index in `cols`) that holds it. */
  readonly keyCols: readonly number[];
  /** How the key's fields compare (BINARY, ascending). */
  readonly fields: readonly KeyField[];
}

/**
 * A WITHOUT ROWID table's layout when its rows can be paired from cells
 * (see the module documentation), else null.
 *
 * @param t the table
 * @returns the layout, or null
 */
export function keyedCellsLayout(t: TableSchema): KeyedLayout | null {
  if (!t.withoutRowid || t.keyKind !== "primary_key" || t.key.length === 0) return null;
  if (t.module !== null || t.columns.some((c) => c.hidden !== 0 && c.hidden !== 3)) return null;
  const parsed = parseCreateTable(t.sql);
  if (parsed === null || parsed.keyFields.length !== t.key.length) return null;
  const binary = (f: { collation: string; columnCollation: string; desc: boolean }) =>
    f.collation === "binary" && f.columnCollation === "binary" && !f.desc;
  if (!parsed.keyFields.every(binary)) return null;
  const dflt = columnDefaults(t);
  if (dflt === null) return null;
  const cols = dataColumns(t);
  if (cols.length !== t.columns.length) return null;
  const keyCols = t.key.map((k) => cols.findIndex((c) => foldName(c) === foldName(k)));
  if (keyCols.some((c) => c < 0) || new Set(keyCols).size !== keyCols.length) return null;
  const at = new Array<number>(cols.length).fill(-1);
  keyCols.forEach((c, r) => (at[c] = r));
  let next = keyCols.length;
  for (let k = 0; k < cols.length; k++) if (at[k]! < 0) at[k] = next++;
  return {
    cols,
    at,
    real: t.columns.map((c) => realAffinity(c.type)),
    dflt,
    key: t.key[0]!,
    hidden: false,
    keyNames: t.key,
    keyCols,
    fields: t.key.map(() => ({ collation: "binary", desc: false })),
  };
}

/** The rows of each side that found no equal record on the other: their records, in key order. */
export interface KeyedResidue {
  readonly before: readonly Uint8Array[];
  readonly after: readonly Uint8Array[];
  readonly encoding: TextEncoding;
}

/** A residue too large to hold. */
class TooMany extends Error {}

/**
 * Compares a WITHOUT ROWID table's trees by record and keeps the records
 * left over on each side.
 *
 * @param a the before side
 * @param b the after side
 * @param layout the table's layout
 * @returns the residue, or null when the engine must pair the rows (see the module documentation)
 */
export async function keyedResidue(
  a: CellSide,
  b: CellSide,
  layout: KeyedLayout,
): Promise<KeyedResidue | null> {
  const encoding = a.src.header.encoding ?? "utf-8";
  const held = { before: [] as Uint8Array[], after: [] as Uint8Array[] };
  const bytes = { before: 0, after: 0 };
  const record = new Record(encoding);
  const oa = new KeyOrder(layout.fields, "its key", "note");
  const ob = new KeyOrder(layout.fields, "its key", "note");
  try {
    await compareByRecord({ ...a, order: oa }, { ...b, order: ob }, "index", (side, cells, n) => {
      for (let k = 0; k < n; k++) {
        cells.locate(k);
        const payload = cells.payload(k);
        const problem = record.parse(payload, 0, payload.length, payload.length);
        if (problem !== null) {
          throw cells.src.damaged(cells.page!.number, `cell ${cells.index + 1}: ${problem}`);
        }
        bytes[side] += payload.length;
        if (held[side].length >= MAX_ROWS || bytes[side] > MAX_BYTES) throw new TooMany();
        // A cell on its page is a view of bytes the stream reuses (and a
        // Buffer's slice() is a view too): copied.
        held[side].push(new Uint8Array(payload));
      }
    });
  } catch (e) {
    if (e instanceof TooMany) return null;
    throw e;
  }
  if (!oa.inOrder || !ob.inOrder) return null;
  return { ...held, encoding };
}

/**
 * Pairs a residue's rows by key and tells `rows` of each change (see the
 * module documentation).
 *
 * @param residue what {@link keyedResidue} kept
 * @param layout the table's layout
 * @param table the table (its key and key kind)
 * @param rows where the row changes go
 * @returns the table's data
 */
export function pairKeyed(
  residue: KeyedResidue,
  layout: KeyedLayout,
  table: TableSchema,
  rows: KeptRows,
): TableData {
  const { before: A, after: B } = residue;
  const { cols, at, real, dflt, keyNames, keyCols, fields } = layout;
  const ra = new Record(residue.encoding);
  const rb = new Record(residue.encoding);
  const parse = (r: Record, bytes: Uint8Array): Record => {
    r.parse(bytes, 0, bytes.length, bytes.length);
    return r;
  };
  const decoded = (r: Record): SqliteValue[] => {
    const out = new Array<SqliteValue>(cols.length);
    for (let k = 0; k < cols.length; k++) {
      const i = at[k]!;
      out[k] = i < r.count ? r.value(i, real[k]) : dflt[k]!;
    }
    return out;
  };
  const keyOf = (values: readonly SqliteValue[]) => {
    const out = emptyRow();
    for (let r = 0; r < keyNames.length; r++) out[keyNames[r]!] = values[keyCols[r]!]!;
    return out;
  };
  const whole = (kind: "added" | "removed", r: Record) =>
    rows.add(kind, (kept) => {
      const values = decoded(r);
      const key = keyOf(values);
      if (!kept) return { key, row: rowOf(cols, values) };
      return counted(addedOrRemoved(key, keptRow(cols, values)), [{ names: cols, values }]);
    });
  const added: number[] = [];
  let i = 0;
  let j = 0;
  while (i < A.length || j < B.length) {
    const c = i >= A.length ? 1 : j >= B.length ? -1 : compareRecords(A[i]!, 0, B[j]!, 0, fields);
    if (c < 0) whole("removed", parse(ra, A[i++]!));
    else if (c > 0) added.push(j++);
    else {
      const x = parse(ra, A[i++]!);
      const y = parse(rb, B[j++]!);
      const cells = differingCells(layout, x, y);
      if (cells === 0) continue;
      rows.add("changed", (kept) => {
        const va = decoded(x);
        const vb = decoded(y);
        const changed = cols.filter((_, k) => !sameValue(va[k]!, vb[k]!));
        const key = keyOf(va);
        if (!kept) {
          return { key, before: rowOf(cols, va), after: rowOf(cols, vb), changed_columns: changed };
        }
        return counted(
          changedRow(key, keptRow(cols, va), keptRow(cols, vb), changed),
          [{ names: cols, values: va }, { names: cols, values: vb }],
        );
      }, cells);
    }
  }
  for (const k of added) whole("added", parse(rb, B[k]!));
  return { key: table.key, keyKind: table.keyKind, comparedColumns: cols, rows };
}
