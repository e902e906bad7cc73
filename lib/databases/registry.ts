/**
 * The one table of databases for reference SQL: the form of a `--db` value
 * picks the kind. `postgres://` and `postgresql://` URLs are a server,
 * `pglite:` an embedded PostgreSQL, anything else a SQLite file. Each kind
 * is loaded only when used (PGlite's WebAssembly, the PostgreSQL driver).
 *
 * @module
 */
import type { OpenDatabaseOptions, ReferenceDatabase } from "./database.ts";

/**
 * One kind of database in the table.
 *
 * @example
 * ```ts
 * import { DATABASE_KINDS, type DatabaseKind } from "./registry.ts";
 * const kind: DatabaseKind | undefined = DATABASE_KINDS.find((k) => k.matches("pglite:chinook.sql"));
 * kind?.name; // "pglite"
 * ```
 */
export interface DatabaseKind {
  /** The kind's name. */
  readonly name: string;
  /** How a user writes it, for help texts. */
  readonly form: string;
  /** Whether a `--db` value is of this kind. */
  matches(value: string): boolean;
  /** Opens it. */
  open(value: string, options: OpenDatabaseOptions): Promise<ReferenceDatabase>;
  /** The value with its file path, if it has one, passed through `resolve` (a config file's folder). */
  withPath(value: string, resolve: (path: string) => string): string;
}

/**
 * The kinds, in the order a `--db` value is tried; the last takes anything.
 *
 * @example
 * ```ts
 * import { DATABASE_KINDS } from "./registry.ts";
 * DATABASE_KINDS.map((k) => k.name); // ["postgres", "pglite", "sqlite"]
 * ```
 */
export const DATABASE_KINDS: readonly DatabaseKind[] = [
  {
    name: "postgres",
    form: "postgres://user:pass@host:port/db (or postgresql://)",
    matches: (value) => /^postgres(ql)?:\/\//i.test(value),
    open: async (value, options) =>
      (await import("./postgres.ts")).openPostgresDatabase(value, options),
    withPath: (value) => value,
  },
  {
    name: "pglite",
    form: "pglite:FILE.sql or pglite:DIR",
    matches: (value) => value.startsWith("pglite:"),
    open: async (value, options) =>
      (await import("./pglite.ts")).openPgliteDatabase(value.slice(7), options),
    withPath: (value, resolve) => `pglite:${resolve(value.slice(7))}`,
  },
  {
    name: "sqlite",
    form: "FILE (a SQLite database)",
    matches: () => true,
    open: async (value, options) =>
      (await import("./sqlite.ts")).openSqliteDatabase(value, options),
    withPath: (value, resolve) => resolve(value),
  },
];

/**
 * A `--db` value with its file path resolved, e.g. against a config file's
 * folder: a SQLite path and the path after `pglite:` are resolved, a URL is
 * kept as it is.
 *
 * @param value the `--db` value
 * @param resolve how to resolve a path
 * @returns the value
 * @example
 * ```ts
 * import { resolveDatabasePath } from "./registry.ts";
 * const inDir = (p: string) => `conf/${p}`;
 * resolveDatabasePath("pglite:chinook.sql", inDir); // "pglite:conf/chinook.sql"
 * resolveDatabasePath("postgres://me@db/chinook", inDir); // "postgres://me@db/chinook"
 * ```
 */
export function resolveDatabasePath(value: string, resolve: (path: string) => string): string {
  return DATABASE_KINDS.find((k) => k.matches(value))!.withPath(value, resolve);
}

/**
 * Opens the database a `--db` value names, and checks it can be read: a
 * missing file, an unreachable server, bad credentials or a missing
 * database fail here, before any case runs.
 *
 * @param value a SQLite file, `postgres://...`, `postgresql://...`, `pglite:FILE.sql` or `pglite:DIR`
 * @param options statement timeout and connections (for a server)
 * @returns the database; close it when done
 * @throws {UsageError} or {SqliteOpenError} naming the database and what failed
 * @example
 * ```ts
 * import { openReferenceDatabase } from "./registry.ts";
 * const db = await openReferenceDatabase("examples/chinook/Chinook_Sqlite.sqlite");
 * db.dialect; // "sqlite"
 * await db.close();
 * ```
 */
export function openReferenceDatabase(
  value: string,
  options: OpenDatabaseOptions = {},
): Promise<ReferenceDatabase> {
  const kind = DATABASE_KINDS.find((k) => k.matches(value))!;
  return kind.open(value, options);
}
