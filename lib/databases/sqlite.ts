/**
 * A SQLite file as a database for reference SQL (`--db FILE`), through the
 * embedded read-only engine.
 *
 * @module
 */
import { sqliteExecutor } from "../sqlite/executor.ts";
import type { OpenDatabaseOptions, ReferenceDatabase } from "./database.ts";

/** The least time the open's check (`SELECT 1`) is given. */
const OPEN_CHECK_MS = 30_000;

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
    // The open's own check may have to start the pool's first worker (seconds
    // on a loaded machine): no statement of a case, so not held to their deadline.
    const timeoutMs = options.statementTimeoutMs === undefined
      ? undefined
      : Math.max(options.statementTimeoutMs, OPEN_CHECK_MS);
    await execute("SELECT 1", { timeoutMs });
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
