/**
 * What a diff limited to some tables (`db diff --table`) learns before it
 * starts the WebAssembly engine, so that it may not need to: the named
 * tables' sqlite_schema rows and root pages (_named_roots.ts), their
 * schemas when those rows are the same on both sides (read as SQLite reads
 * them, _identical_files.ts), the page 1 the engine is shown if it starts
 * (_schema_page_one.ts), and, once their pages are compared, the changed
 * rows of the tables that can be read from their cells (_cell_rows.ts).
 *
 * @module
 */
import { checkSqliteFile } from "../sqlite/file_check.ts";
import type { KeptRows } from "./_kept_rows.ts";
import { cellRows, cellRowsFit } from "./_cell_rows.ts";
import { schemasOfRows } from "./_identical_files.ts";
import { type NamedRows, namedRows } from "./_named_roots.ts";
import type { PageScan } from "./_page_scan.ts";
import { schemaPageOne } from "./_schema_page_one.ts";
import type { TreeRoots } from "./_table_scan.ts";
import type { PagePlan } from "./page_plan.ts";
import type { SideSchema } from "./schema.ts";
import type { TableData } from "./table_data.ts";

/** Page 1 of each file as the engine is to read it, or null for the file's own. */
export interface PageOnes {
  readonly before: Uint8Array | null;
  readonly after: Uint8Array | null;
}

/** What the named tables' schema rows tell before any page is compared. */
export interface NamedTables {
  /** The named tables' root pages, to compare their pages (_table_scan.ts). */
  readonly roots: TreeRoots;
  /** Both sides' schemas, when the named tables' rows are the same; else null. */
  readonly named: { before: SideSchema; after: SideSchema } | null;
  /** Page 1 for the engine, holding only the named tables' rows (or the files' own). */
  readonly pageOnes: PageOnes;
  /** Whether every named table's changed rows may be read from its cells. */
  readonly cells: boolean;
}

/**
 * Reads the named tables' schema rows of both files.
 *
 * @param before the before file
 * @param after the after file
 * @param tables the names (any ASCII case)
 * @param pairByRowid rows of tables without an INTEGER key pair by rowid
 * @returns what they tell, or null when the schema pages cannot be read so
 */
export function namedTables(
  before: string,
  after: string,
  tables: readonly string[],
  pairByRowid: boolean,
): NamedTables | null {
  const rows = namedRows(before, after, tables);
  if (rows === null) return null;
  const { withStatistics } = rows;
  const a = schemaPageOne(before, withStatistics.before);
  const b = a === null ? null : schemaPageOne(after, withStatistics.after);
  const named = namedSchemas(before, after, rows, pairByRowid);
  return {
    roots: rows.roots,
    named,
    pageOnes: a !== null && b !== null ? { before: a, after: b } : { before: null, after: null },
    cells: named !== null && [...named.before.tables.values()].every(cellRowsFit),
  };
}

/**
 * The named tables' row changes read from their cells (_cell_rows.ts), for
 * those that are not identical; null when one of them needs the engine.
 *
 * @param scan the comparison of the named tables' pages (its files open)
 * @param plan the page plan made from it
 * @param named both sides' schemas (the same rows)
 * @returns what tells each changed table's rows, by name, or null
 */
export function withoutEngine(
  scan: PageScan,
  plan: PagePlan,
  named: { before: SideSchema; after: SideSchema },
): Map<string, (rows: KeptRows) => TableData> | null {
  const out = new Map<string, (rows: KeptRows) => TableData>();
  for (const [name, before] of named.before.tables) {
    const after = named.after.tables.get(name);
    const pages = plan.table(name);
    if (after === undefined || pages === null) return null;
    if (pages.identical) continue;
    const rows = pages.ranges === null ? null : cellRows(scan, before, after, pages.ranges);
    if (rows === null) return null;
    out.set(name, rows);
  }
  return out;
}

/**
 * The named tables' schemas read without SQLite, or null when their rows
 * differ or cannot be read so; a file that cannot be opened gives null too,
 * and opening it with SQLite says why.
 */
function namedSchemas(
  before: string,
  after: string,
  rows: NamedRows,
  pairByRowid: boolean,
): { before: SideSchema; after: SideSchema } | null {
  try {
    // What opening them would refuse (a hot journal beside a file, say).
    checkSqliteFile(before);
    checkSqliteFile(after);
    return schemasOfRows(rows.before, rows.after, pairByRowid);
  } catch {
    return null;
  }
}
