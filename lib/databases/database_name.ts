/**
 * The one place that decides how a database is shown to a person: a
 * `postgres://` URL never with its password, in any command, error or
 * report. Every output that names a `--db` value goes through
 * {@link databaseName}; {@link hidePasswords} is the last line of defence for
 * text that may quote a URL (an error raised by a library, a stack trace).
 *
 * @module
 */
import { postgresTarget, targetText, urlProblem } from "./_target.ts";

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/**
 * A `--db` value as a person reads it: a PostgreSQL URL as
 * `postgres://user@host:port/database` (what the environment fills in
 * included, the password left out), anything else as it is.
 *
 * @param value a SQLite path, `pglite:...` or a `postgres://` URL
 * @returns the text to show
 * @example
 * ```ts
 * import { databaseName } from "./database_name.ts";
 * databaseName("postgres://me:secret@db.internal:5433/shop"); // "postgres://me@db.internal:5433/shop"
 * databaseName("pglite:chinook.sql"); // "pglite:chinook.sql"
 * ```
 */
export function databaseName(value: string): string {
  if (!POSTGRES_URL.test(value)) return value;
  if (urlProblem(value) !== undefined) return hidePasswords(value);
  return targetText(postgresTarget(value));
}

/**
 * Text with the password of every URL in it replaced by `***`
 * (`scheme://user:password@host` becomes `scheme://user:***@host`). The
 * password ends at the last `@` before the URL's path, as a URL parser reads
 * it.
 *
 * @param text any text
 * @returns the text, passwords hidden
 * @example
 * ```ts
 * import { hidePasswords } from "./database_name.ts";
 * hidePasswords("Invalid URL: 'postgres://me:s3cr@t@db:99999/shop'"); // "Invalid URL: 'postgres://me:***@db:99999/shop'"
 * ```
 */
export function hidePasswords(text: string): string {
  return text.replace(
    /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:'"]*):[^\s/?#'"]*@/gi,
    (_m, head: string) => `${head}:***@`,
  );
}
