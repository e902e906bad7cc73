/**
 * The schema plane: columns added, removed or changed in a table, and
 * indexes, views and triggers added, removed or changed.
 *
 * @module
 */
import type { ObjectSchema, TableSchema } from "./schema.ts";
import { normalizeSql } from "./schema.ts";
import { foldName } from "./names.ts";
import type { ColumnAspect, ColumnChange, ColumnInfo, SchemaObjectChange } from "./types.ts";

/** The column changes of a table present on both sides. */
export interface ColumnsDiff {
  readonly added: ColumnInfo[];
  readonly removed: ColumnInfo[];
  readonly changed: ColumnChange[];
}

/**
 * Compares the columns of two versions of a table, matching them by name
 * (ASCII letters case-insensitively, as SQLite does). A renamed column is one removed and
 * one added: nothing links the two names.
 *
 * @param before the table before
 * @param after the table after
 * @returns the columns added, removed and changed, in table order
 */
export function diffColumns(before: TableSchema, after: TableSchema): ColumnsDiff {
  const byName = (cols: readonly ColumnInfo[]): Map<string, ColumnInfo> =>
    new Map(cols.map((c) => [foldName(c.name), c]));
  const a = byName(before.columns);
  const b = byName(after.columns);
  const changed: ColumnChange[] = [];
  for (const [name, col] of a) {
    const other = b.get(name);
    if (other === undefined) continue;
    const aspects = columnAspects(col, other);
    if (aspects.length > 0) {
      changed.push({ name: col.name, before: col, after: other, changes: aspects });
    }
  }
  return {
    added: after.columns.filter((c) => !a.has(foldName(c.name))),
    removed: before.columns.filter((c) => !b.has(foldName(c.name))),
    changed,
  };
}

function columnAspects(a: ColumnInfo, b: ColumnInfo): ColumnAspect[] {
  const out: ColumnAspect[] = [];
  if (foldName(a.type) !== foldName(b.type)) out.push("type");
  if (a.not_null !== b.not_null) out.push("not_null");
  if (a.default !== b.default) out.push("default");
  if (a.primary_key !== b.primary_key) out.push("primary_key");
  if (a.hidden !== b.hidden) out.push("hidden");
  return out;
}

/**
 * Whether a table present on both sides changed schema: a column changed,
 * or its CREATE statement differs beyond whitespace (a constraint, WITHOUT
 * ROWID, STRICT).
 *
 * @param before the table before
 * @param after the table after
 * @param columns its column changes
 * @returns true when the schema changed
 */
export function tableSchemaChanged(
  before: TableSchema,
  after: TableSchema,
  columns: ColumnsDiff,
): boolean {
  return columns.added.length + columns.removed.length + columns.changed.length > 0 ||
    normalizeSql(before.sql) !== normalizeSql(after.sql);
}

/**
 * Compares indexes, views and triggers by type and name.
 *
 * @param before the objects before
 * @param after the objects after
 * @param keep which tables' objects to report
 * @returns the objects added, removed or changed, by type then name
 */
export function diffObjects(
  before: readonly ObjectSchema[],
  after: readonly ObjectSchema[],
  keep: (table: string) => boolean,
): SchemaObjectChange[] {
  const id = (o: ObjectSchema): string => `${o.type}\0${foldName(o.name)}`;
  const a = new Map(before.filter((o) => keep(o.table)).map((o) => [id(o), o]));
  const b = new Map(after.filter((o) => keep(o.table)).map((o) => [id(o), o]));
  const out: SchemaObjectChange[] = [];
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(k);
    const y = b.get(k);
    const base = (y ?? x)!;
    const status = x === undefined
      ? "added"
      : y === undefined
      ? "removed"
      : normalizeSql(x.sql) !== normalizeSql(y.sql)
      ? "changed"
      : null;
    if (status === null) continue;
    out.push({
      type: base.type,
      name: base.name,
      table: base.table,
      status,
      sql_before: x?.sql ?? null,
      sql_after: y?.sql ?? null,
    });
  }
  const order = { index: 0, view: 1, trigger: 2 };
  return out.sort((p, q) => order[p.type] - order[q.type] || (p.name < q.name ? -1 : 1));
}
