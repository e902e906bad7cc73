/**
 * Reference SQL on PGlite, PostgreSQL compiled to WebAssembly, for users
 * without a server: `pglite:FILE.sql` loads a schema and data script once
 * into an in-memory database; `pglite:DIR` opens a PGlite data directory
 * read-only, by copying it to a temporary directory first (PGlite writes to
 * the directory it opens, even to read), so the original is never touched.
 *
 * PGlite is imported only here, on first use, so commands that do not use it
 * do not load its 10 MB of WebAssembly.
 *
 * Statements run one at a time (PGlite is one connection), each inside
 * `BEGIN READ ONLY` and rolled back. PGlite has no timer signals, so
 * `statement_timeout` cannot stop a runaway statement: the case's timeout
 * (`--timeout`) ends the case, and the engine finishes the statement in the
 * background.
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { UsageError } from "../errors.ts";
import { type ResultRows, resultRows } from "../row_set.ts";
import { pgliteParsers, SESSION_SETTINGS } from "./_types.ts";
import { queryError } from "./postgres.ts";
import { pgliteStart } from "./_pglite_start.ts";
import type { ReferenceDatabase } from "./database.ts";

interface PgliteLike {
  exec(sql: string): Promise<unknown>;
  query(
    sql: string,
    params: unknown[],
    options: { rowMode: "array"; parsers: Record<number, (t: string) => unknown> },
  ): Promise<{ rows: unknown[][]; fields: { name: string }[] }>;
  close(): Promise<void>;
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}

/**
 * Opens `pglite:FILE.sql` or `pglite:DIR`.
 *
 * @param spec what follows `pglite:`: a `.sql` file or a PGlite data directory
 * @returns the database
 * @throws {UsageError} when the file or directory is missing, the script fails, or the directory is not PGlite's
 * @example
 * ```ts ignore
 * import { openPgliteDatabase } from "./pglite.ts";
 * const db = await openPgliteDatabase("examples/chinook/Chinook_PostgreSql.sql");
 * await db.execute("SELECT count(*) AS n FROM genre"); // [{ n: 25n }]
 * await db.close();
 * ```
 */
export async function openPgliteDatabase(spec: string): Promise<ReferenceDatabase> {
  const name = `pglite:${spec}`;
  const stat = fs.statSync(spec, { throwIfNoEntry: false });
  if (stat === undefined) {
    throw new UsageError(
      `--db ${name}: "${spec}" does not exist; give a .sql script or a PGlite data directory`,
    );
  }
  let copy: string | undefined;
  let db: PgliteLike;
  try {
    if (stat.isDirectory()) {
      if (!fs.existsSync(path.join(spec, "PG_VERSION"))) {
        throw new UsageError(
          `--db ${name}: "${spec}" is not a PGlite data directory (it has no PG_VERSION file)`,
        );
      }
      copy = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-pglite-"));
      fs.cpSync(spec, copy, { recursive: true });
      db = await startPglite(copy);
    } else {
      const script = fs.readFileSync(spec, "utf8");
      const meta = script.split("\n").findIndex((line) => /^\s*\\[a-zA-Z]/.test(line));
      if (meta >= 0) {
        throw new UsageError(
          `--db ${name}: line ${meta + 1} is a psql meta-command (${
            JSON.stringify(script.split("\n")[meta]!.trim().slice(0, 40))
          }), which PGlite cannot run; remove it (and any CREATE DATABASE) from the script`,
        );
      }
      db = await startPglite(undefined);
      try {
        await db.exec(script);
      } catch (error) {
        await db.close().catch(() => {});
        throw new UsageError(`--db ${name}: the script failed to load: ${message(error)}`, {
          cause: error,
        });
      }
    }
    await db.exec(
      Object.entries(SESSION_SETTINGS).map(([k, v]) => `SET ${k} = '${v}';`).join(" "),
    );
  } catch (error) {
    if (copy !== undefined) fs.rmSync(copy, { recursive: true, force: true });
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--db ${name}: PGlite could not open it: ${message(error)}`, {
      cause: error,
    });
  }

  const parsers = pgliteParsers();
  let queue: Promise<unknown> = Promise.resolve();
  const run = async (query: string): Promise<ResultRows> => {
    await db.exec("BEGIN TRANSACTION READ ONLY");
    try {
      const result = await db.query(query, [], { rowMode: "array", parsers });
      return resultRows(result.fields.map((f) => f.name), result.rows);
    } catch (error) {
      throw queryError(error, name);
    } finally {
      await db.exec("ROLLBACK").catch(() => {});
    }
  };
  return {
    kind: "pglite",
    name,
    dialect: "postgres",
    execute(query: string): Promise<ResultRows> {
      const next = queue.then(() => run(query));
      queue = next.catch(() => {});
      return next;
    },
    async close(): Promise<void> {
      await queue;
      await db.close().catch(() => {});
      if (copy !== undefined) fs.rmSync(copy, { recursive: true, force: true });
    },
  };
}

async function startPglite(dataDir: string | undefined): Promise<PgliteLike> {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite({
    ...(dataDir !== undefined ? { dataDir } : {}),
    // In memory, from the template, not initdb; in the binary, from its
    // embedded files (_pglite_start.ts).
    ...await pgliteStart(dataDir === undefined),
    // PostgreSQL's default of 128 MB of shared buffers grew the WebAssembly
    // heap by 64 MB; the data is in memory anyway (PGlite's file system),
    // so a page not in a buffer is a copy away, not a read.
    startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"],
  });
  await db.waitReady;
  return db as unknown as PgliteLike;
}
