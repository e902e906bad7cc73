/**
 * The `sqlite` service of the worker pool (lib/isolation): SQL we did not
 * write (reference SQL, predictions, agents' SQL, the scores' queries) run
 * on a SQLite file in a worker, one statement per job.
 *
 * Each worker keeps one read-only connection per database (the last
 * {@link OPEN_MOST} used), so the common case pays the open once. Every
 * connection runs under the thread's guard (guard.ts: value, statement and
 * memory limits, defensive mode, the job's deadline) and an authorizer
 * that refuses what a read-only check never needs and what would outlive
 * the statement: ATTACH and DETACH (files the case does not name), TEMP
 * tables, views, triggers and indexes, virtual tables, transactions and
 * savepoints. A statement that runs a PRAGMA may change the connection
 * (`PRAGMA case_sensitive_like=1`), so the connection is closed after it
 * and the next job opens a fresh one: no case's SQL can change what
 * another case's SQL sees.
 *
 * A result is kept up to the limit of result bytes (8 per number or NULL,
 * a TEXT's or BLOB's length, plus 8 per value); past it the rows are only
 * counted (for half the time the statement has left at most), and the job
 * fails with the count: exact, or "at least N" when the counting stopped.
 *
 * @module
 */
import { SqliteQueryError } from "../errors.ts";
import type { JobContext, Service } from "../isolation/service.ts";
import { tempCapMb } from "../isolation/temp_storage.ts";
import { type Database, openDatabase } from "./database.ts";
import { guardJob } from "./guard.ts";
import type { Statement } from "./statement.ts";
import { loadSqlite, type Ptr, type Sqlite } from "./wasm.ts";
import type { SqliteValue } from "./value.ts";

/** Connections a worker keeps open, the least recently used closed first. */
export const OPEN_MOST = 32;

/**
 * A `query` job's arguments.
 *
 * @example
 * ```ts
 * import type { QueryArgs } from "./pool_service.ts";
 * const args: QueryArgs = { path: "examples/chinook/Chinook_Sqlite.sqlite", sql: "SELECT 1", stored: true };
 * ```
 */
export interface QueryArgs {
  /** The database file, opened read-only. */
  readonly path: string;
  /** One statement. */
  readonly sql: string;
  /** What the worker keeps the connection under (default the path). */
  readonly key?: string | undefined;
  /** Refuse double-quoted string literals. */
  readonly strictQuotes?: boolean | undefined;
  /**
   * Keep each value's storage class: an INTEGER is always a bigint (the
   * scores compare Python values); and SQL with no statement gives no rows.
   */
  readonly stored?: boolean | undefined;
}

/**
 * A `query` job's answer: the column names and the values, row after row.
 *
 * @example
 * ```ts
 * import type { QueryReply } from "./pool_service.ts";
 * const reply: QueryReply = { columns: ["a", "b"], values: [1, "x", 2, "y"] };
 * reply.values.length / reply.columns.length; // 2 rows
 * ```
 */
export interface QueryReply {
  readonly columns: readonly string[];
  readonly values: readonly (SqliteValue | bigint)[];
}

/** Authorizer action codes a read-only check never needs (sqlite3.h), as a person names them. */
const REFUSED: Readonly<Record<number, string>> = {
  3: "CREATE TEMP INDEX",
  4: "CREATE TEMP TABLE",
  5: "CREATE TEMP TRIGGER",
  6: "CREATE TEMP VIEW",
  22: "a transaction (BEGIN, COMMIT, ROLLBACK)",
  24: "ATTACH",
  25: "DETACH",
  29: "CREATE VIRTUAL TABLE",
  30: "DROP VIRTUAL TABLE",
  32: "SAVEPOINT",
};
const SQLITE_PRAGMA = 19;
const SQLITE_DENY = 1;

const SQLITE_NOMEM = 7;
const SQLITE_INTERRUPT = 9;
const SQLITE_FULL = 13;
const SQLITE_TOOBIG = 18;
const SQLITE_AUTH = 23;

/** Above this much WebAssembly memory, a worker asks to be replaced after its job. */
const RETIRE_BYTES = 96 * 2 ** 20;

interface Connection {
  readonly db: Database;
  /** What the authorizer refused during the last prepare. */
  refused: string | undefined;
  /** A PRAGMA ran: the connection may differ from a fresh one. */
  dirty: boolean;
}

interface AuthCapi {
  sqlite3_set_authorizer(
    db: Ptr,
    callback: (user: Ptr, code: number, a: string | null, b: string | null) => number,
    user: Ptr,
  ): number;
  sqlite3_get_autocommit(db: Ptr): number;
}

/** Connections by key, most recently used last: open, or still opening. */
const open = new Map<string, Connection | Promise<Connection>>();
/** The engine, once loaded: the common case answers without an await. */
let engine: Sqlite | undefined;

async function connect(path: string, strictQuotes: boolean): Promise<Connection> {
  const sqlite = engine ??= await loadSqlite();
  const db = await openDatabase(path, { strictQuotes });
  const connection: Connection = { db, refused: undefined, dirty: false };
  (sqlite.capi as unknown as AuthCapi).sqlite3_set_authorizer(db.handle, (_u, code, a) => {
    const refused = REFUSED[code];
    if (refused !== undefined) {
      connection.refused = code === 24 && typeof a === "string" ? `ATTACH '${a}'` : refused;
      return SQLITE_DENY;
    }
    if (code === SQLITE_PRAGMA) connection.dirty = true;
    return 0;
  }, 0);
  return connection;
}

/**
 * The connection of a key: the open one at once (no await: an await in a
 * Bun worker waits for its event loop, about a millisecond), or the promise
 * of one being opened.
 */
function connection(
  path: string,
  strictQuotes: boolean,
  name: string,
): Connection | Promise<Connection> {
  const key = `${strictQuotes ? 1 : 0}:${name}`;
  const c = open.get(key);
  if (c !== undefined) {
    // Most recently used last.
    open.delete(key);
    open.set(key, c);
    return c;
  }
  const opening = connect(path, strictQuotes).then((done) => {
    if (open.get(key) === opening) open.set(key, done);
    return done;
  });
  opening.catch(() => open.delete(key));
  open.set(key, opening);
  while (open.size > OPEN_MOST) {
    const [oldest, old] = open.entries().next().value!;
    open.delete(oldest);
    void Promise.resolve(old).then((o) => o.db.close(), () => {});
  }
  return opening;
}

function forget(name: string, strictQuotes: boolean, c: Connection): void {
  open.delete(`${strictQuotes ? 1 : 0}:${name}`);
  c.db.close();
}

/** Only white space, comments and semicolons: no statement to run. */
function isEmptySql(sql: string): boolean {
  return sql.replace(/--[^\n]*(\n|$)|\/\*[\s\S]*?(\*\/|$)|[\s;]/g, "") === "";
}

const MB = 2 ** 20;

/** The job's error for what SQLite said, in terms a person can act on. */
function explained(e: unknown, c: Connection, context: JobContext, sql: string): unknown {
  if (!(e instanceof SqliteQueryError)) return e;
  const mb = (bytes: number) => Math.round(bytes / MB);
  switch (e.code) {
    case SQLITE_AUTH:
      return c.refused === undefined ? e : new SqliteQueryError(
        sql,
        SQLITE_AUTH,
        `${c.refused} is refused: the SQL may only read the case's database`,
      );
    case SQLITE_INTERRUPT:
      return new SqliteQueryError(sql, SQLITE_INTERRUPT, context.stopReason() ?? "interrupted");
    case SQLITE_TOOBIG:
      // Ours (the result's size) says so already; SQLite's is about one value.
      if (e.message.startsWith("the result")) return e;
      return new SqliteQueryError(
        sql,
        SQLITE_TOOBIG,
        `a value is larger than ${
          mb(context.limits.resultBytes)
        } MB (--max-result-mb raises the limit)`,
      );
    case SQLITE_NOMEM:
      context.retire();
      return new SqliteQueryError(
        sql,
        SQLITE_NOMEM,
        `the query needs more than the ${
          mb(context.limits.memoryBytes)
        } MB of memory a SQLite engine may use (--max-result-mb raises the limit)`,
      );
    case SQLITE_FULL:
      return new SqliteQueryError(
        sql,
        SQLITE_FULL,
        `the query's temporary files passed the ${tempCapMb()} MB limit (--max-temp-mb raises it)`,
      );
  }
  return e;
}

/**
 * One step; once the result is past its limit (`over()`), a deadline while
 * the rows are only being counted fails with the size, not the deadline.
 */
function stepCounting(
  stmt: Statement,
  over: () => boolean,
  tooLarge: (counted: boolean) => Error,
): boolean {
  try {
    return stmt.step();
  } catch (e) {
    if (over() && e instanceof SqliteQueryError && e.code === SQLITE_INTERRUPT) {
      throw tooLarge(false);
    }
    throw e;
  }
}

function query(args: QueryArgs, context: JobContext): QueryReply | Promise<QueryReply> {
  if (args.stored === true && isEmptySql(args.sql)) return { columns: [], values: [] };
  const c = connection(args.path, args.strictQuotes === true, args.key ?? args.path);
  return c instanceof Promise ? c.then((open) => run(open, args, context)) : run(c, args, context);
}

function run(c: Connection, args: QueryArgs, context: JobContext): QueryReply {
  const strict = args.strictQuotes === true;
  const name = args.key ?? args.path;
  c.refused = undefined;
  const limit = context.limits.resultBytes;
  try {
    const stmt = c.db.prepare(args.sql);
    try {
      const columns = [...stmt.columnNames];
      const n = columns.length;
      const values: (SqliteValue | bigint)[] = [];
      let bytes = 0;
      let rows = 0;
      const tooLarge = (counted: boolean) =>
        new SqliteQueryError(
          args.sql,
          SQLITE_TOOBIG,
          `the result is larger than ${Math.round(limit / MB)} MB (${
            counted ? "" : "at least "
          }${rows} rows of ${n} column(s)); --max-result-mb raises the limit`,
        );
      // Past the limit the rows are only counted, for half the time left
      // at most: the size is the answer, and it must not lose to the deadline.
      let countUntil = Infinity;
      while (stepCounting(stmt, () => bytes > limit, tooLarge)) {
        rows++;
        if (bytes > limit) {
          if (performance.now() > countUntil) throw tooLarge(false);
          continue;
        }
        for (let i = 0; i < n; i++) {
          let v: SqliteValue | bigint = stmt.value(i);
          if (typeof v === "number") {
            if (args.stored === true && stmt.storageClass(i) === "integer") v = BigInt(v);
            bytes += 16;
          } else if (typeof v === "string") bytes += 8 + v.length;
          else if (v instanceof Uint8Array) bytes += 8 + v.byteLength;
          else bytes += 16;
          values.push(v);
        }
        if (bytes > limit) {
          values.length = 0;
          const now = performance.now();
          countUntil = now + Math.max(0, Math.min(context.deadline, 1e15) - now) / 2;
        }
      }
      if (bytes > limit) throw tooLarge(true);
      // One long step that no progress handler saw may end past the
      // deadline: its answer is late all the same.
      if (context.stopRequested()) {
        throw new SqliteQueryError(args.sql, SQLITE_INTERRUPT, context.stopReason()!);
      }
      return { columns, values };
    } finally {
      stmt.finalize();
    }
  } catch (e) {
    throw explained(e, c, context, args.sql);
  } finally {
    const sqlite = engine!;
    const inTransaction = (sqlite.capi as unknown as AuthCapi).sqlite3_get_autocommit(
      c.db.handle,
    ) === 0;
    if (c.dirty || inTransaction) forget(name, strict, c);
    if (sqlite.wasm.heap8u().byteLength > RETIRE_BYTES) context.retire();
  }
}

/**
 * Runs one statement we did not write as the `query` operation does (the
 * worker's guarded connection, the authorizer, the limits), for other
 * services of the same worker.
 *
 * @param args the file and the statement
 * @param context the job it runs for
 * @param withinMs the statement's own deadline, sooner than the job's
 * @returns the columns and values
 */
export async function runUntrusted(
  args: QueryArgs,
  context: JobContext,
  withinMs: number = Infinity,
): Promise<QueryReply> {
  const deadline = Math.min(context.deadline, performance.now() + withinMs);
  let reason: "deadline" | "cancelled" | undefined;
  const bounded: JobContext = {
    ...context,
    deadline,
    stopRequested: () => {
      if (reason === undefined && context.stopRequested()) reason = context.stopReason();
      if (reason === undefined && performance.now() > deadline) reason = "deadline";
      return reason !== undefined;
    },
    stopReason: () => reason,
  };
  guardJob(bounded);
  try {
    return await query(args, bounded);
  } finally {
    guardJob(context);
  }
}

/**
 * The service: `query` ({@link QueryArgs} to {@link QueryReply}), `check`
 * (opens the database, so a missing or damaged file fails before any case)
 * and `warm` (loads the engine).
 *
 * @example
 * ```ts ignore
 * // in a worker (lib/isolation/worker.ts loads it):
 * const reply = await service.run("query", { path, sql: "SELECT 1" }, job);
 * ```
 */
export const service: Service = {
  run(op: string, args: unknown, context: JobContext): unknown {
    guardJob(context);
    const a = args as QueryArgs;
    if (op === "query") return query(a, context);
    if (op === "warm") return loadSqlite().then((s) => (engine = s, true));
    if (op === "check") {
      return Promise.resolve(connection(a.path, a.strictQuotes === true, a.key ?? a.path)).then(
        () => true,
      );
    }
    throw new Error(`the sqlite service has no operation "${op}"`);
  },
  async close(): Promise<void> {
    for (const c of open.values()) await Promise.resolve(c).then((o) => o.db.close(), () => {});
    open.clear();
  },
};
