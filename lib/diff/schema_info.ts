/**
 * `db info --schema`: each table's columns, key, indexes and triggers, and
 * the views, as the diff engine reads them (the same key choice the diff
 * pairs rows by).
 *
 * @module
 */
import { openDatabase } from "../sqlite/database.ts";
import { foldName } from "./names.ts";
import { readSchema } from "./schema.ts";
import type { ColumnInfo, KeyKind } from "./types.ts";

/**
 * One table of {@link DatabaseSchema}.
 *
 * @example
 * ```ts
 * import { readDatabaseSchema, type TableSchemaInfo } from "./schema_info.ts";
 * const schema = await readDatabaseSchema("examples/db_agent/users.db");
 * const users: TableSchemaInfo | undefined = schema.tables.find((t) => t.name === "users");
 * users?.key; // ["id"]
 * ```
 */
export interface TableSchemaInfo {
  readonly name: string;
  readonly sql: string;
  /** The columns rows are paired by in a diff (empty: compared as a multiset). */
  readonly key: readonly string[];
  readonly key_kind: KeyKind;
  readonly without_rowid: boolean;
  /** The module of a virtual table (`fts5`), else null. */
  readonly module: string | null;
  readonly columns: readonly ColumnInfo[];
  /** Indexes and triggers on the table (automatic indexes left out). */
  readonly indexes: readonly { readonly name: string; readonly sql: string }[];
  readonly triggers: readonly { readonly name: string; readonly sql: string }[];
}

/**
 * The schema of one database file.
 *
 * @example
 * ```ts
 * import { readDatabaseSchema, type DatabaseSchema } from "./schema_info.ts";
 * const schema: DatabaseSchema = await readDatabaseSchema("examples/db_agent/users.db");
 * schema.tables.map((t) => t.name); // ["todos", "users"]
 * ```
 */
export interface DatabaseSchema {
  readonly tables: readonly TableSchemaInfo[];
  readonly views: readonly { readonly name: string; readonly sql: string }[];
}

/**
 * Reads a database's schema, read-only.
 *
 * @param path the database file
 * @returns its tables (in name order) with columns, keys, indexes and triggers, and its views
 * @example
 * ```ts
 * import { readDatabaseSchema } from "./schema_info.ts";
 * const schema = await readDatabaseSchema("examples/db_agent/users.db");
 * schema.tables[1]?.columns.map((c) => c.name); // ["id", "name", "email", "role"]
 * ```
 */
export async function readDatabaseSchema(path: string): Promise<DatabaseSchema> {
  const db = await openDatabase(path);
  try {
    const side = readSchema(db, "main");
    const on = (type: string, table: string): { name: string; sql: string }[] =>
      side.objects.filter((o) => o.type === type && foldName(o.table) === foldName(table))
        .map((o) => ({ name: o.name, sql: o.sql }));
    const tables = [...side.tables.values()]
      .filter((t) => !/^sqlite_/i.test(t.name) || foldName(t.name) === "sqlite_sequence")
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((t): TableSchemaInfo => ({
        name: t.name,
        sql: t.sql,
        key: t.key,
        key_kind: t.keyKind,
        without_rowid: t.withoutRowid,
        module: t.module,
        columns: t.columns,
        indexes: on("index", t.name),
        triggers: on("trigger", t.name),
      }));
    const views = side.objects.filter((o) => o.type === "view").map((o) => ({
      name: o.name,
      sql: o.sql,
    }));
    return { tables, views };
  } finally {
    db.close();
  }
}
