/**
 * The embedded default executor: runs SQL read-only on a SQLite file through
 * the WASM engine, so a SQLite user writes no executor of their own.
 *
 * @module
 */
import { type Database, openDatabase } from "./database.ts";
import type { SqliteRow } from "./value.ts";

/**
 * Runs one SQL statement and returns its rows as objects.
 *
 * @example
 * ```ts
 * import { defineCase, type Executor, runSuite } from "../../mod.ts";
 * const execute: Executor = async (sql) => (sql.includes("COUNT") ? [{ n: 2 }] : []);
 * const cases = [defineCase({ id: "n", question: "How many?", reference_sql: "SELECT COUNT(*) FROM t" })];
 * (await runSuite(cases, () => ({ rows: [{ total: 2 }] }), { execute })).passed; // 1
 * ```
 */
export type Executor = (sql: string) => Promise<SqliteRow[]>;

/**
 * An executor over one file, with a way to release the file.
 *
 * @example
 * ```ts
 * import { type SqliteExecutor, sqliteExecutor } from "../../mod.ts";
 * const execute: SqliteExecutor = sqliteExecutor("examples/chinook/Chinook_Sqlite.sqlite");
 * await execute("SELECT COUNT(*) AS n FROM Genre"); // [{ n: 25 }]
 * execute.close();
 * ```
 */
export interface SqliteExecutor extends Executor {
  /** Closes the connection; a later call reopens it. */
  close(): void;
}

/**
 * An executor over a SQLite file. The file is opened read-only on first use
 * (a write fails with "attempt to write a readonly database", and SQL with
 * more than one statement fails rather than run only the first) and kept open;
 * integers beyond 2^53 come back as bigint, BLOBs as Uint8Array.
 *
 * @param path the database file
 * @returns the executor
 * @example
 * ```ts
 * import { sqliteExecutor } from "./executor.ts";
 * const run = sqliteExecutor("examples/chinook/Chinook_Sqlite.sqlite");
 * await run("SELECT count(*) AS n FROM Genre"); // [{ n: 25 }]
 * run.close();
 * ```
 */
export function sqliteExecutor(path: string): SqliteExecutor {
  let db: Promise<Database> | undefined;
  const execute = async (sql: string): Promise<SqliteRow[]> => {
    db ??= openDatabase(path);
    let open: Database;
    try {
      open = await db;
    } catch (e) {
      db = undefined;
      throw e;
    }
    return open.query(sql);
  };
  return Object.assign(execute, {
    close(): void {
      const pending = db;
      db = undefined;
      pending?.then((d) => d.close(), () => {});
    },
  });
}
