/**
 * The given database as a SQLite file: opened read-only, the queries
 * compiled on it, its schema read (`schema.ts`), its rows sampled
 * (`real_data.ts`), candidates tried in an in-memory SQLite database
 * (`sandbox.ts`) and shown as a script SQLite runs (`render.ts`).
 *
 * @module
 */
import { openDatabase } from "../sqlite/database.ts";
import type { GivenDatabase } from "./given.ts";
import { probesFor } from "./pools.ts";
import { RealData } from "./real_data.ts";
import { changesFromGiven, databaseScript } from "./render.ts";
import { Sandbox } from "./sandbox.ts";
import { readSearchSchema } from "./schema.ts";
import type { Random } from "./random.ts";
import type { QueryWords } from "./_tokens.ts";

/**
 * Opens a SQLite file for a search.
 *
 * @param path the file, only ever read
 * @param queries the two queries and the options that gave them
 * @param words the queries' constants and names
 * @param random the search's random source (the sample draws from it)
 * @returns the given database; close it
 * @throws {UsageError} for a query that writes or reads a virtual table
 * @throws {SqliteQueryError} for a query that does not compile on the file
 */
export async function openSqliteGiven(
  path: string,
  queries: readonly { readonly sql: string; readonly option: string }[],
  words: QueryWords,
  random: Random,
): Promise<GivenDatabase> {
  const db = await openDatabase(path);
  try {
    for (const q of queries) db.prepare(q.sql).finalize();
    const schema = readSearchSchema(db, queries, words.names);
    const rows = new RealData(db, schema.tables, { random, probes: probesFor(words) });
    return {
      schema,
      rows,
      sandbox: () => Sandbox.create(schema),
      script: (database) => databaseScript(schema, database),
      changes: (database) => changesFromGiven(db, schema, database),
      close: () => db.close(),
    };
  } catch (e) {
    db.close();
    throw e;
  }
}
