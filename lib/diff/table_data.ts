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
import { collectGarbage } from "../sqlite/_collect_garbage.ts";
import type { Database } from "../sqlite/database.ts";
import type { SqliteRow, SqliteValue } from "../sqlite/value.ts";
import { compareValues, emptyRow, sameValue } from "../sqlite/value.ts";
import { COLUMNS_PER_STATEMENT, prepareSelect, type RowSource } from "./_wide_select.ts";
import { type ByteBudget, KeptRows } from "./_kept_rows.ts";
import type { RowEvent } from "./listener.ts";
import { balanced, foldName, ident, sqlLiteral } from "./_sql.ts";
import type { TableSchema } from "./schema.ts";
import type { ColumnInfo, KeyKind } from "./types.ts";

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
  /** Called with every row change, kept or not (see listener.ts). */
  readonly onRow?: ((event: RowEvent) => void) | null;
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

/** The columns a row of `t` is read with (virtual-table hidden columns left out). */
export function dataColumns(t: TableSchema): string[] {
  return t.columns.filter((c) => c.hidden !== 1).map((c) => c.name);
}

/**
 * Compares the rows of one table.
 *
 * @param input the connection, the two sides, the row cap and rowid ranges
 * @returns the key used, the compared columns and the row changes
 */
export function diffTableData(input: TableDataInput): TableData {
  const { before, after } = input;
  const rows = new KeptRows(input.maxRows, input.onRow ?? null, input.budget);
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

function objectOf(stmt: RowSource, names: readonly string[], offset: number): SqliteRow {
  const out = emptyRow();
  for (let i = 0; i < names.length; i++) out[names[i]!] = stmt.value(offset + i);
  return out;
}

function pick(row: SqliteRow, names: readonly string[]): SqliteRow {
  const out = emptyRow();
  for (const n of names) out[n] = row[n] ?? null;
  return out;
}

/** How many range queries run between two collections under Bun (see _collect_garbage.ts). */
const GC_EVERY_RANGES = 20_000;

/** Runs `stmt` once per range (or once without ranges), calling `each` per row. */
function forRanges(
  stmt: RowSource,
  ranges: Iterable<RowidRange> | null,
  each: () => void,
): void {
  try {
    let done = 0;
    for (const r of ranges ?? [null]) {
      if (r !== null) stmt.bind([r[0], r[1]]);
      while (stmt.step()) each();
      if (++done % GC_EVERY_RANGES === 0) collectGarbage();
    }
  } finally {
    stmt.finalize();
  }
}

const DEFAULT_TABLE = "temp.dbagenteval_default";

/**
 * The value a row holds in `column` when it was never written: its DEFAULT
 * with the column's affinity applied, as SQLite stores it (evaluated by
 * inserting a row into a temporary one-column table), or NULL.
 */
function defaultValue(db: Database, column: ColumnInfo): SqliteValue {
  if (column.default === null) return null;
  try {
    db.exec(`DROP TABLE IF EXISTS ${DEFAULT_TABLE}`);
    db.exec(`CREATE TABLE ${DEFAULT_TABLE}(v ${column.type} DEFAULT ${column.default})`);
    db.exec(`INSERT INTO ${DEFAULT_TABLE} DEFAULT VALUES`);
    return db.query(`SELECT v FROM ${DEFAULT_TABLE}`)[0]?.["v"] ?? null;
  } catch {
    // A default SQLite accepted in the table but not here (a type name it
    // cannot parse alone): compare with NULL.
    return null;
  } finally {
    db.exec(`DROP TABLE IF EXISTS ${DEFAULT_TABLE}`);
  }
}

/** A column only one side has, whose values count for paired rows. */
interface OneSideColumn {
  readonly name: string;
  /** The column's default, as stored. */
  readonly dflt: SqliteValue;
}

function oneSideColumns(db: Database, t: TableSchema, other: TableSchema): OneSideColumn[] {
  const there = new Set(dataColumns(other).map(foldName));
  // Generated columns (hidden 2 and 3) hold no written values.
  return t.columns.filter((c) => c.hidden === 0 && !there.has(foldName(c.name)))
    .map((c) => ({ name: c.name, dflt: defaultValue(db, c) }));
}

/** Whether a key column can hold NULL: a rowid table's non-INTEGER primary key without NOT NULL. */
function keyMayBeNull(t: TableSchema): boolean {
  return t.keyKind === "primary_key" && !t.withoutRowid && t.name !== "sqlite_sequence" &&
    t.columns.some((c) => c.primary_key > 0 && !c.not_null);
}

function keyed(
  input: TableDataInput,
  before: TableSide,
  after: TableSide,
  rows: KeptRows,
): TableData {
  const { db, ranges } = input;
  const key = before.table.key;
  const afterKey = after.table.key;
  const aCols = dataColumns(before.table);
  const bCols = dataColumns(after.table);
  const bByFold = new Map(bCols.map((c) => [foldName(c), c]));
  const common = aCols.filter((c) => bByFold.has(foldName(c)));
  const afterOf = (c: string): string => bByFold.get(foldName(c))!;
  // Rowids pair only with the same integer. Any other key can pair values
  // that are not the same to IS: 'a' with 'A' under a NOCASE key, '1' with 1
  // once the key's type changed. Such a key change is a changed row.
  const rowids = before.table.keyKind === "rowid" && after.table.keyKind === "rowid";
  const keyFolded = new Set(key.map(foldName));
  const values = rowids ? common.filter((c) => !keyFolded.has(foldName(c))) : common;
  const onlyA = oneSideColumns(db, before.table, after.table);
  const onlyB = oneSideColumns(db, after.table, before.table);
  // Paired by rowid (pairBy): the key is the hidden rowid, read after the columns.
  const hiddenKey = !aCols.some((c) => foldName(c) === foldName(key[0]!));
  const keyOf = (
    row: SqliteRow,
    stmt: RowSource,
    at: number,
    names: readonly string[],
  ): SqliteRow => {
    if (!hiddenKey) return pick(row, names);
    const out = emptyRow();
    out[names[0]!] = stmt.value(at);
    return out;
  };
  const A = `${ident(before.schema)}.${ident(before.table.name)}`;
  const B = `${ident(after.schema)}.${ident(after.table.name)}`;
  const nullable = keyMayBeNull(before.table) || keyMayBeNull(after.table);
  if (nullable) {
    const isNull = (alias: string, names: readonly string[]): string =>
      names.map((k) => `${alias}.${ident(k)} IS NULL`).join(" OR ");
    multiset(input, {
      before,
      after,
      cols: common,
      keyOf: (row) => pick(row, key),
      nullKeys: { a: isNull("A", key), b: isNull("B", afterKey) },
    }, rows);
  }
  const notNull = (alias: string, names: readonly string[]): string =>
    nullable ? names.map((k) => `${alias}.${ident(k)} IS NOT NULL AND `).join("") : "";
  const on = key.map((k, i) => `B.${ident(afterKey[i]!)} = A.${ident(k)}`).join(" AND ");
  const differences = [
    ...values.map((c) => `+A.${ident(c)} IS NOT +B.${ident(afterOf(c))} COLLATE BINARY`),
    ...onlyA.map((c) =>
      `(A.${ident(c.name)} IS NOT NULL AND +A.${ident(c.name)} IS NOT ${
        sqlLiteral(c.dflt)
      } COLLATE BINARY)`
    ),
    ...onlyB.map((c) => `+B.${ident(c.name)} IS NOT ${sqlLiteral(c.dflt)} COLLATE BINARY`),
  ];
  const differs = differences.length === 0 ? "" : ` OR ${balanced("OR", differences)}`;
  // Ranges apply only to a rowid-keyed table (the key is the rowid).
  const useRanges = ranges !== null && rowids ? ranges : null;
  const rangeA = useRanges === null ? "" : `A.${ident(key[0]!)} BETWEEN ? AND ? AND `;
  const rangeB = useRanges === null ? "" : `B.${ident(afterKey[0]!)} BETWEEN ? AND ? AND `;
  const orderA = key.map((k) => `A.${ident(k)}`).join(", ");
  const orderB = afterKey.map((k) => `B.${ident(k)}`).join(", ");

  const removedOrChanged = prepareSelect(
    db,
    [
      `B.${ident(afterKey[0]!)} IS NULL`,
      ...aCols.map((c) => `A.${ident(c)}`),
      ...bCols.map((c) => `B.${ident(c)}`),
      ...(hiddenKey ? [`A.${ident(key[0]!)}`] : []),
    ],
    `FROM ${A} AS A LEFT JOIN ${B} AS B ON ${on}
     WHERE ${rangeA}${notNull("A", key)}(B.${ident(afterKey[0]!)} IS NULL${differs})
     ORDER BY ${orderA}`,
  );
  forRanges(removedOrChanged, useRanges, () => {
    if (removedOrChanged.value(0) === 1) {
      rows.add("removed", () => {
        const row = objectOf(removedOrChanged, aCols, 1);
        return { key: keyOf(row, removedOrChanged, 1 + aCols.length + bCols.length, key), row };
      });
      return;
    }
    rows.add("changed", () => {
      const beforeRow = objectOf(removedOrChanged, aCols, 1);
      const afterRow = objectOf(removedOrChanged, bCols, 1 + aCols.length);
      const changed = [
        ...common.filter((c) => !sameValue(beforeRow[c]!, afterRow[afterOf(c)]!)),
        ...onlyA.filter((c) => beforeRow[c.name] !== null && !sameValue(beforeRow[c.name]!, c.dflt))
          .map((c) => c.name),
        ...onlyB.filter((c) => !sameValue(afterRow[c.name]!, c.dflt)).map((c) => c.name),
      ];
      return {
        key: keyOf(beforeRow, removedOrChanged, 1 + aCols.length + bCols.length, key),
        before: beforeRow,
        after: afterRow,
        changed_columns: changed,
      };
    });
  });

  const onRev = key.map((k, i) => `A.${ident(k)} = B.${ident(afterKey[i]!)}`).join(" AND ");
  const added = prepareSelect(
    db,
    [...bCols.map((c) => `B.${ident(c)}`), ...(hiddenKey ? [`B.${ident(afterKey[0]!)}`] : [])],
    `FROM ${B} AS B
     WHERE ${rangeB}${notNull("B", afterKey)}NOT EXISTS (SELECT 1 FROM ${A} AS A WHERE ${onRev})
     ORDER BY ${orderB}`,
  );
  forRanges(added, useRanges, () => {
    rows.add("added", () => {
      const row = objectOf(added, bCols, 0);
      return { key: keyOf(row, added, bCols.length, afterKey), row };
    });
  });
  return { key, keyKind: before.table.keyKind, comparedColumns: common, rows };
}

const RANGES_TABLE = "temp.dbagenteval_ranges";

/** What {@link multiset} compares. */
interface MultisetInput {
  readonly before: TableSide;
  readonly after: TableSide;
  /** The before names of the columns compared (the after names match them, folded). */
  readonly cols: readonly string[];
  /** The `key` of each reported row, or null for none. */
  readonly keyOf: ((row: SqliteRow) => SqliteRow) | null;
  /** Only rows with a NULL in the key: the condition on each side. */
  readonly nullKeys: { readonly a: string; readonly b: string } | null;
}

function multiset(input: TableDataInput, m: MultisetInput, rows: KeptRows): void {
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
  const hint = aRowid !== null && bRowid !== null;
  const ranges = hint && nullKeys === null ? input.ranges : null;
  if (ranges !== null) {
    db.exec(`CREATE TABLE IF NOT EXISTS ${RANGES_TABLE}(lo INTEGER PRIMARY KEY, hi INTEGER)`);
    db.exec(`DELETE FROM ${RANGES_TABLE}`);
    const ins = db.prepare(`INSERT INTO ${RANGES_TABLE} VALUES (?, ?)`);
    try {
      for (const [lo, hi] of ranges) {
        ins.bind([lo, hi]);
        ins.step();
      }
    } finally {
      ins.finalize();
    }
  }
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
    const from = ranges === null
      ? `${table} AS ${alias}`
      : `${RANGES_TABLE} AS R CROSS JOIN ${table} AS ${alias} ON ${alias}.${
        ident(rowid!)
      } BETWEEN R.lo AND R.hi`;
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
      rows.add(kind, () => {
        const row = objectOf(stmt, names, 1);
        return { key: m.keyOf === null ? null : m.keyOf(row), row };
      });
    }
  });
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
      rows.add(kind, () => {
        const row = objectOf(stmt, names, 0);
        return { key: m.keyOf === null ? null : m.keyOf(row), row };
      });
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

/** One side of a table reported whole. */
interface WholeSide {
  readonly side: TableSide;
  readonly kind: "added" | "removed";
  /** Rows carry their key and come in key order (the table is on one side only). */
  readonly keyed: boolean;
}

function whole(db: Database, w: WholeSide, rows: KeptRows): void {
  const { side, kind } = w;
  const cols = dataColumns(side.table);
  const key = w.keyed ? side.table.key : [];
  const T = `${ident(side.schema)}.${ident(side.table.name)}`;
  if (key.length > 0 || rows.streaming) {
    // Streamed rows of a keyless table come in storage order: sorting them
    // all would hold the table in memory.
    const order = key.length > 0 ? ` ORDER BY ${key.map(ident).join(", ")}` : "";
    // A hidden rowid key (pairBy rowid) is read after the columns.
    const hidden = key.length === 1 && !cols.some((c) => foldName(c) === foldName(key[0]!));
    const stmt = prepareSelect(
      db,
      [...cols.map(ident), ...(hidden ? [ident(key[0]!)] : [])],
      `FROM ${T}${order}`,
    );
    forRanges(stmt, null, () => {
      rows.add(kind, () => {
        const row = objectOf(stmt, cols, 0);
        if (!hidden) return { key: key.length > 0 ? pick(row, key) : null, row };
        const k = emptyRow();
        k[key[0]!] = stmt.value(cols.length);
        return { key: k, row };
      });
    });
    return;
  }
  // Rows without a key come in value order. Only the kept ones are sorted
  // (ORDER BY with a LIMIT keeps a bounded heap), and a count gives the rest.
  const count = db.prepare(`SELECT count(*) FROM ${T}`);
  let total = 0;
  forRanges(count, null, () => void (total = Number(count.value(0))));
  const limit = Math.min(total, rows.max);
  if (limit > 0) {
    const order = cols.map((c) => `+${ident(c)} COLLATE BINARY`).join(", ");
    const stmt = prepareSelect(db, cols.map(ident), `FROM ${T} ORDER BY ${order} LIMIT ${limit}`);
    let kept = 0;
    forRanges(stmt, null, () => {
      kept++;
      rows.add(kind, () => ({ key: null, row: objectOf(stmt, cols, 0) }));
    });
    total -= kept;
  }
  rows.counts[kind] += total;
}
