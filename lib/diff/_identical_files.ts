/**
 * Two files that are page for page the same need no WebAssembly engine:
 * the page scan found no differing page (page 1 aside, which holds the
 * header and the root of sqlite_schema), and when both files' schema rows,
 * read from their pages (_schema_pages.ts), are the same too, every table
 * holds the same rows on both sides. The diff then needs each table's
 * columns and key, which _create_table.ts reads from its CREATE TABLE
 * statement as SQLite would. A byte copy of a 2M-row file is compared in
 * the time it takes to read both (bench/README.md), where starting the
 * engine and parsing the schema cost more than the reading.
 *
 * A diff limited to some tables (`--table`) compares only their rows of
 * sqlite_schema (those whose tbl_name is one of them: the tables, their
 * indexes and triggers), as readSchema() filters them: when those rows are
 * the same and the named tables' pages are too (page_plan.ts on the scan of
 * their trees, _table_scan.ts), the engine need not start either, however
 * many other tables the files hold and however they differ.
 *
 * Anything this cannot read as SQLite does (a virtual table, whose columns
 * belong to its module; a statement the parser does not know; a UTF-16
 * file) gives null, and SQLite reads the schema as usual.
 *
 * @module
 */
import { checkSqliteFile } from "../sqlite/file_check.ts";
import { parseCreateTable } from "./_create_table.ts";
import { readSchemaPages, type SchemaRow } from "./_schema_pages.ts";
import { type ObjectSchema, type SideSchema, type TableSchema, tableSchema } from "./schema.ts";

/**
 * Both sides' schemas, read without SQLite, when the two files' schema
 * rows are the same; null otherwise (or when they cannot be read so).
 *
 * @param before the before file (page for page the same as `after`)
 * @param after the after file
 * @param pairByRowid rows of tables without an INTEGER key pair by rowid
 * @returns the schemas, or null
 */
export function identicalSchemas(
  before: string,
  after: string,
  pairByRowid: boolean,
): { before: SideSchema; after: SideSchema } | null {
  // What opening them would refuse (a hot journal beside a file, say).
  checkSqliteFile(before);
  checkSqliteFile(after);
  const a = readSchemaPages(before);
  const b = a === null ? null : readSchemaPages(after);
  return a === null || b === null ? null : schemasOfRows(a, b, pairByRowid);
}

/**
 * Both sides' schemas from their sqlite_schema rows, when the rows are the
 * same; null otherwise, or when a table's columns need SQLite.
 *
 * @param a the before file's rows (all of them, or the named tables')
 * @param b the after file's rows, read alike
 * @param pairByRowid rows of tables without an INTEGER key pair by rowid
 * @returns the schemas, or null
 */
export function schemasOfRows(
  a: readonly SchemaRow[],
  b: readonly SchemaRow[],
  pairByRowid: boolean,
): { before: SideSchema; after: SideSchema } | null {
  if (!sameRows(a, b)) return null;
  const side = sideSchema(a, pairByRowid);
  return side === null ? null : { before: side, after: sideSchema(b, pairByRowid)! };
}

function sameRows(a: readonly SchemaRow[], b: readonly SchemaRow[]): boolean {
  return a.length === b.length && a.every((r, i) => {
    const s = b[i]!;
    return r.type === s.type && r.name === s.name && r.tbl_name === s.tbl_name &&
      r.rootpage === s.rootpage && r.sql === s.sql;
  });
}

/** A side's schema as readSchema() gives it, or null when a table's columns need SQLite. */
function sideSchema(rows: readonly SchemaRow[], pairByRowid: boolean): SideSchema | null {
  // In name order, as readSchema's query returns them.
  const sorted = [...rows].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  const tables = new Map<string, TableSchema>();
  const objects: ObjectSchema[] = [];
  for (const row of sorted) {
    const sql = row.sql ?? "";
    if (row.type === "table") {
      const parsed = parseCreateTable(sql);
      if (parsed === null) return null;
      const t = tableSchema({
        name: row.name,
        sql,
        rootPage: row.rootpage,
        columns: parsed.columns,
        pkIndexed: parsed.pkIndexed,
        pairByRowid,
      });
      // The parser and SQLite's own test for WITHOUT ROWID must agree.
      if (t.module !== null || t.withoutRowid !== parsed.withoutRowid) return null;
      tables.set(row.name, t);
    } else if (
      (row.type === "index" || row.type === "view" || row.type === "trigger") && sql !== ""
    ) {
      objects.push({
        type: row.type,
        name: row.name,
        table: row.tbl_name,
        sql,
        rootPage: row.rootpage,
      });
    }
  }
  return { tables, objects, roots: sorted.map((r) => r.rootpage).filter((p) => p > 0) };
}
