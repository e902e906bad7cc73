/**
 * The diff document: what changed between two sets of SQLite databases.
 * It is plain data (JSON-serialisable through `lib/diff/json.ts`) and carries
 * everything the selector language reads. Field names are snake_case because
 * the document is a file format whose names the selector spec uses
 * (`exists_before`, `changed_columns`). docs/diff-format.md describes it.
 *
 * Two planes are kept apart so a selector's `target` can pick one:
 * - schema: tables added or removed, columns added, removed or changed, and
 *   indexes, views and triggers (`schema_status`, `columns`, `objects`);
 * - data: rows added, removed or changed (`data_status`, `rows`, `counts`).
 *
 * @module
 */
import type { SqliteRow } from "../sqlite/value.ts";

/**
 * The version of this document's shape.
 *
 * @example
 * ```ts
 * import { DIFF_FORMAT_VERSION, diffFromJson } from "../../mod.ts";
 * const diff = diffFromJson(JSON.stringify({ version: DIFF_FORMAT_VERSION, settings: { include_schema: true, include_data: true, max_rows: 1000, tables: null }, databases: [] }));
 * diff.version; // 1
 * ```
 */
export const DIFF_FORMAT_VERSION = 1;

/** How a table (or database object) changed. */
export type ChangeStatus = "added" | "removed" | "changed" | "unchanged";

/** A column as `PRAGMA table_xinfo` describes it. */
export interface ColumnInfo {
  readonly name: string;
  /** The declared type, as written (may be ""). */
  readonly type: string;
  readonly not_null: boolean;
  /** The default value's SQL text, or null. */
  readonly default: string | null;
  /** 0 when not in the primary key, else its 1-based position in it. */
  readonly primary_key: number;
  /** 0 for a normal column, else SQLite's hidden kind (generated columns). */
  readonly hidden: number;
}

/** What differs in a column present on both sides. */
export type ColumnAspect = "type" | "not_null" | "default" | "primary_key" | "hidden";

/** A column present on both sides whose definition differs. */
export interface ColumnChange {
  readonly name: string;
  readonly before: ColumnInfo;
  readonly after: ColumnInfo;
  readonly changes: readonly ColumnAspect[];
}

/** A row present only after. `key` is null for a table compared as a multiset. */
export interface AddedRow {
  readonly key: SqliteRow | null;
  readonly row: SqliteRow;
}

/** A row present only before. `key` is null for a table compared as a multiset. */
export interface RemovedRow {
  readonly key: SqliteRow | null;
  readonly row: SqliteRow;
}

/** A row whose key is on both sides but whose other values differ. */
export interface ChangedRow {
  readonly key: SqliteRow;
  /** The compared columns' values before. */
  readonly before: SqliteRow;
  /** The compared columns' values after. */
  readonly after: SqliteRow;
  /** The columns whose values differ, in table order. */
  readonly changed_columns: readonly string[];
}

/** Exact numbers of row changes, whatever was kept. */
export interface RowCounts {
  readonly added: number;
  readonly removed: number;
  readonly changed: number;
}

/**
 * How rows were paired:
 * - `primary_key`: by the declared primary key (`key` lists its columns);
 * - `rowid`: by the rowid, for an INTEGER PRIMARY KEY (an alias of it);
 * - `none`: no usable key, so whole rows are compared as a multiset and
 *   come out only added or removed, never changed.
 */
export type KeyKind = "primary_key" | "rowid" | "none";

/** One table of one database. */
export interface TableDiff {
  readonly name: string;
  /** Schema changes take precedence over data changes. */
  readonly status: ChangeStatus;
  /** The schema plane alone: added, removed, changed (columns) or unchanged. */
  readonly schema_status: ChangeStatus;
  /** The data plane alone: changed when any row changed, else unchanged. */
  readonly data_status: "changed" | "unchanged";
  /** The columns rows were paired by; empty when `key_kind` is none. */
  readonly key: readonly string[];
  readonly key_kind: KeyKind;
  /** The columns compared for changed rows (those both sides have). */
  readonly compared_columns: readonly string[];
  readonly columns: {
    readonly added: readonly ColumnInfo[];
    readonly removed: readonly ColumnInfo[];
    readonly changed: readonly ColumnChange[];
  };
  /** Row changes, at most `max_rows` of each kind (see `truncated`). */
  readonly rows: {
    readonly added: readonly AddedRow[];
    readonly removed: readonly RemovedRow[];
    readonly changed: readonly ChangedRow[];
  };
  readonly counts: RowCounts;
  /** True when some row changes were counted but not kept. */
  readonly truncated: boolean;
  /** The CREATE statement before and after (null on the side it is absent). */
  readonly sql_before: string | null;
  readonly sql_after: string | null;
}

/** An index, view or trigger that was added, removed or changed. */
export interface SchemaObjectChange {
  readonly type: "index" | "view" | "trigger";
  readonly name: string;
  /** The table it belongs to. */
  readonly table: string;
  readonly status: Exclude<ChangeStatus, "unchanged">;
  readonly sql_before: string | null;
  readonly sql_after: string | null;
}

/** A table that was not compared, and why (virtual tables, internal tables). */
export interface SkippedTable {
  readonly name: string;
  readonly reason: string;
}

/** One database file, compared across the two sides. */
export interface DatabaseChange {
  /** The path relative to the compared folder, or the file name for a file diff. */
  readonly name: string;
  /** The after path when it exists, else the before path. */
  readonly path: string;
  readonly before_path: string | null;
  readonly after_path: string | null;
  readonly exists_before: boolean;
  readonly exists_after: boolean;
  readonly status: ChangeStatus;
  /** Every table on either side, unchanged ones included, in name order. */
  readonly tables: readonly TableDiff[];
  readonly objects: readonly SchemaObjectChange[];
  readonly skipped: readonly SkippedTable[];
  /** Set when a file matched the patterns but could not be read as SQLite. */
  readonly error: string | null;
}

/** The options a diff was made with, recorded in the document. */
export interface DiffSettings {
  readonly include_schema: boolean;
  readonly include_data: boolean;
  readonly max_rows: number;
  readonly tables: readonly string[] | null;
}

/** A diff of one or more databases. */
export interface DatabaseDiff {
  readonly version: typeof DIFF_FORMAT_VERSION;
  readonly settings: DiffSettings;
  readonly databases: readonly DatabaseChange[];
}

/** The result of {@link diffDatabaseDiffs}: three diffs of the same shape. */
export interface DiffOfDiffs {
  /** Changes only the before diff has (or that differ between the two). */
  readonly beforeOnly: DatabaseDiff;
  /** Changes only the after diff has (or that differ between the two). */
  readonly afterOnly: DatabaseDiff;
  /** Changes both diffs have. */
  readonly shared: DatabaseDiff;
}
