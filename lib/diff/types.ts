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

/**
 * How a table (or database object) changed.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "./diff_sqlite.ts";
 * import type { ChangeStatus } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const status: ChangeStatus | undefined = diff.databases[0]?.status; // "added"
 * ```
 */
export type ChangeStatus = "added" | "removed" | "changed" | "unchanged";

/**
 * A column as `PRAGMA table_xinfo` describes it.
 *
 * @example
 * ```ts
 * import type { ColumnInfo } from "./types.ts";
 * // `role TEXT NOT NULL DEFAULT 'viewer'`, the 4th column of a table
 * const role: ColumnInfo = {
 *   name: "role",
 *   type: "TEXT",
 *   not_null: true,
 *   default: "'viewer'",
 *   primary_key: 0,
 *   hidden: 0,
 * };
 * role.default; // "'viewer'"
 * ```
 */
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

/**
 * What differs in a column present on both sides.
 *
 * @example
 * ```ts
 * import type { ColumnAspect, ColumnChange } from "./types.ts";
 * const column = { name: "email", type: "TEXT", default: null, primary_key: 0, hidden: 0 };
 * const change: ColumnChange = {
 *   name: "email",
 *   before: { ...column, not_null: false },
 *   after: { ...column, not_null: true },
 *   changes: ["not_null"],
 * };
 * const aspect: ColumnAspect | undefined = change.changes[0]; // "not_null"
 * ```
 */
export type ColumnAspect = "type" | "not_null" | "default" | "primary_key" | "hidden";

/**
 * A column present on both sides whose definition differs.
 *
 * @example
 * ```ts
 * import type { ColumnChange } from "./types.ts";
 * // `price INTEGER` became `price REAL`
 * const column = { name: "price", not_null: false, default: null, primary_key: 0, hidden: 0 };
 * const change: ColumnChange = {
 *   name: "price",
 *   before: { ...column, type: "INTEGER" },
 *   after: { ...column, type: "REAL" },
 *   changes: ["type"],
 * };
 * change.changes; // ["type"]
 * ```
 */
export interface ColumnChange {
  readonly name: string;
  readonly before: ColumnInfo;
  readonly after: ColumnInfo;
  readonly changes: readonly ColumnAspect[];
}

/**
 * A row present only after. `key` is null for a table compared as a multiset.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "./diff_sqlite.ts";
 * import type { AddedRow } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const users = diff.databases[0]?.tables.find((t) => t.name === "users");
 * const first: AddedRow | undefined = users?.rows.added[0];
 * first?.key; // { id: 1 }
 * first?.row.name; // "alice"
 * ```
 */
export interface AddedRow {
  readonly key: SqliteRow | null;
  readonly row: SqliteRow;
}

/**
 * A row present only before. `key` is null for a table compared as a multiset.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "./diff_sqlite.ts";
 * import type { RemovedRow } from "./types.ts";
 * const diff = await diffSqliteDatabases("examples/db_agent/users.db", null);
 * const users = diff.databases[0]?.tables.find((t) => t.name === "users");
 * const first: RemovedRow | undefined = users?.rows.removed[0];
 * first?.row.email; // "alice@example.com"
 * ```
 */
export interface RemovedRow {
  readonly key: SqliteRow | null;
  readonly row: SqliteRow;
}

/**
 * A row whose key is on both sides but whose other values differ.
 *
 * @example
 * ```ts
 * import type { ChangedRow } from "./types.ts";
 * // `UPDATE users SET role = 'admin' WHERE id = 2`
 * const row: ChangedRow = {
 *   key: { id: 2 },
 *   before: { id: 2, name: "bob", role: "editor" },
 *   after: { id: 2, name: "bob", role: "admin" },
 *   changed_columns: ["role"],
 * };
 * row.changed_columns; // ["role"]
 * ```
 */
export interface ChangedRow {
  readonly key: SqliteRow;
  /** The compared columns' values before. */
  readonly before: SqliteRow;
  /** The compared columns' values after. */
  readonly after: SqliteRow;
  /** The columns whose values differ, in table order. */
  readonly changed_columns: readonly string[];
}

/**
 * Exact numbers of row changes, whatever was kept.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "./diff_sqlite.ts";
 * import type { RowCounts } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const counts: RowCounts | undefined = diff.databases[0]?.tables.find((t) => t.name === "users")
 *   ?.counts; // { added: 4, removed: 0, changed: 0, changed_cells: 0 }
 * ```
 */
export interface RowCounts {
  readonly added: number;
  readonly removed: number;
  readonly changed: number;
  /**
   * The cells the changed rows changed: the sum of their `changed_columns`
   * (absent in documents written before it was counted).
   */
  readonly changed_cells?: number;
}

/**
 * How rows were paired:
 * - `primary_key`: by the declared primary key (`key` lists its columns);
 * - `rowid`: by the rowid, for an INTEGER PRIMARY KEY (an alias of it);
 * - `none`: no usable key, so whole rows are compared as a multiset and
 *   come out only added or removed, never changed.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "./diff_sqlite.ts";
 * import type { KeyKind } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * // users.id is an INTEGER PRIMARY KEY, an alias of the rowid
 * const kind: KeyKind | undefined = diff.databases[0]?.tables[0]?.key_kind; // "rowid"
 * ```
 */
export type KeyKind = "primary_key" | "rowid" | "none";

/**
 * One table of one database.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "./diff_sqlite.ts";
 * import type { TableDiff } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const users: TableDiff | undefined = diff.databases[0]?.tables.find((t) => t.name === "users");
 * users?.status; // "added"
 * users?.key; // ["id"]
 * users?.counts.added; // 4
 * ```
 */
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
  /** Present when `ignore` left columns of this table out of the comparison and the rows: their names. */
  readonly ignored_columns?: readonly string[];
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
  /** Present (true) when rows were not kept because the byte budget (`max_bytes`) was spent. */
  readonly bytes_cut?: true;
  /** The CREATE statement before and after (null on the side it is absent). */
  readonly sql_before: string | null;
  readonly sql_after: string | null;
}

/**
 * An index, view or trigger that was added, removed or changed.
 *
 * @example
 * ```ts
 * import type { SchemaObjectChange } from "./types.ts";
 * // `CREATE INDEX todos_done ON todos (done)` run by the agent
 * const index: SchemaObjectChange = {
 *   type: "index",
 *   name: "todos_done",
 *   table: "todos",
 *   status: "added",
 *   sql_before: null,
 *   sql_after: "CREATE INDEX todos_done ON todos (done)",
 * };
 * index.status; // "added"
 * ```
 */
export interface SchemaObjectChange {
  readonly type: "index" | "view" | "trigger";
  readonly name: string;
  /** The table it belongs to. */
  readonly table: string;
  readonly status: Exclude<ChangeStatus, "unchanged">;
  readonly sql_before: string | null;
  readonly sql_after: string | null;
}

/**
 * A table that was not compared, and why (virtual tables, internal tables).
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "./diff_sqlite.ts";
 * import type { SkippedTable } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const skipped: readonly SkippedTable[] | undefined = diff.databases[0]?.skipped; // []
 * ```
 */
export interface SkippedTable {
  readonly name: string;
  readonly reason: string;
}

/**
 * One database file, compared across the two sides.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "./diff_sqlite.ts";
 * import type { DatabaseChange } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const db: DatabaseChange | undefined = diff.databases[0];
 * db?.name; // "users.db"
 * db?.exists_before; // false
 * db?.tables.map((t) => t.name); // ["todos", "users"]
 * ```
 */
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

/**
 * The options a diff was made with, recorded in the document.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "./diff_sqlite.ts";
 * import type { DiffSettings } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db", { maxRows: 10 });
 * const settings: DiffSettings = diff.settings;
 * // { include_schema: true, include_data: true, max_rows: 10, tables: null }
 * ```
 */
export interface DiffSettings {
  readonly include_schema: boolean;
  readonly include_data: boolean;
  readonly max_rows: number;
  /** Most bytes of values the kept rows of one database hold (absent in documents before it). */
  readonly max_bytes?: number;
  readonly tables: readonly string[] | null;
  /** Present (`"rowid"`) when rowid tables were paired by rowid (`pairBy`). */
  readonly pair_by?: "rowid";
  /** Present when tables' rows were paired by chosen columns (`keys`): table name to columns. */
  readonly keys?: { readonly [table: string]: readonly string[] };
  /** Present when columns were left out of the comparison (`ignore`): the patterns. */
  readonly ignore?: readonly string[];
  /** Present when tables were left out (`ignoreTables`): the patterns. */
  readonly ignore_tables?: readonly string[];
}

/**
 * A diff of one or more databases.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "./diff_sqlite.ts";
 * import type { DatabaseDiff } from "./types.ts";
 * const diff: DatabaseDiff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * diff.version; // 1
 * diff.databases[0]?.status; // "added"
 * ```
 */
export interface DatabaseDiff {
  readonly version: typeof DIFF_FORMAT_VERSION;
  readonly settings: DiffSettings;
  readonly databases: readonly DatabaseChange[];
}

/**
 * The result of {@link diffDatabaseDiffs}: three diffs of the same shape.
 *
 * @example
 * ```ts
 * import { diffDatabaseDiffs } from "./diff_of_diffs.ts";
 * import { diffSqliteDatabases } from "./diff_sqlite.ts";
 * import type { DiffOfDiffs } from "./types.ts";
 * const reference = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const agent = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const result: DiffOfDiffs = diffDatabaseDiffs(reference, agent);
 * result.beforeOnly.databases.length; // 0
 * result.afterOnly.databases.length; // 0
 * ```
 */
export interface DiffOfDiffs {
  /** Changes only the before diff has (or that differ between the two). */
  readonly beforeOnly: DatabaseDiff;
  /** Changes only the after diff has (or that differ between the two). */
  readonly afterOnly: DatabaseDiff;
  /** Changes both diffs have. */
  readonly shared: DatabaseDiff;
}
