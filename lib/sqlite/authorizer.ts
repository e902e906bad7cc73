/**
 * What a SQL text would do on a SQLite database, asked of SQLite itself:
 * each statement is compiled (`sqlite3_prepare_v2`, never stepped) on the
 * real schema with an authorizer callback installed, which SQLite calls for
 * every table and column read, every function called, and every write,
 * DDL, PRAGMA, ATTACH or transaction statement; `sqlite3_stmt_readonly`
 * says whether the statement writes. The database is opened read-only
 * through {@link openDatabase}, so nothing about the file changes.
 *
 * @module
 */
import { type Database, openDatabase } from "./database.ts";
import { loadSqlite, type Ptr } from "./wasm.ts";

/** One call of the authorizer: the action and its four text arguments. */
export interface AuthorizerCall {
  /** The action code's name without `SQLITE_`: READ, SELECT, FUNCTION, INSERT, PRAGMA, ... */
  readonly action: string;
  /** Per action: READ/UPDATE/INSERT/DELETE the table, FUNCTION null, PRAGMA the pragma. */
  readonly arg1: string | null;
  /** READ/UPDATE the column (empty when no column is read), FUNCTION the name. */
  readonly arg2: string | null;
  /** The schema (`main`, `temp`, an attached name), when SQLite gives one. */
  readonly database: string | null;
  /** The inner-most view, trigger or CTE the access comes from, or null for the SQL itself. */
  readonly source: string | null;
}

/** One compiled statement. */
export interface StatementAccess {
  /** `sqlite3_stmt_readonly`: the statement does not write the database file. */
  readonly readonly: boolean;
  readonly calls: readonly AuthorizerCall[];
}

/** The statements of a SQL text, or why SQLite cannot compile it on this schema. */
export type SqliteAccess =
  | {
    readonly ok: true;
    readonly statements: readonly StatementAccess[];
    /** The views of the schema (main and temp), to tell a view from a CTE in `source`. */
    readonly views: readonly string[];
  }
  | { readonly ok: false; readonly error: string };

/** Authorizer action codes (sqlite3.h). */
const ACTIONS: Record<number, string> = {
  1: "CREATE_INDEX",
  2: "CREATE_TABLE",
  3: "CREATE_TEMP_INDEX",
  4: "CREATE_TEMP_TABLE",
  5: "CREATE_TEMP_TRIGGER",
  6: "CREATE_TEMP_VIEW",
  7: "CREATE_TRIGGER",
  8: "CREATE_VIEW",
  9: "DELETE",
  10: "DROP_INDEX",
  11: "DROP_TABLE",
  12: "DROP_TEMP_INDEX",
  13: "DROP_TEMP_TABLE",
  14: "DROP_TEMP_TRIGGER",
  15: "DROP_TEMP_VIEW",
  16: "DROP_TRIGGER",
  17: "DROP_VIEW",
  18: "INSERT",
  19: "PRAGMA",
  20: "READ",
  21: "SELECT",
  22: "TRANSACTION",
  23: "UPDATE",
  24: "ATTACH",
  25: "DETACH",
  26: "ALTER_TABLE",
  27: "REINDEX",
  28: "ANALYZE",
  29: "CREATE_VTABLE",
  30: "DROP_VTABLE",
  31: "FUNCTION",
  32: "SAVEPOINT",
  33: "RECURSIVE",
};

interface AuthCapi {
  sqlite3_set_authorizer(
    db: Ptr,
    callback:
      | ((
        user: Ptr,
        code: number,
        a: string | null,
        b: string | null,
        c: string | null,
        d: string | null,
      ) => number)
      | 0,
    user: Ptr,
  ): number;
  sqlite3_stmt_readonly(stmt: Ptr): number;
  sqlite3_errmsg(db: Ptr): string;
}

const opened = new Map<string, Promise<Database>>();
const views = new WeakMap<Database, string[]>();

function viewsOf(db: Database): string[] {
  let list = views.get(db);
  if (list === undefined) {
    list = db.query("SELECT name FROM sqlite_schema WHERE type = 'view'").map((r) =>
      String(r["name"])
    );
    views.set(db, list);
  }
  return list;
}

/**
 * The database at a path, opened read-only once per process and kept open
 * for later questions.
 */
function database(path: string): Promise<Database> {
  let db = opened.get(path);
  if (db === undefined) {
    db = openDatabase(path);
    db.catch(() => opened.delete(path));
    opened.set(path, db);
  }
  return db;
}

/**
 * Compiles every statement of a SQL text on a SQLite file and records what
 * SQLite's authorizer reports for each. Nothing runs.
 *
 * @param path the SQLite file (opened read-only)
 * @param sql the SQL text
 * @returns the statements, or SQLite's error
 * @throws SqliteOpenError when the file cannot be opened
 */
export async function sqliteAccess(path: string, sql: string): Promise<SqliteAccess> {
  const db = await database(path);
  const sqlite = await loadSqlite();
  const { wasm } = sqlite;
  const capi = sqlite.capi as unknown as AuthCapi & typeof sqlite.capi;
  const handle = db.handle;
  const schemaViews = viewsOf(db); // before the authorizer is installed: it would see this read
  let calls: AuthorizerCall[] = [];
  const statements: StatementAccess[] = [];
  const text = wasm.allocCString(sql);
  const mark = wasm.pstack.pointer;
  capi.sqlite3_set_authorizer(handle, (_user, code, a, b, c, d) => {
    // A NULL argument arrives as 0 (the binding converts only non-null pointers).
    const text = (v: unknown): string | null => (typeof v === "string" ? v : null);
    calls.push({
      action: ACTIONS[code] ?? String(code),
      arg1: text(a),
      arg2: text(b),
      database: text(c) || null,
      source: text(d) || null,
    });
    return 0; // SQLITE_OK: allow, so the whole statement is compiled and seen
  }, 0);
  try {
    const pp = wasm.pstack.allocPtr();
    const pTail = wasm.pstack.allocPtr();
    let p: Ptr = text;
    while (wasm.heap8u()[p] !== 0) {
      calls = [];
      const rc = capi.sqlite3_prepare_v2(handle, p, -1, pp, pTail);
      if (rc !== 0) return { ok: false, error: capi.sqlite3_errmsg(handle) };
      const stmt = wasm.peekPtr(pp);
      const next = wasm.peekPtr(pTail);
      if (stmt) {
        statements.push({ readonly: capi.sqlite3_stmt_readonly(stmt) !== 0, calls });
        wasm.exports.sqlite3_finalize(stmt);
      }
      if (next === p) break;
      p = next;
    }
    return { ok: true, statements, views: schemaViews };
  } finally {
    capi.sqlite3_set_authorizer(handle, 0, 0);
    wasm.pstack.restore(mark);
    wasm.dealloc(text);
  }
}
