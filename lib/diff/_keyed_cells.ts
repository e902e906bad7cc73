/**
 * Rows from cells for a table keyed by columns (a WITHOUT ROWID table, or
 * a rowid table whose primary key is not the rowid): its two trees
 * compared by record (_tree_compare.ts) and the rows that found no equal
 * record on the other side paired by their key here, without SQLite, as
 * the engine's keyed query pairs them (_keyed.ts): each file is read once,
 * and the engine need not start.
 *
 * Only where this gives exactly what the engine gives: both files are
 * UTF-8 (the engine reads a UTF-8 copy of a UTF-16 file, _utf8_copy.ts, so
 * its keys order by other bytes than the file's); both sides have the same
 * schema row; every key field is ascending and compares by one collation
 * the comparison knows (BINARY, NOCASE or RTRIM), in the key's own tree and
 * in an ORDER BY of its column (so key order is the order the engine's
 * queries return rows in, and two keys pair when SQLite's `=` says they are
 * equal); no column is generated as VIRTUAL;
 * every default is a literal (as for rowid tables, _cell_rows.ts). A
 * WITHOUT ROWID tree's key order is checked as it is read (lib/sqlite_format
 * key_order.ts); a rowid table's residue is sorted by key here, and a key
 * held twice on a side or holding a NULL (which pairs with nothing) is left
 * to the engine, as is a side out of order or a residue of more than
 * {@link MAX_ROWS} rows or {@link MAX_BYTES} a side. The engine then reads
 * (and reports) the table.
 *
 * Why pairing the residue alone is exact: a row cancelled against an equal
 * record has that record's key on both sides, and a side holds one row a
 * key, so no row of the residue has its partner among the cancelled rows.
 *
 * A WITHOUT ROWID record holds the key columns first, in key order, then
 * the other columns in table order; a rowid table's record holds every
 * column in table order. Rows come as the engine's queries give them:
 * removed and changed in key order, then added in key order.
 *
 * @module
 */
import type { SqliteValue } from "../sqlite/value.ts";
import { emptyRow } from "../sqlite/value.ts";
import {
  compareRecords,
  type KeyField,
  KeyOrder,
  knownCollation,
} from "../sqlite_format/key_order.ts";
import type { TextEncoding } from "../sqlite_format/header.ts";
import { fieldsRecord, Record } from "../sqlite_format/record.ts";
import type { TreeKind } from "../sqlite_format/btree_page.ts";
import type { KeptRows } from "./_kept_rows.ts";
import {
  type CellSide,
  changedValues,
  columnDefaults,
  differingCells,
  type Layout,
  realAffinity,
  recordValues,
  wholeRow,
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

/** How a keyed table's records map to its columns and key. */
export interface KeyedLayout extends Layout {
  /** The table's tree: an index tree (WITHOUT ROWID) or a table tree. */
  readonly tree: TreeKind;
  /** The key's columns, in key order. */
  readonly keyNames: readonly string[];
  /** Per key field: the column (index in `cols`) that holds it. */
  readonly keyCols: readonly number[];
  /** Per key field: its place in the record. */
  readonly keyAt: readonly number[];
  /** How the key's fields compare (ascending, by their collation). */
  readonly fields: readonly KeyField[];
}

/**
 * A keyed table's layout when its rows can be paired from cells (see the
 * module documentation), else null.
 *
 * @param t the table
 * @returns the layout, or null
 */
export function keyedCellsLayout(t: TableSchema): KeyedLayout | null {
  if (t.keyKind !== "primary_key" || t.key.length === 0) return null;
  if (foldName(t.name) === "sqlite_sequence") return null;
  if (t.module !== null || t.columns.some((c) => c.hidden !== 0 && c.hidden !== 3)) return null;
  const parsed = parseCreateTable(t.sql);
  if (parsed === null || parsed.keyFields.length !== t.key.length) return null;
  if (parsed.withoutRowid !== t.withoutRowid) return null;
  const fields: KeyField[] = [];
  for (const f of parsed.keyFields) {
    // The tree's order must be the order of an ORDER BY of the column.
    const collation = knownCollation(f.collation);
    if (collation === undefined || f.collation !== f.columnCollation || f.desc) return null;
    fields.push({ collation, desc: false });
  }
  const dflt = columnDefaults(t);
  if (dflt === null) return null;
  const cols = dataColumns(t);
  if (cols.length !== t.columns.length) return null;
  const keyCols = t.key.map((k) => cols.findIndex((c) => foldName(c) === foldName(k)));
  if (keyCols.some((c) => c < 0) || new Set(keyCols).size !== keyCols.length) return null;
  let at = cols.map((_, k) => k);
  if (t.withoutRowid) {
    at = new Array<number>(cols.length).fill(-1);
    keyCols.forEach((c, r) => (at[c] = r));
    let next = keyCols.length;
    for (let k = 0; k < cols.length; k++) if (at[k]! < 0) at[k] = next++;
  }
  return {
    tree: t.withoutRowid ? "index" : "table",
    cols,
    at,
    real: t.columns.map((c) => realAffinity(c.type)),
    dflt,
    key: t.key[0]!,
    hidden: false,
    keyNames: t.key,
    keyCols,
    keyAt: keyCols.map((c) => at[c]!),
    fields,
  };
}

/** A row of the residue: its record, and its key as a record of the key's fields alone. */
interface HeldRow {
  readonly record: Uint8Array;
  readonly key: Uint8Array;
}

/** The rows of each side that found no equal record on the other, in key order. */
export interface KeyedResidue {
  readonly before: readonly HeldRow[];
  readonly after: readonly HeldRow[];
  readonly encoding: TextEncoding;
}

/**
 * Compares a keyed table's trees by record and keeps the rows left over on
 * each side, in key order.
 *
 * @param a the before side
 * @param b the after side
 * @param layout the table's layout
 * @returns the residue, or null when the engine must pair the rows (see the module documentation);
 *   either way every page of both trees was read and checked
 */
export async function keyedResidue(
  a: CellSide,
  b: CellSide,
  layout: KeyedLayout,
): Promise<KeyedResidue | null> {
  const encoding = a.src.header.encoding ?? "utf-8";
  const held = { before: [] as HeldRow[], after: [] as HeldRow[] };
  const bytes = { before: 0, after: 0 };
  const record = new Record(encoding);
  const index = layout.tree === "index";
  const order = (): KeyOrder | null =>
    index ? new KeyOrder(layout.fields, "its key", "note") : null;
  const oa = order();
  const ob = order();
  const { keyAt, fields } = layout;
  // Once the residue is the engine's, the walk still goes to the end: it
  // checks every page of the tree, which the engine's walk then need not.
  let engine = false;
  await compareByRecord({ ...a, order: oa }, { ...b, order: ob }, layout.tree, (side, cells, n) => {
    for (let k = 0; k < n && !engine; k++) {
      cells.locate(k);
      const payload = cells.payload(k);
      const problem = record.parse(payload, 0, payload.length, payload.length);
      if (problem !== null) {
        throw cells.src.damaged(cells.page!.number, `cell ${cells.index + 1}: ${problem}`);
      }
      bytes[side] += payload.length;
      if (held[side].length >= MAX_ROWS || bytes[side] > MAX_BYTES) {
        engine = true;
        break;
      }
      // A cell on its page is a view of bytes the stream reuses (and a
      // Buffer's slice() is a view too): copied.
      const copy = new Uint8Array(payload);
      if (index) held[side].push({ record: copy, key: copy });
      else if (keyAt.some((i) => i >= record.count || record.types[i] === 0)) engine = true;
      else held[side].push({ record: copy, key: fieldsRecord(record, keyAt) });
    }
    if (engine) held.before.length = held.after.length = 0;
  });
  if (engine) return null;
  if (oa?.inOrder === false || ob?.inOrder === false) return null;
  if (!index) {
    for (const side of [held.before, held.after]) {
      side.sort((x, y) => compareRecords(x.key, 0, y.key, 0, fields));
      for (let i = 1; i < side.length; i++) {
        if (compareRecords(side[i - 1]!.key, 0, side[i]!.key, 0, fields) === 0) return null;
      }
    }
  }
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
  const { cols, keyNames, keyCols, fields } = layout;
  const ra = new Record(residue.encoding);
  const rb = new Record(residue.encoding);
  const parse = (r: Record, bytes: Uint8Array): Record => {
    r.parse(bytes, 0, bytes.length, bytes.length);
    return r;
  };
  // No column is the rowid here (`at` has no -1).
  const decoded = (r: Record): SqliteValue[] => recordValues(layout, r, 0);
  const keyOf = (values: readonly SqliteValue[]) => {
    const out = emptyRow();
    for (let r = 0; r < keyNames.length; r++) out[keyNames[r]!] = values[keyCols[r]!]!;
    return out;
  };
  const whole = (kind: "added" | "removed", r: Record) =>
    rows.add(kind, (kept) => {
      const values = decoded(r);
      return wholeRow(cols, keyOf(values), values, kept);
    });
  const added: number[] = [];
  let i = 0;
  let j = 0;
  while (i < A.length || j < B.length) {
    const c = i >= A.length
      ? 1
      : j >= B.length
      ? -1
      : compareRecords(A[i]!.key, 0, B[j]!.key, 0, fields);
    if (c < 0) whole("removed", parse(ra, A[i++]!.record));
    else if (c > 0) added.push(j++);
    else {
      const x = parse(ra, A[i++]!.record);
      const y = parse(rb, B[j++]!.record);
      const cells = differingCells(layout, x, y);
      if (cells === 0) continue;
      rows.add("changed", (kept) => {
        const va = decoded(x);
        return changedValues(cols, keyOf(va), va, decoded(y), kept);
      }, cells);
    }
  }
  for (const k of added) whole("added", parse(rb, B[k]!.record));
  return { key: table.key, keyKind: table.keyKind, comparedColumns: cols, rows };
}
