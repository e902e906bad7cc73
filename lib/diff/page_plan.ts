/**
 * Stub: page comparison comes next.
 *
 * @module
 */
import type { SideSchema } from "./schema.ts";
import type { RowidRange } from "./table_data.ts";

/** What the page comparison learned about one table. */
export interface TablePages {
  /** Every page of the table is byte-identical on both sides. */
  readonly identical: boolean;
  /** Rowid ranges that may differ; null means compare the whole table. */
  readonly ranges: readonly RowidRange[] | null;
}

/** The page comparison of two files. */
export interface PagePlan {
  table(name: string): TablePages | null;
}

/** Compares two files page by page. */
export function pagePlan(
  _before: string,
  _after: string,
  _sides: { before: SideSchema; after: SideSchema },
): PagePlan | null {
  return null;
}
