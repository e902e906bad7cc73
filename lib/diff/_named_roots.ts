/**
 * The root pages of the tables a diff is limited to (`--table`), read from
 * each file's own sqlite_schema b-tree without SQLite (_schema_pages.ts),
 * so that the page scan of those tables (_table_scan.ts) starts at once and
 * reads on the runtime's I/O threads while the WASM engine starts and reads
 * the schema: on a table of a gigabyte, that overlap is a fifth of a second.
 *
 * Names match as readSchema's filter matches them (`lower(tbl_name)`, ASCII
 * letters folded), tables only. Anything unexpected (a UTF-16 file, a page
 * that is no b-tree page, a record that is not a schema row) gives null,
 * and the scan starts once SQLite has read the schema. A root found here is
 * checked later: page_plan.ts plans a table only when the root SQLite gives
 * is one that was scanned.
 *
 * @module
 */
import type { TreeRoots } from "./_table_scan.ts";
import { readSchemaPages, type SchemaRow } from "./_schema_pages.ts";
import { foldName } from "./names.ts";
import { STATISTICS_TABLES } from "./_schema_page_one.ts";

/** Both files' sqlite_schema rows of the named tables, and those tables' root pages. */
export interface NamedRows {
  readonly before: readonly SchemaRow[];
  readonly after: readonly SchemaRow[];
  readonly roots: TreeRoots;
  /** The rows with the statistics tables' added (_schema_page_one.ts), in rowid order. */
  readonly withStatistics: { readonly before: SchemaRow[]; readonly after: SchemaRow[] };
}

/**
 * Reads the sqlite_schema rows of the tables called `names` in both files
 * (the tables, their indexes and triggers) and the tables' root pages.
 *
 * @param before the before file
 * @param after the after file
 * @param names the table names (any ASCII case)
 * @returns the rows and roots, or null when a file's schema could not be read this way
 */
export function namedRows(
  before: string,
  after: string,
  names: readonly string[],
): NamedRows | null {
  const wanted = new Set(names.map(foldName));
  const read = new Set([...wanted, ...STATISTICS_TABLES]);
  const sa = readSchemaPages(before, read);
  const sb = sa === null ? null : readSchemaPages(after, read);
  if (sa === null || sb === null) return null;
  const named = (rows: SchemaRow[]): SchemaRow[] =>
    rows.filter((r) => wanted.has(foldName(r.tbl_name)));
  const a = named(sa);
  const b = named(sb);
  return {
    before: a,
    after: b,
    roots: { before: tableRoots(a), after: tableRoots(b) },
    withStatistics: { before: sa, after: sb },
  };
}

/**
 * Finds the root pages of the tables called `names` in both files.
 *
 * @param before the before file
 * @param after the after file
 * @param names the table names (any ASCII case)
 * @returns the roots per side, or null when a file's schema could not be read this way
 */
export function namedRoots(
  before: string,
  after: string,
  names: readonly string[],
): TreeRoots | null {
  return namedRows(before, after, names)?.roots ?? null;
}

function tableRoots(rows: readonly SchemaRow[]): number[] {
  return rows.filter((r) => r.type === "table" && r.rootpage > 0).map((r) => r.rootpage);
}
