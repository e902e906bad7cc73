/**
 * Rows from cells: a table keyed by its rowid diffed from its pages alone,
 * the changed rows decoded from their records (lib/sqlite_format/record.ts)
 * as the two trees are compared (_tree_compare.ts), without SQLite: each
 * file is read once, and the engine need not start.
 *
 * Only where reading a record gives exactly what SQLite's keyed query gives
 * (_keyed.ts): both sides have the same schema row (so the same columns),
 * the key is the rowid (an INTEGER PRIMARY KEY, or the hidden rowid with
 * `--rowid`), no column is generated as VIRTUAL (its value is computed, not
 * stored) and every column's default, which a record written before an ADD
 * COLUMN reads, is a literal. Values come out as Statement.value() makes
 * them: integers as numbers (bigints beyond 2^53), reals as numbers (a
 * whole number in a REAL column is read as a REAL, as SQLite reads it),
 * text decoded exactly, BLOBs as bytes; the INTEGER PRIMARY KEY column,
 * stored as NULL, is the rowid. A row is a candidate change as `+A.c IS
 * NOT +B.c COLLATE BINARY` makes it (value.ts sameValue). Rows come in the
 * order of the engine's queries: removed and changed by rowid, then added
 * by rowid (the added rows are read in a second, narrow walk of the after
 * tree: only its leaves that hold them).
 *
 * A table on one side only is read whole the same way, in rowid order.
 *
 * @module
 */
import type { SqliteRow, SqliteValue } from "../sqlite/value.ts";
import { emptyRow, sameValue } from "../sqlite/value.ts";
import { CellStream } from "../sqlite_format/cell_stream.ts";
import { Record, sameStored, serialSize } from "../sqlite_format/record.ts";
import { counted, type KeptRows } from "./_kept_rows.ts";
import { addedOrRemoved, changedRow, keptRow } from "./_held_rows.ts";
import { rowOf } from "./_row_reading.ts";
import { RowidRanges } from "./_rowid_ranges.ts";
import { compareByRowid, type TreeSide } from "./_tree_compare.ts";
import { dataColumns, type TableSchema } from "./schema.ts";
import type { TableData } from "./table_data.ts";
import { foldName } from "./names.ts";
import type { AddedRow, ChangedRow, ColumnInfo } from "./types.ts";

/** Beyond this many ranges of added rows, they are found by a second full comparison instead. */
const MAX_ADDED_RANGES = 1_000_000;

/** How a table's records map to the columns a row is read with. */
export interface Layout {
  readonly cols: readonly string[];
  /** Per column: its place in the record, or -1 for the INTEGER PRIMARY KEY (the rowid). */
  readonly at: readonly number[];
  /** Per column: read an integer as a REAL (REAL affinity). */
  readonly real: readonly boolean[];
  /** Per column: the value a record too short to hold it reads. */
  readonly dflt: readonly SqliteValue[];
  /** The key's name, and whether it is the hidden rowid (no column holds it). */
  readonly key: string;
  readonly hidden: boolean;
}

/**
 * Whether a table's rows can be read from its records as the engine reads
 * them (its shape only: see the module documentation).
 *
 * @param t the table
 * @returns true for a rowid table keyed by its rowid, no VIRTUAL generated column, literal defaults
 */
export function cellRowsFit(t: TableSchema): boolean {
  return layoutOf(t) !== null;
}

function layoutOf(t: TableSchema): Layout | null {
  if (t.keyKind !== "rowid" || t.key.length !== 1 || t.module !== null || t.withoutRowid) {
    return null;
  }
  if (foldName(t.name) === "sqlite_sequence") return null;
  // Hidden 2: a VIRTUAL generated column, not in the record. (3, STORED, is.)
  if (t.columns.some((c) => c.hidden !== 0 && c.hidden !== 3)) return null;
  const key = t.key[0]!;
  const cols = dataColumns(t);
  const dflt = columnDefaults(t);
  if (dflt === null) return null;
  const folded = foldName(key);
  const alias = cols.findIndex((c) => foldName(c) === folded);
  return {
    cols,
    at: cols.map((_, i) => (i === alias ? -1 : i)),
    real: t.columns.map((c) => realAffinity(c.type)),
    dflt,
    key,
    hidden: alias < 0,
  };
}

/**
 * Each column's value where a record is too short to hold it (written
 * before an ADD COLUMN): null when a default is not a literal (then the
 * engine reads the table).
 */
export function columnDefaults(t: TableSchema): SqliteValue[] | null {
  const dflt: SqliteValue[] = [];
  for (const c of t.columns) {
    const v = literalDefault(c);
    if (v === undefined) return null;
    dflt.push(v);
  }
  return dflt;
}

/** SQLite's affinity rules: REAL for a type with REAL, FLOA or DOUB and no INT. */
export function realAffinity(type: string): boolean {
  const t = type.toUpperCase();
  if (t.includes("INT") || t.includes("CHAR") || t.includes("CLOB") || t.includes("TEXT")) {
    return false;
  }
  if (t.includes("BLOB") || t === "") return false;
  return t.includes("REAL") || t.includes("FLOA") || t.includes("DOUB");
}

/**
 * A column's default as a short record reads it: NULL without one, the
 * value of a literal one with the column's affinity applied, or undefined
 * for any other expression (then the engine reads the table).
 */
function literalDefault(c: ColumnInfo): SqliteValue | undefined {
  if (c.default === null) return null;
  let text = c.default.trim();
  while (text.startsWith("(") && text.endsWith(")")) text = text.slice(1, -1).trim();
  let v: SqliteValue;
  if (/^null$/i.test(text)) v = null;
  else if (/^true$/i.test(text)) v = 1;
  else if (/^false$/i.test(text)) v = 0;
  else if (/^[+-]?\d+$/.test(text)) {
    const big = BigInt(text);
    if (big > 9223372036854775807n || big < -9223372036854775808n) return undefined;
    v = Number.isSafeInteger(Number(big)) ? Number(big) : big;
  } else if (/^[+-]?(\d+\.\d*|\.\d+|\d+)(e[+-]?\d+)?$/i.test(text)) v = Number(text);
  else if (/^'([^']|'')*'$/.test(text)) v = text.slice(1, -1).replaceAll("''", "'");
  else if (/^x'([0-9a-f]{2})*'$/i.test(text)) {
    const hex = text.slice(2, -1);
    v = Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
  } else return undefined;
  return withAffinity(v, c.type);
}

/** `v` with the affinity of a column of `type` applied, as SQLite stores a default. */
function withAffinity(v: SqliteValue, type: string): SqliteValue | undefined {
  const t = type.toUpperCase();
  const text = t.includes("CHAR") || t.includes("CLOB") || t.includes("TEXT");
  const none = !t.includes("INT") && !text && (t.includes("BLOB") || t === "");
  if (v === null || v instanceof Uint8Array || none) return v;
  if (text) {
    // A number stored as text: its text is SQLite's rendering, not ours.
    return typeof v === "string"
      ? v
      : Number.isInteger(v) || typeof v === "bigint"
      ? String(v)
      : undefined;
  }
  // INTEGER, REAL or NUMERIC affinity: text that looks like a number would
  // become one; leave such defaults to the engine.
  if (typeof v === "string") return /^\s*[+-]?[\d.]/.test(v) ? undefined : v;
  return realAffinity(type) && typeof v === "bigint" ? Number(v) : v;
}

/**
 * A parsed record's values, one per column of `layout`: the rowid for the
 * INTEGER PRIMARY KEY, the default for a column the record is too short to
 * hold, REAL affinity applied.
 */
export function recordValues(layout: Layout, r: Record, rowid: number | bigint): SqliteValue[] {
  const { at, real, dflt, cols } = layout;
  const out = new Array<SqliteValue>(cols.length);
  for (let k = 0; k < cols.length; k++) {
    const i = at[k]!;
    out[k] = i < 0 ? rowid : i < r.count ? r.value(i, real[k]) : dflt[k]!;
  }
  return out;
}

/** Reads a row's values from the current cell of a stream. */
class RowReader {
  readonly #layout: Layout;
  /** The current cell's record, parsed by {@link parse}. */
  readonly record: Record;

  constructor(layout: Layout, cells: CellStream) {
    this.#layout = layout;
    this.record = new Record(cells.src.header.encoding);
  }

  /** The current cell's rowid, exactly. */
  rowid(cells: CellStream): number | bigint {
    cells.locate(0);
    return cells.page!.exactRowid(cells.index);
  }

  /**
   * Parses the current cell's record into {@link record}; with `like`, a
   * record whose header is the same bytes is taken without decoding it
   * again ({@link Record.parseLike}).
   */
  parse(cells: CellStream, like?: Record): Record {
    // Reused by the stream's next cell: the record is read (its values copied) before then.
    const bytes = cells.payloadOnce(0);
    const r = this.record;
    if (like !== undefined && r.parseLike(like, bytes, 0, bytes.length)) return r;
    const problem = r.parse(bytes, 0, bytes.length, bytes.length);
    if (problem !== null) {
      throw cells.src.damaged(cells.page!.number, `cell ${cells.index + 1}: ${problem}`);
    }
    return r;
  }

  /** The values of the record last parsed, one per column. */
  decoded(rowid: number | bigint): SqliteValue[] {
    return recordValues(this.#layout, this.record, rowid);
  }

  /** The current cell's values, one per column. */
  values(cells: CellStream): SqliteValue[] {
    const rowid = this.rowid(cells);
    this.parse(cells);
    return this.decoded(rowid);
  }
}

/**
 * How many columns of two parsed records of a table differ as the engine's
 * keyed query tells (`+A.c IS NOT +B.c COLLATE BINARY` on every column but
 * the key), comparing the stored bytes (no value is built for a row that is
 * not): 0 for rows that are the same.
 */
export function differingCells(layout: Layout, a: Record, b: Record): number {
  const { at, real, dflt } = layout;
  if (sameTypes(a, b)) return differingBodies(at, a, b);
  let n = 0;
  for (let k = 0; k < at.length; k++) {
    const i = at[k]!;
    if (i < 0) continue;
    if (i < a.count && i < b.count) {
      if (!sameStored(a, i, b, i, real[k])) n++;
    } else {
      const x = i < a.count ? a.value(i, real[k]) : dflt[k]!;
      const y = i < b.count ? b.value(i, real[k]) : dflt[k]!;
      if (!sameValue(x, y)) n++;
    }
  }
  return n;
}

/** Whether two parsed records list the same serial types. */
function sameTypes(a: Record, b: Record): boolean {
  const n = a.count;
  if (n !== b.count) return false;
  const x = a.types;
  const y = b.types;
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return false;
  return true;
}

/**
 * {@link differingCells} of two records of the same serial types: a column
 * differs where its bytes do (as {@link sameStored} finds, inline), but
 * for a REAL, whose 0.0 and -0.0 are the same value.
 */
function differingBodies(at: readonly number[], a: Record, b: Record): number {
  const { types, offsets: oa, buf: x } = a;
  const { offsets: ob, buf: y } = b;
  let n = 0;
  for (let k = 0; k < at.length; k++) {
    const i = at[k]!;
    if (i < 0 || i >= a.count) continue;
    const t = types[i]!;
    const w = serialSize(t);
    let p = oa[i]!;
    let q = ob[i]!;
    for (const end = p + w; p < end; p++, q++) {
      if (x[p] !== y[q]) {
        if (t !== 7 || !sameStored(a, i, b, i)) n++;
        break;
      }
    }
  }
  return n;
}

/**
 * A row on one side only, from its values, as {@link KeptRows.add} wants
 * it: plain when only streamed, held and counted when kept.
 */
export function wholeRow(
  cols: readonly string[],
  key: SqliteRow,
  values: SqliteValue[],
  kept: boolean,
): AddedRow {
  if (!kept) return { key, row: rowOf(cols, values) };
  return counted(addedOrRemoved(key, keptRow(cols, values)), [{ names: cols, values }]);
}

/** A changed row, from both sides' values, as {@link KeptRows.add} wants it (see {@link wholeRow}). */
export function changedValues(
  cols: readonly string[],
  key: SqliteRow,
  va: SqliteValue[],
  vb: SqliteValue[],
  kept: boolean,
): ChangedRow {
  const changed = cols.filter((_, k) => !sameValue(va[k]!, vb[k]!));
  if (!kept) {
    return { key, before: rowOf(cols, va), after: rowOf(cols, vb), changed_columns: changed };
  }
  return counted(
    changedRow(key, keptRow(cols, va), keptRow(cols, vb), changed),
    [{ names: cols, values: va }, { names: cols, values: vb }],
  );
}

/** One side of a table for the cells: its tree, and the table. */
export interface CellSide extends TreeSide {
  readonly table: TableSchema;
}

/**
 * Diffs a table's rows from its cells (see the module documentation).
 *
 * @param before the before side, or null
 * @param after the after side, or null
 * @param rows where the row changes go
 * @returns the table's data, or null when its shape does not fit (then the engine diffs it)
 */
export async function cellRows(
  before: CellSide | null,
  after: CellSide | null,
  rows: KeptRows,
): Promise<TableData | null> {
  const table = (before ?? after)!.table;
  const layout = layoutOf(table);
  if (layout === null) return null;
  if (before !== null && after !== null) {
    if (after.table.sql !== before.table.sql) return null;
    // Text compared byte for byte must be of one encoding on both sides.
    if ((before.src.header.encoding ?? "utf-8") !== (after.src.header.encoding ?? "utf-8")) {
      return null;
    }
  }
  const keyOf = (rowid: number | bigint) => {
    const out = emptyRow();
    out[layout.key] = rowid;
    return out;
  };
  const { cols } = layout;
  const data = { key: table.key, keyKind: table.keyKind, comparedColumns: cols, rows };
  if (before === null || after === null) {
    await wholeSide((before ?? after)!, before === null ? "added" : "removed", layout, rows, keyOf);
    return { ...data, comparedColumns: [] };
  }
  const added = new RowidRanges();
  let addedCount = 0;
  let scattered = false;
  let readA: RowReader | null = null;
  let readB: RowReader | null = null;
  await compareByRowid(before, after, {
    removed(a) {
      readA ??= new RowReader(layout, a);
      const reader = readA;
      rows.add("removed", (kept) => removedRow(reader.values(a), reader.rowid(a), kept));
    },
    changed(a, b) {
      const ra = (readA ??= new RowReader(layout, a));
      const rb = (readB ??= new RowReader(layout, b));
      const x = ra.parse(a);
      const cells = differingCells(layout, x, rb.parse(b, x));
      if (cells === 0) return;
      const rowid = ra.rowid(a);
      rows.add(
        "changed",
        (kept) => changedValues(cols, keyOf(rowid), ra.decoded(rowid), rb.decoded(rowid), kept),
        cells,
      );
    },
    added(b) {
      addedCount++;
      // Without a listener only the kept rows are read again.
      if (scattered || (!rows.streaming && addedCount > rows.max)) return;
      readB ??= new RowReader(layout, b);
      const id = readB.rowid(b);
      if (typeof id === "bigint" || added.length >= MAX_ADDED_RANGES) scattered = true;
      else added.push(id, id);
    },
  });
  // The added rows, after the removed and changed ones as the engine's
  // queries give them: read again from the after tree, only where they are.
  let told = 0;
  const tell = (cells: CellStream, reader: RowReader): void => {
    told++;
    rows.add("added", (kept) => removedRow(reader.values(cells), reader.rowid(cells), kept));
  };
  if (scattered) {
    // Too many ranges to hold: a second comparison finds them again.
    let reader: RowReader | null = null;
    await compareByRowid(
      { ...before, owners: null },
      { ...after, owners: null },
      {
        removed() {},
        changed() {},
        added(b) {
          reader ??= new RowReader(layout, b);
          tell(b, reader);
        },
      },
    );
  } else if (added.length > 0) {
    const cells = new CellStream(after.src, after.root, "table", null, "none", added);
    const reader = new RowReader(layout, cells);
    try {
      for (let i = 0; i < added.length; i++) {
        const lo = added.lo(i) as number;
        const hi = added.hi(i) as number;
        for (;;) {
          const p = cells.ensure(1);
          if (p !== null) await p;
          if (!cells.locate(0)) break;
          const id = cells.page!.rowid(cells.index);
          if (id > hi) break;
          if (id >= lo) tell(cells, reader);
          cells.skip(1);
        }
      }
    } finally {
      await cells.close();
    }
  }
  // The rest, counted only (no listener, and past what is kept).
  for (; told < addedCount; told++) rows.add("added", () => ({ key: null, row: emptyRow() }));
  return data;

  function removedRow(values: SqliteValue[], rowid: number | bigint, kept: boolean) {
    return wholeRow(cols, keyOf(rowid), values, kept);
  }
}

/** Every row of a table on one side only, in rowid order. */
async function wholeSide(
  side: CellSide,
  kind: "added" | "removed",
  layout: Layout,
  rows: KeptRows,
  keyOf: (rowid: number | bigint) => ReturnType<typeof emptyRow>,
): Promise<void> {
  const cells = new CellStream(side.src, side.root, "table", side.owners, "expect");
  const reader = new RowReader(layout, cells);
  const { cols } = layout;
  try {
    for (;;) {
      const p = cells.ensure(1);
      if (p !== null) await p;
      if (!cells.locate(0)) break;
      rows.add(
        kind,
        (kept) => wholeRow(cols, keyOf(reader.rowid(cells)), reader.values(cells), kept),
      );
      cells.skip(1);
    }
  } finally {
    await cells.close();
  }
}
