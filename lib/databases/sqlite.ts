/**
 * A SQLite file as a database for reference SQL (`--db FILE`), through the
 * embedded read-only engine.
 *
 * @module
 */
import { sqliteExecutor } from "../sqlite/executor.ts";
import type { OpenDatabaseOptions, ReferenceDatabase } from "./database.ts";

/**
 * Opens a SQLite file read-only and checks it, so a missing or broken file
 * stops the run before any case.
 *
 * @param file the database file
 * @param options `strictQuotes` refuses double-quoted string literals
 * @returns the database
 * @throws {SqliteOpenError} when the file is missing or not SQLite
 * @example
 * ```ts
 * import { openSqliteDatabase } from "./sqlite.ts";
 * const db = await openSqliteDatabase("examples/chinook/Chinook_Sqlite.sqlite");
 * await db.execute("SELECT count(*) AS n FROM Genre"); // [{ n: 25 }]
 * await db.close();
 * ```
 */
export async function openSqliteDatabase(
  file: string,
  options: OpenDatabaseOptions = {},
): Promise<ReferenceDatabase> {
  const execute = sqliteExecutor(file, {
    strictQuotes: options.strictQuotes,
    timeoutMs: options.statementTimeoutMs,
  });
  try {
    await execute("SELECT 1");
  } catch (error) {
    execute.close();
    throw error;
  }
  return {
    kind: "sqlite",
    name: file,
    dialect: "sqlite",
    execute,
    close(): Promise<void> {
      execute.close();
      return Promise.resolve();
    },
  };
}
