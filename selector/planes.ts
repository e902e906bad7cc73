/**
 * The diff's two planes and how `target` picks between them. The diff
 * document keeps them apart: the schema plane is `schema_status`, `columns`
 * and `objects`; the data plane is `data_status`, `rows` and `counts`.
 *
 * @module
 */
import type { ChangeStatus, DatabaseChange, TableDiff } from "../lib/diff/types.ts";
import type { Target } from "./types.ts";

/** Which planes a selector looks at. */
export interface Planes {
  readonly data: boolean;
  readonly schema: boolean;
}

/** Both planes: the default target. */
export const BOTH: Planes = { data: true, schema: true };

/** Turns a validated `target` into planes. */
export function planesOf(target: Target): Planes {
  const words = typeof target === "string" ? [target] : target;
  return {
    data: words.some((w) => w === "data" || w === "both"),
    schema: words.some((w) => w === "schema" || w === "both"),
  };
}

/** The planes' name for messages: `data`, `schema` or `both`. */
export function planesName(planes: Planes): string {
  return planes.data && planes.schema ? "both" : planes.data ? "data" : "schema";
}

/**
 * A table's status in the target planes: `status` for both (schema changes
 * win over data changes), `schema_status` for the schema plane,
 * `data_status` (changed or unchanged) for the data plane.
 */
export function tableStatus(table: TableDiff, planes: Planes): ChangeStatus {
  if (planes.data && planes.schema) return table.status;
  return planes.schema ? table.schema_status : table.data_status;
}

/** True when the database changed in the target planes. */
export function databaseChanged(db: DatabaseChange, planes: Planes): boolean {
  if (planes.schema) {
    if (db.exists_before !== db.exists_after || db.objects.length > 0) return true;
    if (db.tables.some((t) => t.schema_status !== "unchanged")) return true;
  }
  if (planes.data && db.tables.some((t) => t.data_status === "changed")) return true;
  return false;
}
