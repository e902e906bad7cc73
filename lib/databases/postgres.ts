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
 * Every statement runs on a session of its own at a time, inside `BEGIN READ
 * ONLY`, and is rolled back, then the session is reset (`DISCARD ALL`):
 * `_pg_session.ts`. A login that could touch the server's machine (a
 * superuser, or a member of the file and program roles) is refused unless
 * the caller allows it: `_pg_privileges.ts`.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { type ResultRows, resultRows } from "../row_set.ts";
import { connectProblem, postgresTarget, targetText, urlProblem } from "./_target.ts";
import { INT8, SESSION_SETTINGS, TEXT_TIME_TYPES } from "./pg_types.ts";
import { PgSessions } from "./_pg_session.ts";
import { ARRAY_TYPES_SQL, arrayTypes } from "./_pg_arrays.ts";
import { PRIVILEGES_SQL, refusal, serverRights } from "./_pg_privileges.ts";
import { hidePasswords } from "./database_name.ts";
import { DEFAULT_RESULT_LIMIT_BYTES } from "./result_limit.ts";
import type { OpenDatabaseOptions, ReferenceDatabase } from "./database.ts";

/** Settings the harness sets for every session; a URL's own value for them is dropped. */
const ENFORCED = ["default_transaction_read_only", "statement_timeout"];

/** The URL without the query options the harness sets itself (its own must win). */
function withoutEnforced(url: string): string {
  const at = url.indexOf("?");
  if (at < 0) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  for (const key of ENFORCED) params.delete(key);
  const rest = params.toString();
  return rest === "" ? url.slice(0, at) : `${url.slice(0, at)}?${rest}`;
}

/**
 * Connects to a PostgreSQL server and checks the connection, so a wrong
 * host, password or database name stops the run before any case, and so
 * does a login that could read or write the server's files or run programs
 * there (unless `allowSuperuser`).
 *
 * @param url `postgres://user:pass@host:port/db` or `postgresql://...`; what it omits comes from PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE
 * @param options statement timeout, connection count, result limit, and whether a privileged login is allowed
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
  const problem = urlProblem(url);
  if (problem !== undefined) {
    throw new UsageError(`Cannot connect to PostgreSQL ${hidePasswords(url)}: ${problem}`);
  }
  const target = postgresTarget(url);
  const name = targetText(target);
  const timeout = Math.max(1, Math.round(options.statementTimeoutMs ?? 30_000));
  const settings = {
    url: withoutEnforced(url),
    connection: {
      ...SESSION_SETTINGS,
      application_name: "dbagenteval",
      default_transaction_read_only: "on",
      statement_timeout: String(timeout),
    },
    types: {
      bigint: { to: INT8, from: [INT8], serialize: String, parse: (x: string) => BigInt(x) },
      isoText: { to: 1114, from: [...TEXT_TIME_TYPES], serialize: String, parse: (x: string) => x },
    },
    timeoutMs: timeout,
    resultLimitBytes: options.resultLimitBytes ?? DEFAULT_RESULT_LIMIT_BYTES,
  };
  // One session first, to check the login and learn the server's array types.
  const probe = new PgSessions(settings, 1);
  let rights: string | undefined;
  let arrays: unknown[][];
  try {
    rights = serverRights((await probe.run(PRIVILEGES_SQL)).rows[0] ?? []);
    arrays = (await probe.run(ARRAY_TYPES_SQL)).rows;
  } catch (error) {
    throw new UsageError(
      `Cannot connect to PostgreSQL ${name}: ${connectProblem(error, target)}`,
      { cause: error },
    );
  } finally {
    await probe.end();
  }
  if (rights !== undefined && options.allowSuperuser !== true) {
    throw new UsageError(refusal(name, rights));
  }
  const sessions = new PgSessions(
    { ...settings, types: { ...settings.types, ...arrayTypes(arrays) } },
    options.connections ?? 4,
  );
  return {
    kind: "postgres",
    name,
    dialect: "postgres",
    async execute(query: string): Promise<ResultRows> {
      try {
        const { columns, rows } = await sessions.run(query);
        return resultRows(columns, rows);
      } catch (error) {
        throw queryError(error, name);
      }
    },
    close: () => sessions.end(),
  };
}

/** Driver codes of a connection that is gone. */
const LOST = new Set(["CONNECTION_CLOSED", "CONNECTION_DESTROYED", "ECONNRESET", "EPIPE"]);
/** SQLSTATEs of a server that closes the connection: the statement's own end, or the server's. */
const CLOSING = new Set(["57P01", "57P02", "57P03"]);

/**
 * A failed statement as one line naming the database: the server's message
 * and its SQLSTATE; a lost connection says the next statement gets a new one.
 *
 * @param error what the driver raised
 * @param name the database, without the password
 * @returns the error
 */
export function queryError(error: unknown, name: string): Error {
  const e = error as { message?: unknown; code?: unknown };
  const code = typeof e?.code === "string" ? e.code : "";
  let text = (typeof e?.message === "string" ? e.message : String(error)).split("\n")[0]!;
  if (LOST.has(code)) {
    text = `the connection to the server was lost (${code}); the next statement opens a new one`;
  } else if (/^[0-9A-Z]{5}$/.test(code)) {
    text += ` (SQLSTATE ${code})`;
    if (CLOSING.has(code)) {
      text += "; the connection was closed, the next statement opens a new one";
    }
  }
  return new Error(`${name}: ${hidePasswords(text)}`, { cause: error });
}
