/**
 * The embedded default executor: runs SQL read-only on a SQLite file through
 * the WASM engine, so a SQLite user writes no executor of their own.
 *
 * @module
 */
import { rowKeys } from "../row_set.ts";
import { type Database, openDatabase, type SqlDialectOptions } from "./database.ts";
import { loadSqlite } from "./_wasm.ts";
import { SqliteQueryError } from "../errors.ts";

/**
 * What {@link sqliteExecutor} takes.
 *
 * @example
 * ```ts
 * import { sqliteExecutor, type SqliteExecutorOptions } from "./executor.ts";
 * const options: SqliteExecutorOptions = { timeoutMs: 5_000, strictQuotes: true };
 * const run = sqliteExecutor("examples/chinook/Chinook_Sqlite.sqlite", options);
 * run.close();
 * ```
 */
export interface SqliteExecutorOptions extends SqlDialectOptions {
  /**
   * Stop a statement that runs longer than this (SQLite's progress
   * handler interrupts it): it fails with "did not finish within N s".
   */
  readonly timeoutMs?: number | undefined;
}

/** Steps of the SQLite VM between two looks at the clock. */
const PROGRESS_STEPS = 10_000;
import { setColumn, type SqliteRow } from "./value.ts";

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
 * Rows as objects that also carry their column list, in order: a repeated
 * column name keys its later columns `Name (2)`, `Name (3)`, ... and
 * `columns` keeps the true names, so the row comparison sees both columns.
 * `columns` is not enumerable: the rows print and compare as a plain list.
 *
 * @example
 * ```ts
 * import { type SqliteRows, sqliteExecutor } from "../../mod.ts";
 * const execute = sqliteExecutor("examples/chinook/Chinook_Sqlite.sqlite");
 * const rows: SqliteRows = await execute("SELECT 'a' AS Name, 'b' AS Name");
 * rows; // [{ Name: "a", "Name (2)": "b" }]
 * rows.columns; // ["Name", "Name"]
 * execute.close();
 * ```
 */
export type SqliteRows = SqliteRow[] & { readonly columns: readonly string[] };

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
  /** Runs one statement; the rows carry their column list. */
  (sql: string): Promise<SqliteRows>;
  /** Closes the connection; a later call reopens it. */
  close(): void;
  /** The SQLite file it reads: the SQL rules compile the agent's SQL on it too. */
  readonly path: string;
}

/**
 * An executor over a SQLite file. The file is opened read-only on first use
 * (a write fails with "attempt to write a readonly database", and SQL with
 * more than one statement fails rather than run only the first) and kept open;
 * integers beyond 2^53 come back as bigint, BLOBs as Uint8Array. The rows
 * carry their column list ({@link SqliteRows}), duplicates kept.
 *
 * @param path the database file
 * @param options `strictQuotes` refuses double-quoted string literals
 * (accepted by default, as the sqlite3 library does); `timeoutMs` stops a
 * statement that runs longer
 * @returns the executor
 * @example
 * ```ts
 * import { sqliteExecutor } from "./executor.ts";
 * const run = sqliteExecutor("examples/chinook/Chinook_Sqlite.sqlite");
 * await run("SELECT count(*) AS n FROM Genre"); // [{ n: 25 }]
 * run.close();
 * ```
 */
export function sqliteExecutor(path: string, options: SqliteExecutorOptions = {}): SqliteExecutor {
  let db: Promise<Database> | undefined;
  let deadline = Infinity;
  const limit = options.timeoutMs;
  const execute = async (sql: string): Promise<SqliteRows> => {
    db ??= openDatabase(path, options).then(async (open) => {
      if (limit !== undefined) {
        // One handler per connection, reading the deadline of the statement
        // in flight: the statement runs synchronously, so no timer could.
        const sqlite = await loadSqlite();
        (sqlite.capi as unknown as {
          sqlite3_progress_handler(
            db: unknown,
            n: number,
            handler: () => number,
            ctx: number,
          ): void;
        }).sqlite3_progress_handler(
          open.handle as never,
          PROGRESS_STEPS,
          () => (performance.now() > deadline ? 1 : 0),
          0 as never,
        );
      }
      return open;
    });
    let open: Database;
    try {
      open = await db;
    } catch (e) {
      db = undefined;
      throw e;
    }
    if (limit === undefined) return queryWithColumns(open, sql);
    deadline = performance.now() + limit;
    try {
      return queryWithColumns(open, sql);
    } catch (e) {
      if (e instanceof SqliteQueryError && e.code === 9) {
        throw new SqliteQueryError(
          sql,
          9,
          `the SQL did not finish within ${limit / 1000} s (--timeout)`,
        );
      }
      throw e;
    } finally {
      deadline = Infinity;
    }
  };
  return Object.assign(execute, {
    path,
    close(): void {
      const pending = db;
      db = undefined;
      pending?.then((d) => d.close(), () => {});
    },
  });
}

/** Runs one statement, keeping every column, also two of the same name. */
function queryWithColumns(db: Database, sql: string): SqliteRows {
  const stmt = db.prepare(sql);
  try {
    const columns = [...stmt.columnNames];
    const keys = rowKeys(columns);
    const rows: SqliteRow[] = [];
    while (stmt.step()) {
      const values = stmt.row();
      const row: SqliteRow = {};
      keys.forEach((key, i) => setColumn(row, key, values[i]!));
      rows.push(row);
    }
    return Object.defineProperty(rows, "columns", {
      value: columns,
      enumerable: false,
    }) as SqliteRows;
  } finally {
    stmt.finalize();
  }
}
