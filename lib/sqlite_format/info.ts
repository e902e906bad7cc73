/**
 * What `dbagenteval db info` shows: a SQLite file's tables with row counts,
 * page size, encoding and journal mode. The file is read and checked whole
 * by the file reader first (check.ts), so a damaged file is one clear error
 * and never a list of counts.
 *
 * @module
 */
import * as fs from "node:fs";
import { openDatabase, openMemoryDatabase } from "../sqlite/database.ts";
import { checkSqliteFile, headerEncoding } from "../sqlite/file_check.ts";
import { checkFile } from "./check.ts";
import { PageSource } from "./page_source.ts";
import { PageOwners } from "./page_owners.ts";
import { readSchemaRows } from "./schema_rows.ts";

/**
 * One table, view or virtual table of a database.
 *
 * @example
 * ```ts
 * import { databaseInfo, type TableInfo } from "./info.ts";
 * const info = await databaseInfo("examples/db_agent/users.db");
 * const users: TableInfo | undefined = info.tables.find((t) => t.name === "users");
 * users; // { name: "users", type: "table", rows: 4 }
 * ```
 */
export interface TableInfo {
  readonly name: string;
  readonly type: "table" | "view" | "virtual";
  /** Rows in the table; null for views and virtual tables (not counted). */
  readonly rows: number | null;
}

/**
 * A summary of one SQLite file.
 *
 * @example
 * ```ts
 * import { databaseInfo, type DatabaseInfo } from "./info.ts";
 * const info: DatabaseInfo = await databaseInfo("examples/db_agent/users.db");
 * info.encoding; // "UTF-8"
 * info.tables.map((t) => t.name); // ["todos", "users"]
 * ```
 */
export interface DatabaseInfo {
  readonly path: string;
  readonly sizeBytes: number;
  /**
   * The page size; 0 for an empty (0-byte) file, which has no pages yet
   * (SQLite reads it as a database with no tables, and would choose a page
   * size when it first wrote one).
   */
  readonly pageSize: number;
  readonly pageCount: number;
  readonly encoding: string;
  readonly journalMode: string;
  readonly sqliteVersion: string;
  readonly tables: readonly TableInfo[];
}

/**
 * Reads a summary of a SQLite file, read-only.
 *
 * @param path the database file
 * @returns its tables, row counts, page size, encoding and journal mode
 * @throws {SqliteDamageError} when a page of the file breaks the file format
 * @example
 * ```ts
 * import { databaseInfo } from "./info.ts";
 * const info = await databaseInfo("examples/chinook/Chinook_Sqlite.sqlite");
 * info.tables.find((t) => t.name === "Album")?.rows; // 347
 * ```
 */
export async function databaseInfo(path: string): Promise<DatabaseInfo> {
  checkSqliteFile(path, { utf16: true });
  const encoding = headerEncoding(path);
  const src = PageSource.open(path);
  let counts: ReadonlyMap<string, number>;
  try {
    // The rows are counted in the table's own b-tree, as a scan reads them
    // (SQLite's count(*) may read an index instead, which can disagree).
    counts = (await checkFile(src)).rows;
    // The WASM build cannot open UTF-16: the rest from the pages too.
    if (encoding !== "UTF-8") return await fromPages(path, src, counts, encoding);
  } finally {
    src.close();
  }
  const db = await openDatabase(path);
  try {
    const one = (sql: string): unknown => Object.values(db.query(sql)[0] ?? {})[0];
    const schema = db.query(
      "SELECT name, type, sql FROM sqlite_schema WHERE type IN ('table','view') ORDER BY name",
    );
    const tables: TableInfo[] = schema.map((row) => {
      const name = String(row["name"]);
      const sql = String(row["sql"] ?? "");
      if (row["type"] === "view") return { name, type: "view", rows: null };
      if (/^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(sql)) return { name, type: "virtual", rows: null };
      const rows = counts.get(name) ??
        Number(one(`SELECT count(*) FROM "${name.replaceAll('"', '""')}"`));
      return { name, type: "table", rows };
    });
    const sizeBytes = fs.statSync(path).size;
    return {
      path,
      sizeBytes,
      pageSize: sizeBytes === 0 ? 0 : Number(one("PRAGMA page_size")),
      pageCount: Number(one("PRAGMA page_count")),
      encoding: headerEncoding(path),
      journalMode: String(one("PRAGMA journal_mode")),
      sqliteVersion: db.sqliteVersion,
      tables,
    };
  } finally {
    db.close();
  }
}

/**
 * {@link databaseInfo} of a UTF-16 file from its pages: what SQLite would
 * say (the journal mode is WAL when the header says so, else the default,
 * DELETE, as SQLite reports it for a file it only reads).
 */
async function fromPages(
  path: string,
  src: PageSource,
  counts: ReadonlyMap<string, number>,
  encoding: string,
): Promise<DatabaseInfo> {
  const owners = new PageOwners(src, (root) => `root page ${root}`);
  const rows = readSchemaRows(src, owners).filter((r) => r.type === "table" || r.type === "view");
  rows.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  const tables: TableInfo[] = rows.map((r) =>
    r.type === "view"
      ? { name: r.name, type: "view", rows: null }
      : /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(r.sql ?? "")
      ? { name: r.name, type: "virtual", rows: null }
      : { name: r.name, type: "table", rows: counts.get(r.name) ?? 0 }
  );
  const engine = await openMemoryDatabase();
  const sqliteVersion = engine.sqliteVersion;
  engine.close();
  return {
    path,
    sizeBytes: fs.statSync(path).size,
    pageSize: src.header.pageSize,
    pageCount: src.pages,
    encoding,
    journalMode: src.header.fileFormat === 2 ? "wal" : "delete",
    sqliteVersion,
    tables,
  };
}
