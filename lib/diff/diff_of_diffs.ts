/**
 * The diff of two diffs: which changes both made, and which only one did.
 *
 * @module
 */
import { rowText } from "./_canonical.ts";
import type {
  ChangeStatus,
  ColumnChange,
  ColumnInfo,
  DatabaseChange,
  DatabaseDiff,
  DiffOfDiffs,
  SchemaObjectChange,
  TableDiff,
} from "./types.ts";

type Bucket = "beforeOnly" | "afterOnly" | "shared";
type Split<T> = Record<Bucket, T[]>;

/**
 * Splits items of two lists into those both have (matched by `id`, as a
 * multiset: two equal items on one side need two on the other) and those
 * only one has.
 */
function split<T>(a: readonly T[], b: readonly T[], id: (x: T) => string): Split<T> {
  const pool = new Map<string, T[]>();
  for (const x of b) {
    const k = id(x);
    const list = pool.get(k);
    if (list === undefined) pool.set(k, [x]);
    else list.push(x);
  }
  const out: Split<T> = { beforeOnly: [], afterOnly: [], shared: [] };
  for (const x of a) {
    const list = pool.get(id(x));
    if (list !== undefined && list.length > 0) {
      list.shift();
      out.shared.push(x);
    } else out.beforeOnly.push(x);
  }
  for (const list of pool.values()) out.afterOnly.push(...list);
  return out;
}

const columnId = (c: ColumnInfo): string => JSON.stringify(c);
const columnChangeId = (c: ColumnChange): string => JSON.stringify(c);
const objectId = (o: SchemaObjectChange): string => JSON.stringify(o);

function tableSchemaId(t: TableDiff | undefined): string[] {
  if (t === undefined || t.schema_status === "unchanged") return [];
  return [JSON.stringify([t.schema_status, t.sql_before, t.sql_after])];
}

function splitTable(
  ta: TableDiff | undefined,
  tb: TableDiff | undefined,
): Record<Bucket, TableDiff | null> {
  const empty = { added: [], removed: [], changed: [] };
  const ra = ta?.rows ?? empty;
  const rb = tb?.rows ?? empty;
  const ca = ta?.columns ?? empty;
  const cb = tb?.columns ?? empty;
  const level = split(tableSchemaId(ta), tableSchemaId(tb), (x) => x);
  const parts = {
    added: split(ra.added, rb.added, (r) => rowText(r.row)),
    removed: split(ra.removed, rb.removed, (r) => rowText(r.row)),
    changed: split(
      ra.changed,
      rb.changed,
      (r) => `${rowText(r.key)}|${rowText(r.before)}|${rowText(r.after)}`,
    ),
    colAdded: split(ca.added, cb.added, columnId),
    colRemoved: split(ca.removed, cb.removed, columnId),
    colChanged: split(ca.changed, cb.changed, columnChangeId),
  };
  const build = (bucket: Bucket): TableDiff | null => {
    const source = bucket === "afterOnly" ? tb : ta ?? tb;
    if (source === undefined) return null;
    const columns = {
      added: parts.colAdded[bucket],
      removed: parts.colRemoved[bucket],
      changed: parts.colChanged[bucket],
    };
    const hasColumns = columns.added.length + columns.removed.length + columns.changed.length > 0;
    const schemaStatus: ChangeStatus = level[bucket].length > 0
      ? source.schema_status
      : hasColumns
      ? "changed"
      : "unchanged";
    const rows = {
      added: parts.added[bucket],
      removed: parts.removed[bucket],
      changed: parts.changed[bucket],
    };
    const counts = {
      added: rows.added.length,
      removed: rows.removed.length,
      changed: rows.changed.length,
      changed_cells: rows.changed.reduce((n, r) => n + r.changed_columns.length, 0),
    };
    const dataStatus = counts.added + counts.removed + counts.changed > 0 ? "changed" : "unchanged";
    // Rows one diff dropped cannot be paired with the other's: a kept row
    // whose twin was dropped lands in the wrong bucket, so every bucket of a
    // table either diff cut is unproven, and stays (truncated) even when it
    // looks empty: its dropped rows may belong there.
    const truncated = (ta?.truncated ?? false) || (tb?.truncated ?? false);
    if (schemaStatus === "unchanged" && dataStatus === "unchanged" && !truncated) return null;
    return {
      ...source,
      status: schemaStatus !== "unchanged" ? schemaStatus : dataStatus,
      schema_status: schemaStatus,
      data_status: dataStatus,
      columns,
      rows,
      counts,
      truncated,
    };
  };
  return {
    beforeOnly: build("beforeOnly"),
    afterOnly: build("afterOnly"),
    shared: build("shared"),
  };
}

function existence(d: DatabaseChange | undefined): string[] {
  return d === undefined || d.exists_before === d.exists_after
    ? []
    : [`${d.exists_before}/${d.exists_after}`];
}

function splitDatabase(
  da: DatabaseChange | undefined,
  db: DatabaseChange | undefined,
): Record<Bucket, DatabaseChange | null> {
  const exist = split(existence(da), existence(db), (x) => x);
  const names = new Set([
    ...da?.tables.map((t) => t.name) ?? [],
    ...db?.tables.map((t) => t.name) ?? [],
  ]);
  const tables: Split<TableDiff> = { beforeOnly: [], afterOnly: [], shared: [] };
  for (const name of [...names].sort()) {
    const parts = splitTable(
      da?.tables.find((t) => t.name === name),
      db?.tables.find((t) => t.name === name),
    );
    for (const bucket of ["beforeOnly", "afterOnly", "shared"] as const) {
      const t = parts[bucket];
      if (t !== null) tables[bucket].push(t);
    }
  }
  const objects = split(da?.objects ?? [], db?.objects ?? [], objectId);
  const skipped = split(da?.skipped ?? [], db?.skipped ?? [], (s) => JSON.stringify(s));
  const build = (bucket: Bucket): DatabaseChange | null => {
    const source = bucket === "afterOnly" ? db : da ?? db;
    if (source === undefined) return null;
    const existed = exist[bucket].length > 0;
    if (!existed && tables[bucket].length === 0 && objects[bucket].length === 0) return null;
    return {
      ...source,
      status: existed ? source.status : "changed",
      tables: tables[bucket],
      objects: objects[bucket],
      skipped: skipped[bucket],
    };
  };
  return {
    beforeOnly: build("beforeOnly"),
    afterOnly: build("afterOnly"),
    shared: build("shared"),
  };
}

/**
 * Splits the changes of two diffs into those only the first has, those only
 * the second has, and those both have. A change counts as shared when both
 * diffs have it exactly: an added or removed row by its full content (as a
 * multiset), a changed row by table, key and before/after values, a column
 * change by table, column and definitions, a table added or removed by its
 * SQL, an index/view/trigger change by type, name and SQL, a database added
 * or removed by its name. A change that differs between the two goes to each
 * side's own bucket. Each bucket is a diff of the same shape holding only
 * tables and databases with something in it; counts are the numbers of rows
 * in the bucket. A table either diff did not keep every row of (`truncated`)
 * cannot be split for sure: it is in every bucket, marked `truncated`, and a
 * selector on it cannot tell.
 *
 * @param before the first diff (e.g. the reference run's)
 * @param after the second diff (e.g. the agent's)
 * @returns `beforeOnly`, `afterOnly` and `shared`
 * @example
 * ```ts
 * import { diffDatabaseDiffs } from "./diff_of_diffs.ts";
 * import { DIFF_FORMAT_VERSION, type DatabaseDiff } from "./types.ts";
 * const empty: DatabaseDiff = {
 *   version: DIFF_FORMAT_VERSION,
 *   settings: { include_schema: true, include_data: true, max_rows: 1000, tables: null },
 *   databases: [],
 * };
 * diffDatabaseDiffs(empty, empty).shared.databases.length; // 0
 * ```
 */
export function diffDatabaseDiffs(before: DatabaseDiff, after: DatabaseDiff): DiffOfDiffs {
  const names = new Set([
    ...before.databases.map((d) => d.name),
    ...after.databases.map((d) => d.name),
  ]);
  const out: Split<DatabaseChange> = { beforeOnly: [], afterOnly: [], shared: [] };
  for (const name of [...names].sort()) {
    const parts = splitDatabase(
      before.databases.find((d) => d.name === name),
      after.databases.find((d) => d.name === name),
    );
    for (const bucket of ["beforeOnly", "afterOnly", "shared"] as const) {
      const d = parts[bucket];
      if (d !== null) out[bucket].push(d);
    }
  }
  const doc = (bucket: Bucket, settings = before.settings): DatabaseDiff => ({
    version: before.version,
    settings,
    databases: out[bucket],
  });
  return {
    beforeOnly: doc("beforeOnly"),
    afterOnly: doc("afterOnly", after.settings),
    shared: doc("shared"),
  };
}
