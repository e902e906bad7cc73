/**
 * SQLite's authorizer report of one SQL text of a trace, compiled once per
 * trace and database and shared by every rule that asks (as `_parse.ts`
 * shares the parse).
 *
 * @module
 */
import type { Trace } from "../lib/eval/trace.ts";
import { type SqliteAccess, sqliteAccess } from "../lib/sqlite/authorizer.ts";

const byTrace = new WeakMap<Trace, Map<string, Promise<SqliteAccess>>>();

/**
 * What SQLite reports for the SQL on the database, once per trace.
 *
 * @param trace the trace the SQL comes from
 * @param sql the SQL text
 * @param database the SQLite file (opened read-only)
 * @returns the report (a shared promise)
 */
export function traceSqliteAccess(
  trace: Trace,
  sql: string,
  database: string,
): Promise<SqliteAccess> {
  let forTrace = byTrace.get(trace);
  if (forTrace === undefined) {
    forTrace = new Map();
    byTrace.set(trace, forTrace);
  }
  const key = `${database}\u0000${sql}`;
  let access = forTrace.get(key);
  if (access === undefined) {
    access = sqliteAccess(database, sql);
    forTrace.set(key, access);
  }
  return access;
}
