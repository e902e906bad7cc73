/**
 * A side's schema read from its sqlite_schema rows (as the file reader
 * gives them, lib/sqlite_format/schema_rows.ts) without SQLite: each
 * table's columns and key from its CREATE TABLE statement, read as SQLite
 * reads it (_create_table.ts, checked against `pragma table_xinfo`), and
 * its indexes, views and triggers. Most diffs then need no engine at all
 * (identical files, rows read from cells); starting the WebAssembly engine
 * and parsing the schema cost more than reading both files of a 2M-row
 * copy (bench/README.md).
 *
 * Anything this cannot read as SQLite does (a virtual table, whose columns
 * belong to its module; a statement the parser does not know) gives null,
 * and SQLite reads the schema instead.
 *
 * @module
 */
import type { SchemaRow } from "../sqlite_format/schema_rows.ts";
import { parseCreateTable } from "./_create_table.ts";
import { type ObjectSchema, type SideSchema, type TableSchema, tableSchema } from "./schema.ts";

/**
 * A side's schema as readSchema() gives it, from its sqlite_schema rows.
 *
 * @param rows the side's rows (all of them, or the named tables')
 * @param pairByRowid rows of tables without an INTEGER key pair by rowid
 * @returns the schema, or null when a table's columns need SQLite
 */
export function sideSchema(rows: readonly SchemaRow[], pairByRowid: boolean): SideSchema | null {
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
