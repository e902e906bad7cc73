/**
 * A table reported whole: every row of a side removed or added (a table on
 * one side only, or two sides whose keys cannot pair).
 *
 * @module
 */
import type { Database } from "../sqlite/database.ts";
import { emptyRow, type SqliteRow } from "../sqlite/value.ts";
import { prepareSelect } from "./_wide_select.ts";
import type { KeptRows } from "./_kept_rows.ts";
import { forRanges, valuesOf } from "./_row_reading.ts";
import { addedRowOf } from "./_held_rows.ts";
import { foldName } from "./names.ts";
import { ident } from "../sqlite/sql_text.ts";
import { dataColumns } from "./schema.ts";
import type { TableSide } from "./table_data.ts";

/** One side of a table reported whole. */
export interface WholeSide {
  readonly side: TableSide;
  readonly kind: "added" | "removed";
  /** Rows carry their key and come in key order (the table is on one side only). */
  readonly keyed: boolean;
}

/**
 * Reports every row of one side as removed or added.
 *
 * @param db the connection
 * @param w the side, the kind of change and whether rows carry their key
 * @param rows where row changes go
 */
export function whole(db: Database, w: WholeSide, rows: KeptRows): void {
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
    // Where each key column is among the columns read (-1: not there, NULL).
    const keyAt = key.map((k) => cols.indexOf(k));
    forRanges(stmt, null, () => {
      rows.add(kind, (kept) => {
        const values = valuesOf(stmt, cols.length, 0);
        let k: SqliteRow | null = null;
        if (hidden) {
          k = emptyRow();
          k[key[0]!] = stmt.value(cols.length);
        } else if (key.length > 0) {
          k = emptyRow();
          for (let i = 0; i < key.length; i++) {
            k[key[i]!] = keyAt[i]! < 0 ? null : values[keyAt[i]!]!;
          }
        }
        return addedRowOf(kept, k, cols, values);
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
      rows.add(kind, (keep) => addedRowOf(keep, null, cols, valuesOf(stmt, cols.length, 0)));
    });
    total -= kept;
  }
  rows.counts[kind] += total;
}
