/**
 * The given database as PostgreSQL (`pglite:FILE.sql`, `pglite:DIR` or a
 * `postgres://` server): opened as the harness opens it, every statement
 * read-only and rolled back; its schema read from the catalog
 * (`pg_schema.ts`), its rows read once (`pg_rows.ts`); candidates tried in
 * a private PGlite (`pg_sandbox.ts`) and shown as a script psql replays.
 * Nothing is ever written to the given database or server.
 *
 * @module
 */
import * as fs from "node:fs";
import { UsageError } from "../errors.ts";
import type { OpenDatabaseOptions, ReferenceDatabase } from "../databases/database.ts";
import { openReferenceDatabase } from "../databases/registry.ts";
import type { PgliteDatabase } from "../databases/pglite.ts";
import { sameValue } from "../sqlite/value.ts";
import type { Candidate } from "./candidate.ts";
import type { GivenDatabase } from "./given.ts";
import { probesFor } from "./pools.ts";
import { keyColumns, type TableChange, tableChange } from "./render.ts";
import { type Execute, type PgSchema, readPgSchema } from "./pg_schema.ts";
import { PgRows } from "./pg_rows.ts";
import { insertSql, keepEngine, PgSandbox } from "./pg_sandbox.ts";
import { pgLiteral, pgValue } from "./pg_sql.ts";
import type { Random } from "./random.ts";
import type { QueryWords } from "./_tokens.ts";
import { ident } from "../sqlite/sql_text.ts";

/** Every statement that builds the schema, in order. */
function ddl(pg: PgSchema): string[] {
  return [
    ...pg.preamble,
    ...pg.schema.tables.map((t) => t.createSql),
    ...pg.foreignKeySql,
    ...pg.schema.tables.flatMap((t) => t.indexSql),
    ...pg.schema.viewSql,
  ];
}

/**
 * The script that builds a candidate in an empty PostgreSQL database, for
 * `psql -v ON_ERROR_STOP=1 -f FILE`: the schema, then one INSERT per row.
 *
 * @param pg the schema
 * @param database the rows
 * @returns the script, one statement per line (a CREATE TABLE over several)
 */
export function pgScript(pg: PgSchema, database: Candidate): string {
  const lines = ddl(pg).map((s) => `${s};`);
  for (const t of pg.schema.tables) {
    for (const row of database.get(t.name) ?? []) {
      lines.push(`${insertSql(t, pg.sqlName.get(t.name)!, row)};`);
    }
  }
  return `${lines.join("\n")}\n`;
}

async function changes(
  execute: Execute,
  pg: PgSchema,
  database: Candidate,
): Promise<TableChange[]> {
  const out: TableChange[] = [];
  for (const t of pg.schema.tables) {
    const rows = database.get(t.name) ?? [];
    const from = pg.sqlName.get(t.name)!;
    const keyed = keyColumns(t);
    const cols = t.columns.map((c, i) => `${ident(c.name)}::text AS c${i}`).join(", ");
    let same = 0;
    let changed = 0;
    if (rows.length > 0) {
      const lookups = rows.map((row, n) =>
        `(SELECT ${n} AS n, ${cols} FROM ${from} WHERE ${
          keyed.map(({ c, i }) =>
            `${ident(c.name)} IS NOT DISTINCT FROM ${
              pgLiteral(row[i] ?? null, c)
            }::${c.declaredType}`
          ).join(" AND ")
        } LIMIT 1)`
      );
      for (const found of await execute(lookups.join(" UNION ALL "))) {
        const row = rows[Number(found["n"])]!;
        const values = t.columns.map((c, i) => pgValue(found[`c${i}`] as string | null, c));
        if (values.every((v, i) => sameValue(v, row[i] ?? null))) same++;
        else changed++;
      }
    }
    const total = Number((await execute(`SELECT count(*)::int AS n FROM ${from}`))[0]?.["n"] ?? 0);
    out.push(tableChange(t.name, rows.length, same, changed, total));
  }
  return out;
}

/**
 * PGlite databases kept open between searches while {@link keepPgEngines}
 * says so, by value and file version: a `pglite:FILE.sql` is then loaded
 * once, not once per search (`run --counterexamples` searches case after
 * case). A server is opened per search and closed after it.
 */
const shared = new Map<string, Promise<ReferenceDatabase>>();
let keep = false;

/**
 * Keeps PGlite engines (the given database's, the sandbox's) open between
 * searches of this process, or closes them. Off by default: an open PGlite
 * keeps its process alive, so whoever turns it on turns it off.
 *
 * @param on true to keep them; false closes the kept ones
 */
export async function keepPgEngines(on: boolean): Promise<void> {
  keep = on;
  await keepEngine(on);
  if (!on) {
    const open = [...shared.values()];
    shared.clear();
    for (const db of open) {
      const opened = await db.catch(() => undefined);
      if (opened !== undefined && !lent.has(opened)) await opened.close();
    }
    lent.clear();
  }
}

/** Databases their owner lent to the searches: kept, never closed here. */
const lent = new Set<ReferenceDatabase>();

function sharedKey(value: string): string {
  const stat = fs.statSync(value.slice(7), { throwIfNoEntry: false });
  return `${value}\u0000${stat?.mtimeMs}\u0000${stat?.size}`;
}

/**
 * While {@link keepPgEngines} is on: lets the searches on `value` use a
 * PGlite database already open (`run --counterexamples` lends the one its
 * reference SQL runs on), instead of loading it again. Its owner closes it,
 * after turning keepPgEngines off.
 *
 * @param value the `pglite:` value it was opened from
 * @param database the database
 */
export function lendPgDatabase(value: string, database: ReferenceDatabase): void {
  if (!keep || !value.startsWith("pglite:") || database.kind !== "pglite") return;
  lent.add(database);
  shared.set(sharedKey(value), Promise.resolve(database));
}

function openShared(value: string, options: OpenDatabaseOptions): Promise<ReferenceDatabase> {
  if (!keep || !value.startsWith("pglite:")) {
    return openReferenceDatabase(value, { ...options, connections: 1 });
  }
  const key = sharedKey(value);
  let db = shared.get(key);
  if (db === undefined) {
    db = openReferenceDatabase(value, options);
    shared.set(key, db);
    db.catch(() => shared.delete(key));
  }
  return db;
}

/**
 * Opens a PostgreSQL database for a search.
 *
 * @param value `pglite:FILE.sql`, `pglite:DIR` or a `postgres://` URL
 * @param queries the two queries and the options that gave them
 * @param words the queries' constants and names
 * @param random the search's random source (the sample draws from it)
 * @param options how a server is opened (whether a privileged login is allowed)
 * @returns the given database; close it
 * @throws {UsageError} when it cannot be opened, or for a query that writes or does not compile
 */
export async function openPgGiven(
  value: string,
  queries: readonly { readonly sql: string; readonly option: string }[],
  words: QueryWords,
  random: Random,
  options: OpenDatabaseOptions = {},
): Promise<GivenDatabase> {
  const kept = keep && value.startsWith("pglite:");
  const db = await openShared(value, options);
  try {
    const execute: Execute = (sql) => db.execute(sql);
    const pg = await readPgSchema(execute, queries, words.names);
    const rows = await PgRows.read(execute, pg.schema, pg.sqlName, {
      random,
      probes: probesFor(words),
    });
    return {
      schema: pg.schema,
      rows,
      // On PGlite, beside the given database's engine: one process, one compile.
      sandbox: async () =>
        PgSandbox.create(pg.schema, ddl(pg), pg.sqlName, {
          timeoutMs: options.statementTimeoutMs ?? 12_000,
          beside: "engine" in db ? await (db as PgliteDatabase).engine() : undefined,
        }),
      script: (database) => pgScript(pg, database),
      changes: (database) => changes(execute, pg, database),
      close: () => kept ? undefined : db.close(),
    };
  } catch (e) {
    if (!kept) await db.close();
    if (e instanceof UsageError) throw e;
    throw new UsageError(
      `--db ${db.name}: ${(e instanceof Error ? e.message : String(e)).split("\n")[0]}`,
      { cause: e },
    );
  }
}
