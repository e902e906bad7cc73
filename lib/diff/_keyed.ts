/**
 * The keyed comparison: rows pair by their key (see table_data.ts for how
 * values are compared, columns only one side has, and NULL keys).
 *
 * @module
 */
import type { Database } from "../sqlite/database.ts";
import type { SqliteRow, SqliteValue } from "../sqlite/value.ts";
import { emptyRow, sameValue } from "../sqlite/value.ts";
import { prepareSelect, type RowSource } from "./_wide_select.ts";
import { counted, type KeptRows } from "./_kept_rows.ts";
import { fillRanges, forRanges, inRanges, pick, rowOf, valuesOf } from "./_row_reading.ts";
import { addedOrRemoved, changedRow, keptRow } from "./_held_rows.ts";
import { multiset, RESIDUE_A, RESIDUE_B } from "./_multiset.ts";
import { foldName } from "./names.ts";
import { balanced, ident, sqlLiteral } from "../sqlite/sql_text.ts";
import { dataColumns, type TableSchema } from "./schema.ts";
import type { TableData, TableDataInput, TableSide } from "./table_data.ts";
import type { KeySink } from "./_residue.ts";
import type { ColumnInfo } from "./types.ts";

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

/**
 * Compares a table whose two sides share their key columns: see table_data.ts.
 *
 * @param input the connection, the row cap and rowid ranges
 * @param before the before side
 * @param after the after side
 * @param rows where row changes go
 * @returns the key used, the compared columns and the row changes
 */
export function keyed(
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
  // Where a changed row's compared values are in what its query reads.
  const commonAt = {
    a: common.map((c) => aCols.indexOf(c)),
    b: common.map((c) => bCols.indexOf(afterOf(c))),
  };
  const onlyAAt = onlyA.map((c) => ({ ...c, at: aCols.indexOf(c.name) }));
  const onlyBAt = onlyB.map((c) => ({ ...c, at: bCols.indexOf(c.name) }));
  // Paired by rowid (pairBy): the key is the hidden rowid, read after the columns.
  const hiddenKey = !aCols.some((c) => foldName(c) === foldName(key[0]!));
  // A row's key, from the values read (as pick would take it from the row),
  // or the hidden rowid read at `hidden`.
  const keyAt = (cols: readonly string[], names: readonly string[]): number[] =>
    names.map((n) => cols.indexOf(n));
  const keyAtA = keyAt(aCols, key);
  const keyAtB = keyAt(bCols, afterKey);
  const keyOf = (
    values: readonly SqliteValue[],
    at: readonly number[],
    stmt: RowSource,
    hidden: number,
    names: readonly string[],
  ): SqliteRow => {
    const out = emptyRow();
    if (hiddenKey) out[names[0]!] = stmt.value(hidden);
    else for (let i = 0; i < names.length; i++) out[names[i]!] = values[at[i]!] ?? null;
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
      oneSide: { a: onlyA, b: onlyB },
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
  // The first column says what a row is: -1 removed, else the number of its
  // cells that changed (counted for every changed row, kept or not).
  const cellCount = differences.length === 0
    ? "0"
    : balanced("+", differences.map((d) => `(${d})`));
  const kind = `CASE WHEN B.${ident(afterKey[0]!)} IS NULL THEN -1 ELSE ${cellCount} END`;
  // Ranges apply only to a rowid-keyed table (the key is the rowid).
  const useRanges = ranges !== null && rowids ? ranges : null;
  // Other keys on rowid tables: the cell residue of each side, in temporary
  // tables, and the output sorted into key order (it holds changes only).
  const aRowid = before.table.rowidName;
  const bRowid = after.table.rowidName;
  const cells = !rowids && aRowid !== null && bRowid !== null ? input.residue ?? null : null;
  if (cells !== null) {
    fillRanges(db, RESIDUE_A, cells.before);
    fillRanges(db, RESIDUE_B, cells.after);
  }
  let fromA = cells === null ? `${A} AS A` : inRanges(RESIDUE_A, A, "A", aRowid!);
  let fromB = cells === null ? `${B} AS B` : inRanges(RESIDUE_B, B, "B", bRowid!);
  // WITHOUT ROWID: the residue's keys, in temporary tables joined by key.
  if (input.residueKeys && before.table.withoutRowid && after.table.withoutRowid) {
    const k = residueKeyTables(db, key.length, input.residueKeys);
    if (k !== null) {
      const by = (alias: string, names: readonly string[]): string =>
        names.map((n, i) => `${alias}.${ident(n)} = K${alias}.c${i}`).join(" AND ");
      fromA = `${k.before} AS KA CROSS JOIN ${A} AS A ON ${by("A", key)}`;
      fromB = `${k.after} AS KB CROSS JOIN ${B} AS B ON ${by("B", afterKey)}`;
    }
  }
  const rangeA = useRanges === null ? "" : `A.${ident(key[0]!)} BETWEEN ? AND ? AND `;
  const rangeB = useRanges === null ? "" : `B.${ident(afterKey[0]!)} BETWEEN ? AND ? AND `;
  const orderA = key.map((k) => `A.${ident(k)}`).join(", ");
  const orderB = afterKey.map((k) => `B.${ident(k)}`).join(", ");

  // Past the kept limits rows are only counted: without a listener that
  // wants every row, their values are read only for the rows kept.
  const lazy = !rows.streaming;
  const removedOrChanged = prepareSelect(
    db,
    [
      kind,
      ...aCols.map((c) => `A.${ident(c)}`),
      ...bCols.map((c) => `B.${ident(c)}`),
      ...(hiddenKey ? [`A.${ident(key[0]!)}`] : []),
    ],
    `FROM ${fromA} LEFT JOIN ${B} AS B ON ${on}
     WHERE ${rangeA}${notNull("A", key)}(B.${ident(afterKey[0]!)} IS NULL${differs})
     ORDER BY ${orderA}`,
    lazy,
  );
  forRanges(removedOrChanged, useRanges, () => {
    const cells = Number(removedOrChanged.value(0));
    if (cells < 0) {
      rows.add("removed", (kept) => {
        const values = valuesOf(removedOrChanged, aCols.length, 1);
        const k = keyOf(values, keyAtA, removedOrChanged, 1 + aCols.length + bCols.length, key);
        if (!kept) return { key: k, row: rowOf(aCols, values) };
        return counted(addedOrRemoved(k, keptRow(aCols, values)), [{ names: aCols, values }]);
      });
      return;
    }
    rows.add("changed", (kept) => {
      const va = valuesOf(removedOrChanged, aCols.length, 1);
      const vb = valuesOf(removedOrChanged, bCols.length, 1 + aCols.length);
      const changed: string[] = [];
      for (let i = 0; i < common.length; i++) {
        if (!sameValue(va[commonAt.a[i]!]!, vb[commonAt.b[i]!]!)) changed.push(common[i]!);
      }
      for (const c of onlyAAt) {
        const v = va[c.at]!;
        if (v !== null && !sameValue(v, c.dflt)) changed.push(c.name);
      }
      for (const c of onlyBAt) if (!sameValue(vb[c.at]!, c.dflt)) changed.push(c.name);
      const k = keyOf(va, keyAtA, removedOrChanged, 1 + aCols.length + bCols.length, key);
      // A row only streamed is read once and dropped: plain rows, nothing counted.
      if (!kept) {
        return {
          key: k,
          before: rowOf(aCols, va),
          after: rowOf(bCols, vb),
          changed_columns: changed,
        };
      }
      return counted(
        changedRow(k, keptRow(aCols, va), keptRow(bCols, vb), changed),
        [{ names: aCols, values: va }, { names: bCols, values: vb }],
      );
    }, cells);
  });

  const onRev = key.map((k, i) => `A.${ident(k)} = B.${ident(afterKey[i]!)}`).join(" AND ");
  const added = prepareSelect(
    db,
    [...bCols.map((c) => `B.${ident(c)}`), ...(hiddenKey ? [`B.${ident(afterKey[0]!)}`] : [])],
    // A chosen key may have no index: SQLite then builds an automatic one
    // for a join, but scans the table for each row of a NOT EXISTS.
    input.chosenKey === true
      ? `FROM ${fromB} LEFT JOIN ${A} AS A ON ${onRev}
     WHERE ${rangeB}${notNull("B", afterKey)}A.${ident(key[0]!)} IS NULL
     ORDER BY ${orderB}`
      : `FROM ${fromB}
     WHERE ${rangeB}${notNull("B", afterKey)}NOT EXISTS (SELECT 1 FROM ${A} AS A WHERE ${onRev})
     ORDER BY ${orderB}`,
    lazy,
  );
  forRanges(added, useRanges, () => {
    rows.add("added", (kept) => {
      const values = valuesOf(added, bCols.length, 0);
      const k = keyOf(values, keyAtB, added, bCols.length, afterKey);
      if (!kept) return { key: k, row: rowOf(bCols, values) };
      return counted(addedOrRemoved(k, keptRow(bCols, values)), [{ names: bCols, values }]);
    });
  });
  return { key, keyKind: before.table.keyKind, comparedColumns: common, rows };
}

const KEYS_A = "temp.dbagenteval_keys_a";
const KEYS_B = "temp.dbagenteval_keys_b";

/**
 * Fills two temporary tables (`c0`, `c1`, ... without affinity) with the
 * keys of the rows of each side that may differ; null when the cells could
 * not be compared (then every row is).
 */
function residueKeyTables(
  db: Database,
  columns: number,
  residueKeys: (sink: KeySink) => boolean,
): { before: string; after: string } | null {
  const names = Array.from({ length: columns }, (_, i) => `c${i}`).join(", ");
  const marks = Array.from({ length: columns }, () => "?").join(", ");
  const inserts = [KEYS_A, KEYS_B].map((t) => {
    db.exec(`DROP TABLE IF EXISTS ${t}`);
    db.exec(`CREATE TABLE ${t}(${names})`);
    return db.prepare(`INSERT INTO ${t} VALUES (${marks})`);
  });
  try {
    const ok = residueKeys((side, key) => {
      const ins = inserts[side === "before" ? 0 : 1]!;
      ins.bind(key as SqliteValue[]);
      ins.step();
      ins.reset();
    });
    if (!ok) return null;
  } finally {
    for (const ins of inserts) ins.finalize();
  }
  return { before: KEYS_A, after: KEYS_B };
}
