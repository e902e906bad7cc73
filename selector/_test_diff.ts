/**
 * Hand-built diff documents for the selector's unit tests, so each test
 * states exactly the changes it matches against.
 *
 * @module
 */
import type {
  ChangeStatus,
  ColumnInfo,
  DatabaseChange,
  DatabaseDiff,
  TableDiff,
} from "../lib/diff/types.ts";
import { sameValue, type SqliteRow } from "../lib/sqlite/value.ts";

/** What a test says about one table; everything else is derived or empty. */
export interface TableSpec {
  readonly status?: ChangeStatus;
  readonly schema_status?: ChangeStatus;
  /** Key columns (default ["id"]; [] for a table without a key). */
  readonly key?: readonly string[];
  readonly added?: readonly SqliteRow[];
  readonly removed?: readonly SqliteRow[];
  /** Changed rows as before/after pairs; key and changed columns are derived. */
  readonly changed?: readonly { before: SqliteRow; after: SqliteRow }[];
  readonly columns_added?: readonly string[];
  readonly columns_removed?: readonly string[];
  readonly columns_changed?: readonly string[];
  readonly truncated?: boolean;
  readonly counts?: { added: number; removed: number; changed: number };
}

function column(name: string): ColumnInfo {
  return { name, type: "TEXT", not_null: false, default: null, primary_key: 0, hidden: 0 };
}

function pick(row: SqliteRow, keys: readonly string[]): SqliteRow {
  return Object.fromEntries(keys.map((k) => [k, row[k] ?? null]));
}

/** A table diff from a compact spec. */
export function table(name: string, spec: TableSpec = {}): TableDiff {
  const key = spec.key ?? ["id"];
  const keyOf = (row: SqliteRow) => key.length === 0 ? null : pick(row, key);
  const added = (spec.added ?? []).map((row) => ({ key: keyOf(row), row }));
  const removed = (spec.removed ?? []).map((row) => ({ key: keyOf(row), row }));
  const changed = (spec.changed ?? []).map(({ before, after }) => ({
    key: pick(after, key),
    before,
    after,
    changed_columns: Object.keys(after).filter((c) => !sameValue(before[c] ?? null, after[c]!)),
  }));
  const columnsChanged = spec.columns_added?.length || spec.columns_removed?.length ||
    spec.columns_changed?.length;
  const schema_status = spec.schema_status ?? (columnsChanged ? "changed" : "unchanged");
  const data_status = added.length + removed.length + changed.length > 0 ? "changed" : "unchanged";
  return {
    name,
    status: spec.status ?? (schema_status !== "unchanged" ? schema_status : data_status),
    schema_status,
    data_status,
    key,
    key_kind: key.length === 0 ? "none" : "primary_key",
    compared_columns: [],
    columns: {
      added: (spec.columns_added ?? []).map(column),
      removed: (spec.columns_removed ?? []).map(column),
      changed: (spec.columns_changed ?? []).map((n) => ({
        name: n,
        before: column(n),
        after: { ...column(n), type: "INTEGER" },
        changes: ["type" as const],
      })),
    },
    rows: { added, removed, changed },
    counts: spec.counts ??
      { added: added.length, removed: removed.length, changed: changed.length },
    truncated: spec.truncated ?? false,
    sql_before: null,
    sql_after: null,
  };
}

/** A database change holding `tables`. */
export function database(
  name: string,
  tables: readonly TableDiff[],
  extra: Partial<DatabaseChange> = {},
): DatabaseChange {
  const changed = tables.some((t) => t.status !== "unchanged");
  return {
    name,
    path: `/work/${name}`,
    before_path: `/before/${name}`,
    after_path: `/work/${name}`,
    exists_before: true,
    exists_after: true,
    status: changed ? "changed" : "unchanged",
    tables,
    objects: [],
    skipped: [],
    error: null,
    ...extra,
  };
}

/** A diff document of `databases`. */
export function diffOf(...databases: DatabaseChange[]): DatabaseDiff {
  return {
    version: 1,
    settings: { include_schema: true, include_data: true, max_rows: 1000, tables: null },
    databases,
  };
}
