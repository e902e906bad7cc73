/**
 * The streamed diff: what the engine tells a renderer while it compares, so
 * that an output which needs every row (`db diff --sql`) can write each one
 * as it comes instead of keeping them. The diff document is the same
 * stream, collected (at most `maxRows` rows of each kind kept per table).
 *
 * Order of calls for one database: `start` once, then per table in name
 * order `table`, its rows (`row`, in the document's order), `tableDone`;
 * then `done` with the finished database change.
 *
 * @module
 */
import type { SideSchema, TableSchema } from "./schema.ts";
import type { AddedRow, ChangedRow, DatabaseChange, RemovedRow, TableDiff } from "./types.ts";

/** One row change, tagged with its kind. */
export type RowEvent =
  | { readonly kind: "added"; readonly change: AddedRow }
  | { readonly kind: "removed"; readonly change: RemovedRow }
  | { readonly kind: "changed"; readonly change: ChangedRow };

/** A table about to be compared: both sides' schemas (null where absent). */
export interface TableStart {
  readonly name: string;
  readonly before: TableSchema | null;
  readonly after: TableSchema | null;
  /** True when its rows are not compared (a virtual table). */
  readonly virtual: boolean;
}

/**
 * Receives the streamed diff of one database pair.
 *
 * @example
 * ```ts
 * import { streamSqliteDiff } from "./diff_sqlite.ts";
 * import type { DiffListener } from "./listener.ts";
 * let rows = 0;
 * const listener: DiffListener = { row: () => void rows++ };
 * await streamSqliteDiff(null, "examples/db_agent/users.db", { maxRows: 0 }, listener);
 * rows > 0; // true
 * ```
 */
export interface DiffListener {
  /** Both sides' schemas, before any table is compared. */
  start?(sides: { readonly before: SideSchema | null; readonly after: SideSchema | null }): void;
  /** A table is about to be compared. */
  table?(table: TableStart): void;
  /** Every row change, kept or not. */
  row?(event: RowEvent): void;
  /** The table's diff (rows as kept). */
  tableDone?(table: TableDiff): void;
  /** The database's change, once every table is done. */
  done?(change: DatabaseChange): void;
}
