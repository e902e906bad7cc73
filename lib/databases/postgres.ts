/**
 * Reference SQL on a PostgreSQL server, through postgres.js.
 *
 * Why postgres.js and not `pg`: it is one package with no dependencies
 * (`pg` pulls in a pool, a connection-string parser and type parsers), it
 * runs unchanged on Deno and Bun and inside `bun build --compile`, it gives
 * rows as value lists with their column list (`.values()`), so two columns
 * of the same name both survive, and it reads the PG* environment variables
 * itself.
 *
 * Every statement runs on its own reserved connection inside `BEGIN READ
 * ONLY`, with `SET LOCAL statement_timeout`, and is always rolled back: a
 * write fails ("cannot execute INSERT in a read-only transaction") and
 * nothing the statement did outlives it. The extended protocol takes one
 * statement only, so `SELECT 1; COMMIT; DELETE ...` is refused.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { type ResultRows, resultRows } from "../row_set.ts";
import { connectProblem, postgresTarget, targetText } from "./_target.ts";
import { INT8, SESSION_SETTINGS, TEXT_TIME_TYPES } from "./_types.ts";
import type { OpenDatabaseOptions, ReferenceDatabase } from "./database.ts";

/**
 * Connects to a PostgreSQL server and checks the connection, so a wrong
 * host, password or database name stops the run before any case.
 *
 * @param url `postgres://user:pass@host:port/db` or `postgresql://...`; what it omits comes from PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE
 * @param options statement timeout and connection count
 * @returns the database
 * @throws {UsageError} one line naming the database (without the password) and what failed
 * @example
 * ```ts ignore
 * import { openPostgresDatabase } from "./postgres.ts";
 * const db = await openPostgresDatabase("postgres://me@localhost:5432/chinook");
 * await db.execute("SELECT count(*) AS n FROM genre"); // [{ n: 25n }]
 * await db.close();
 * ```
 */
export async function openPostgresDatabase(
  url: string,
  options: OpenDatabaseOptions = {},
): Promise<ReferenceDatabase> {
  const target = postgresTarget(url);
  const name = targetText(target);
  const { default: postgres } = await import("postgres");
  const timeout = Math.max(1, Math.round(options.statementTimeoutMs ?? 30_000));
  const sql = postgres(url, {
    max: options.connections ?? 4,
    connect_timeout: 10,
    idle_timeout: 30,
    prepare: false,
    onnotice: () => {},
    connection: { ...SESSION_SETTINGS, application_name: "dbagenteval" },
    types: {
      bigint: { to: INT8, from: [INT8], serialize: String, parse: (x: string) => BigInt(x) },
      isoText: { to: 1114, from: [...TEXT_TIME_TYPES], serialize: String, parse: (x: string) => x },
    },
  });
  const end = (): Promise<void> => sql.end({ timeout: 1 }).catch(() => {});
  try {
    await sql.unsafe("SELECT 1");
  } catch (error) {
    await end();
    throw new UsageError(
      `Cannot connect to PostgreSQL ${name}: ${connectProblem(error, target)}`,
      { cause: error },
    );
  }
  return {
    kind: "postgres",
    name,
    dialect: "postgres",
    async execute(query: string): Promise<ResultRows> {
      const conn = await sql.reserve();
      try {
        await conn.unsafe("BEGIN TRANSACTION READ ONLY");
        await conn.unsafe(`SET LOCAL statement_timeout = ${timeout}`);
        // The extended protocol takes one statement, so "SELECT 1; COMMIT; DELETE ..." cannot
        // end the read-only transaction and write after it. postgres.js sends a query without
        // parameters by the simple protocol (many statements) unless told otherwise.
        const extended = { prepare: false, simple: false } as { prepare: boolean };
        const result = await conn.unsafe(query, [], extended).values();
        const columns = (result.columns ?? []).map((c) => c.name);
        return resultRows(columns, result as unknown as unknown[][]);
      } catch (error) {
        throw queryError(error, name);
      } finally {
        await conn.unsafe("ROLLBACK").catch(() => {});
        conn.release();
      }
    },
    close: end,
  };
}

/**
 * A failed statement as one line naming the database: the server's message
 * and its SQLSTATE.
 *
 * @param error what the driver raised
 * @param name the database, without the password
 * @returns the error
 */
export function queryError(error: unknown, name: string): Error {
  const e = error as { message?: unknown; code?: unknown };
  const text = typeof e?.message === "string" ? e.message : String(error);
  const code = typeof e?.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)
    ? ` (SQLSTATE ${e.code})`
    : "";
  return new Error(`${name}: ${text.split("\n")[0]}${code}`, { cause: error });
}
