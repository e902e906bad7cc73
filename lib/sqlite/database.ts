/**
 * Opening SQLite databases read-only through the WASM engine (statements
 * are in statement.ts).
 *
 * @module
 */
import type { Database as Oo1Database } from "@sqlite.org/sqlite-wasm";
import { SqliteOpenError, SqliteQueryError } from "../errors.ts";
import { installReadOnlyVfs, READ_ONLY_VFS, withPageOne } from "./file_vfs.ts";
import { checkSqliteFile, hotJournalError } from "./file_check.ts";
import { loadSqlite, type Ptr, type Sqlite } from "./wasm.ts";
import { guardConnection, onStepStart } from "./guard.ts";
import { type SqliteParams, Statement } from "./statement.ts";
import type { SqliteRow } from "./value.ts";

const SQLITE_READONLY_ROLLBACK = 8 | (3 << 8);
const SQLITE_DBCONFIG_DQS_DML = 1013;
const SQLITE_DBCONFIG_DQS_DDL = 1014;

/**
 * How a connection reads SQL.
 *
 * @example
 * ```ts
 * import { openMemoryDatabase, type SqlDialectOptions } from "./database.ts";
 * const strict: SqlDialectOptions = { strictQuotes: true };
 * const db = await openMemoryDatabase(strict);
 * let refused = false;
 * try {
 *   db.query(`SELECT "x" AS v`);
 * } catch {
 *   refused = true; // no such column: "x"
 * }
 * db.close();
 * refused; // true
 * ```
 */
export interface SqlDialectOptions {
  /**
   * Refuse double-quoted string literals (`WHERE name = "Paris"`): a
   * double-quoted name must then be an identifier. Default false: like the
   * sqlite3 library's default build, and Python's sqlite3, a double-quoted
   * name that matches no column is read as a string, in queries and in the
   * schema (SQLITE_DBCONFIG_DQS_DML and _DDL on).
   */
  readonly strictQuotes?: boolean | undefined;
}

/**
 * An open SQLite connection: a file opened read-only through the read-only
 * VFS, or a private in-memory database.
 *
 * @example
 * ```ts
 * import { openDatabase } from "./database.ts";
 * const db = await openDatabase("examples/chinook/Chinook_Sqlite.sqlite");
 * db.query("SELECT Name FROM Genre WHERE GenreId = ?", [1]); // [{ Name: "Rock" }]
 * db.close();
 * ```
 */
export class Database {
  readonly #sqlite: Sqlite;
  readonly #db: Oo1Database;
  readonly #statements = new Set<Statement>();
  #closed = false;
  /** The file's path as given, or null for an in-memory database. */
  readonly path: string | null;

  /** @internal Use {@link openDatabase} or {@link openMemoryDatabase}. */
  constructor(sqlite: Sqlite, db: Oo1Database, path: string | null) {
    this.#sqlite = sqlite;
    this.#db = db;
    this.path = path;
  }

  /** The C handle, for code in lib/sqlite that calls the C API directly. */
  get handle(): Ptr {
    return this.#db.pointer as unknown as Ptr;
  }

  /** The SQLite library version, e.g. "3.54.1". */
  get sqliteVersion(): string {
    return this.#sqlite.capi.sqlite3_libversion();
  }

  /**
   * Compiles one SQL statement.
   *
   * @param sql the statement
   * @returns the prepared statement; finalize it, or close the database
   */
  prepare(sql: string): Statement {
    const { capi, wasm } = this.#sqlite;
    const mark = wasm.pstack.pointer;
    // The text goes into the heap ourselves: only then does pzTail point at
    // memory that is still there, to see whether a second statement follows.
    const text = wasm.allocCString(sql);
    try {
      const pp = wasm.pstack.allocPtr();
      const pTail = wasm.pstack.allocPtr();
      const rc = capi.sqlite3_prepare_v2(this.handle, text, -1, pp, pTail);
      if (rc !== 0) throw this.errorFor(sql, rc);
      const stmt = wasm.peekPtr(pp);
      if (!stmt) throw new SqliteQueryError(sql, 21, "SQL has no statement");
      const tail = wasm.peekPtr(pTail);
      if (this.#startsStatement(tail)) {
        wasm.exports.sqlite3_finalize(stmt);
        const next = wasm.cstrToJs(tail).trim().replace(/\s+/g, " ").slice(0, 40);
        throw new SqliteQueryError(
          sql,
          1,
          `SQL has more than one statement (the second starts "${next}"); run one statement at a time`,
        );
      }
      const s = new Statement(this.#sqlite, this, stmt, sql);
      this.#statements.add(s);
      return s;
    } finally {
      wasm.pstack.restore(mark);
      wasm.dealloc(text);
    }
  }

  // Whether the text at `p` holds more than spaces, comments and semicolons.
  #startsStatement(p: Ptr): boolean {
    const { capi, wasm } = this.#sqlite;
    if (wasm.heap8u()[p] === 0) return false;
    const pp = wasm.pstack.allocPtr();
    const rc = capi.sqlite3_prepare_v2(this.handle, p, -1, pp, null);
    const next = wasm.peekPtr(pp);
    if (next) wasm.exports.sqlite3_finalize(next);
    return rc !== 0 || next !== 0;
  }

  /**
   * Runs one statement and returns every row as an object.
   *
   * @param sql the statement
   * @param params values for `?` placeholders
   * @returns the rows
   */
  query(sql: string, params: SqliteParams = []): SqliteRow[] {
    const stmt = this.prepare(sql);
    try {
      if (params.length > 0) stmt.bind(params);
      const out: SqliteRow[] = [];
      while (stmt.step()) out.push(stmt.object());
      return out;
    } finally {
      stmt.finalize();
    }
  }

  /**
   * Runs one or more statements, discarding rows.
   *
   * @param sql the statements
   */
  exec(sql: string): void {
    onStepStart?.();
    try {
      this.#db.exec(sql);
    } catch (e) {
      throw this.errorFor(sql, this.#sqlite.wasm.exports.sqlite3_errcode(this.handle), e);
    }
  }

  /** Closes the connection and every statement still open on it. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const s of [...this.#statements]) s.finalize();
    this.#db.close();
  }

  /** @internal */
  forget(stmt: Statement): void {
    this.#statements.delete(stmt);
  }

  /** @internal The error to throw for result code `rc` on `sql`. */
  errorFor(sql: string, rc: number, cause?: unknown): Error {
    const message = this.#sqlite.capi.sqlite3_errmsg(this.handle);
    const primary = rc & 0xff;
    if (this.path !== null && (primary === 11 || primary === 26 || primary === 10)) {
      const reason = primary === 10 ? "truncated" : primary === 26 ? "not-sqlite" : "corrupt";
      return new SqliteOpenError(
        this.path,
        reason,
        // Reads take no locks, so a program writing the file meanwhile looks
        // like damage: say so, since that is the cause a person can fix.
        `Cannot read "${this.path}": ${message}; the file is damaged, not a complete SQLite database, or was written by another program while it was read (copy it, or stop the writer, and retry)`,
        { cause },
      );
    }
    return new SqliteQueryError(sql, primary, message);
  }
}

/**
 * Opens a SQLite file read-only, without copying it into memory and without
 * writing, creating or locking anything on disk. A WAL database is read with
 * the commits still in its `-wal` file.
 *
 * @param path the database file
 * @param options how SQL is read: double-quoted strings are accepted unless
 * `strictQuotes` (see {@link SqlDialectOptions})
 * @returns the open database; close it when done
 * @throws {SqliteOpenError} when the file is missing, a directory, not SQLite,
 * truncated, corrupt or has a hot rollback journal beside it
 * @example
 * ```ts
 * import { openDatabase } from "./database.ts";
 * const db = await openDatabase("examples/chinook/Chinook_Sqlite.sqlite");
 * db.query("SELECT count(*) AS n FROM Album"); // [{ n: 347 }]
 * db.close();
 * ```
 */
export async function openDatabase(
  path: string,
  options: SqlDialectOptions = {},
): Promise<Database> {
  return await openReadOnly(path, options, null);
}

/**
 * Opens a SQLite file as {@link openDatabase} does, the connection reading
 * `pageOne` as the file's page 1 (see withPageOne in file_vfs.ts), or the
 * file's own when null.
 *
 * @param path the database file
 * @param options how SQL is read
 * @param pageOne page 1 for this connection, or null
 * @returns the open database; close it when done
 */
export async function openReadOnly(
  path: string,
  options: SqlDialectOptions,
  pageOne: Uint8Array | null,
): Promise<Database> {
  checkSqliteFile(path);
  const sqlite = await loadSqlite();
  await installReadOnlyVfs(sqlite);
  const oo1 = (sqlite as unknown as { oo1: { DB: new (o: object) => Oo1Database } }).oo1;
  let raw: Oo1Database;
  try {
    raw = withPageOne(
      path,
      pageOne,
      () => new oo1.DB({ filename: path, flags: "r", vfs: READ_ONLY_VFS }),
    );
  } catch (e) {
    throw new SqliteOpenError(path, "unreadable", `Cannot open "${path}": ${errorText(e)}`, {
      cause: e,
    });
  }
  const db = new Database(sqlite, raw, path);
  try {
    guardConnection(sqlite, db.handle);
    setQuotes(sqlite, db, options);
    // Exclusive mode before the first read: SQLite then keeps the WAL index in
    // heap memory (our VFS has no shared memory), and takes no file locks
    // through us anyway. Temp tables and sorts go to scratch files in the
    // system temp folder (temp_files.ts): in memory, SQLite's sorter would
    // never spill, and a GROUP BY over a big keyless table would fill the heap.
    db.exec("PRAGMA locking_mode=EXCLUSIVE; PRAGMA temp_store=FILE");
    db.query("SELECT count(*) FROM sqlite_schema");
  } catch (e) {
    // A journal that turned hot after checkSqliteFile() looked: SQLite wants
    // to roll it back and cannot, read-only.
    const rollback = sqlite.wasm.exports.sqlite3_extended_errcode(db.handle) ===
      SQLITE_READONLY_ROLLBACK;
    db.close();
    if (rollback) throw hotJournalError(path, e);
    if (e instanceof SqliteOpenError) throw e;
    throw new SqliteOpenError(path, "corrupt", `Cannot open "${path}": ${errorText(e)}`, {
      cause: e,
    });
  }
  return db;
}

/**
 * Opens a private, empty in-memory database.
 *
 * @param options how SQL is read (see {@link SqlDialectOptions})
 * @returns the database
 * @example
 * ```ts
 * import { openMemoryDatabase } from "./database.ts";
 * const db = await openMemoryDatabase();
 * db.query("SELECT 1 + 1 AS two"); // [{ two: 2 }]
 * db.close();
 * ```
 */
export async function openMemoryDatabase(options: SqlDialectOptions = {}): Promise<Database> {
  const sqlite = await loadSqlite();
  const oo1 = (sqlite as unknown as { oo1: { DB: new (o: object) => Oo1Database } }).oo1;
  const db = new Database(sqlite, new oo1.DB({ filename: ":memory:", flags: "c" }), null);
  guardConnection(sqlite, db.handle);
  setQuotes(sqlite, db, options);
  return db;
}

/**
 * Opens a private, empty database in a scratch file (the read-only file
 * layer's temporary files: on disk, removed when closed), which other files
 * can be attached to read-only with {@link Database.exec}'s `ATTACH`: where
 * a copy of a file's rows is kept that may be bigger than memory (a UTF-16
 * file's rows in UTF-8, for the engine, lib/diff/_utf8_copy.ts).
 *
 * @returns the database; close it when done
 * @example
 * ```ts
 * import { openScratchDatabase } from "./database.ts";
 * const db = await openScratchDatabase();
 * db.exec("CREATE TABLE t (a); INSERT INTO t VALUES (1)");
 * db.query("SELECT a FROM t"); // [{ a: 1 }]
 * db.close();
 * ```
 */
export async function openScratchDatabase(): Promise<Database> {
  const sqlite = await loadSqlite();
  await installReadOnlyVfs(sqlite);
  const oo1 = (sqlite as unknown as { oo1: { DB: new (o: object) => Oo1Database } }).oo1;
  const db = new Database(
    sqlite,
    new oo1.DB({ filename: "", flags: "c", vfs: READ_ONLY_VFS }),
    null,
  );
  try {
    guardConnection(sqlite, db.handle);
    setQuotes(sqlite, db, {});
    db.exec("PRAGMA locking_mode=EXCLUSIVE; PRAGMA temp_store=FILE; PRAGMA cache_size=-2000");
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

/**
 * Double-quoted string literals, on unless refused. The bundled build has
 * them off (SQLITE_DQS=0), while the sqlite3 library's default build and
 * Python's sqlite3, which the public benchmarks' evaluators use, accept
 * them: a fifth of Spider's gold is written that way.
 */
function setQuotes(sqlite: Sqlite, db: Database, options: SqlDialectOptions): void {
  const on = options.strictQuotes === true ? 0 : 1;
  for (const op of [SQLITE_DBCONFIG_DQS_DML, SQLITE_DBCONFIG_DQS_DDL]) {
    const rc = sqlite.capi.sqlite3_db_config(db.handle as never, op, on, 0);
    if (rc !== 0) throw new Error(`sqlite3_db_config(${op}) failed with code ${rc}`);
  }
}

function errorText(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.replace(/^SQLITE_[A-Z_]+: sqlite3 result code \d+: /, "");
}
