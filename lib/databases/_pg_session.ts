/**
 * One session with a PostgreSQL server for statements nobody here wrote,
 * and the few sessions a database keeps.
 *
 * A statement runs as four messages sent at once on the session's one
 * connection: `BEGIN TRANSACTION READ ONLY`, the statement (extended
 * protocol: one statement only), `ROLLBACK`, `DISCARD ALL`. So nothing the
 * statement did outlives it, not even what a rollback keeps (a prepared
 * statement, an advisory lock, a session setting made outside the
 * transaction, a LISTEN): the next statement on the session starts as a new
 * connection would.
 *
 * What no statement can undo is set when the connection opens, in its
 * startup packet: `default_transaction_read_only` and `statement_timeout`
 * (a connection the server closed is opened again with them, and `DISCARD
 * ALL` goes back to them).
 *
 * What the server cannot bound, the client does:
 *
 * - the bytes a statement's answer may take (a recursive query with no end
 *   sends rows until the timeout; `repeat('x', 1e9)` is one gigabyte): the
 *   connection's socket counts them, and past the limit it is closed and the
 *   statement fails as "result larger than N MB";
 * - the deadline: `statement_timeout` ends a statement on time; a cancel
 *   request follows two seconds later, and three seconds after that the
 *   socket is closed.
 *
 * A session whose connection closed (the server was restarted, or a
 * statement ran `pg_terminate_backend(pg_backend_pid())`) is dropped and a
 * new one opens for the next statement: only the statement that was running
 * fails.
 *
 * @module
 */
import * as net from "node:net";
import * as tls from "node:tls";
import process from "node:process";
import type { Sql } from "postgres";
import { rowWeight, tooLargeMessage } from "./result_limit.ts";

/** What every session of a database is opened with. */
export interface SessionSettings {
  /** The URL as given (postgres.js reads the user, password, database and query options). */
  readonly url: string;
  /** Startup parameters: the ones nothing may change come last and win. */
  readonly connection: Readonly<Record<string, string>>;
  /** postgres.js's custom types (bigint, dates as text). */
  readonly types: Record<string, unknown>;
  /** The statement timeout. */
  readonly timeoutMs: number;
  /** The most bytes one statement's answer may take. */
  readonly resultLimitBytes: number;
}

/** A statement's answer: its column names and rows as value lists. */
export interface SessionRows {
  readonly columns: readonly string[];
  readonly rows: unknown[][];
}

/** Raised when a statement's answer passes the limit. */
export class ResultTooLargeError extends Error {
  /** The SQLSTATE-like code the message carries. */
  readonly code = "RESULT_TOO_LARGE";
}

/** After the statement timeout, how long before a cancel request; then before the socket is closed. */
const CANCEL_AFTER_MS = 2_000;
const CLOSE_AFTER_MS = 3_000;
const CONNECT_TIMEOUT_MS = 10_000;

/** The TLS mode the URL asks for, as postgres.js reads it (sslmode, ssl, sslrootcert=system, PGSSL). */
function sslMode(url: string): string | false {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return false;
  }
  const mode = params.get("sslmode") ?? params.get("ssl") ??
    (params.get("sslrootcert") === "system" ? "verify-full" : undefined) ??
    process.env["PGSSL"];
  return mode === undefined || mode === "" || mode === "disable" || mode === "false" ? false : mode;
}

function once<T>(emitter: net.Socket, event: string, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      emitter.destroy();
      reject(Object.assign(new Error("connect timed out"), { code: "CONNECT_TIMEOUT" }));
    }, ms);
    emitter.once(event, (value: T) => (clearTimeout(timer), resolve(value)));
    emitter.once("error", (e) => (clearTimeout(timer), reject(e)));
  });
}

/** What postgres.js passes its `socket` option: where to connect. */
interface Where {
  readonly host: readonly string[];
  readonly port: readonly number[];
  readonly path?: string | false;
}

/**
 * Opens the connection the way postgres.js would (TCP or a Unix socket, then
 * TLS as the URL's sslmode asks), so that the socket whose bytes are counted
 * is the one the answers arrive on.
 */
async function connect(where: Where, ssl: string | false): Promise<net.Socket> {
  const targets = where.path ? [{ path: where.path }] : where.host.map((host, i) => ({
    host,
    port: where.port[i] ?? where.port[0] ?? 5432,
  }));
  let last: unknown;
  for (const target of targets) {
    const raw = "path" in target
      ? net.connect(target.path as string)
      : net.connect(target.port, target.host);
    try {
      await once(raw, "connect", CONNECT_TIMEOUT_MS);
    } catch (e) {
      last = e;
      continue;
    }
    const named = Object.assign(raw, "host" in target ? target : {});
    if (ssl === false) return named;
    // SSLRequest: length 8, code 80877103; the server answers S or N.
    raw.write(new Uint8Array([0, 0, 0, 8, 4, 210, 22, 47]));
    const answer = await once<Uint8Array>(raw, "data", CONNECT_TIMEOUT_MS);
    if (answer[0] !== 83) {
      if (ssl === "prefer" || ssl === "allow") return named;
      raw.destroy();
      throw Object.assign(new Error("the server does not accept TLS (sslmode)"), {
        code: "NO_TLS",
      });
    }
    const host = "host" in target ? target.host : undefined;
    const secure = tls.connect({
      socket: raw,
      ...(host !== undefined && net.isIP(host) === 0 ? { servername: host } : {}),
      ...(["require", "allow", "prefer"].includes(ssl) ? { rejectUnauthorized: false } : {}),
    });
    await once(secure, "secureConnect", CONNECT_TIMEOUT_MS);
    return Object.assign(secure, "host" in target ? target : {});
  }
  throw last;
}

/** One connection, one statement at a time. */
export class PgSession {
  readonly #sql: Sql<Record<string, never>>;
  readonly #settings: SessionSettings;
  #socket: net.Socket | undefined;
  #bytes = 0;
  #closed = false;

  private constructor(postgres: typeof import("postgres"), settings: SessionSettings) {
    this.#settings = settings;
    const ssl = sslMode(settings.url);
    this.#sql = postgres(settings.url, {
      max: 1,
      // TLS is set up by connect(), on the socket that is counted.
      ssl: false,
      idle_timeout: 30,
      prepare: false,
      // The array types come from the database's opening (_pg_arrays.ts).
      fetch_types: false,
      onnotice: () => {},
      connection: settings.connection,
      types: settings.types as never,
      socket: async (where: Where) => {
        // postgres.js opens a second connection to send a cancel request:
        // that one is neither counted nor the session's.
        const cancel = this.#socket !== undefined && !this.#socket.destroyed;
        try {
          const socket = await connect(where, ssl);
          if (!cancel) this.#watch(socket);
          return socket;
        } catch (e) {
          if (!cancel) this.#closed = true;
          throw e;
        }
      },
    } as never) as unknown as Sql<Record<string, never>>;
  }

  /** Whether the connection was lost or closed; such a session is not used again. */
  get broken(): boolean {
    return this.#closed;
  }

  /**
   * Makes a session; it connects on its first statement.
   *
   * @param settings how to connect
   * @returns the session
   */
  static async open(settings: SessionSettings): Promise<PgSession> {
    const { default: postgres } = await import("postgres");
    return new PgSession(postgres, settings);
  }

  #watch(socket: net.Socket): void {
    this.#socket = socket;
    this.#closed = false;
    // One message is read whole before postgres.js parses it: a 1 GB value
    // would be in memory before its row is weighed.
    socket.on("data", (chunk: Uint8Array) => {
      this.#bytes += chunk.length;
      if (this.#bytes > this.#settings.resultLimitBytes) this.#overflow();
    });
    // Before postgres.js hears of it (these listeners come first), so that no
    // statement is given to a connection that is going away: postgres.js
    // loses one sent between a socket's error and its close.
    const gone = (): void => {
      if (this.#socket === socket) this.#closed = true;
    };
    socket.once("error", gone);
    socket.once("close", gone);
  }

  /** Ends the statement whose answer is past the limit: its connection is closed. */
  #overflow(): void {
    const socket = this.#socket;
    if (socket === undefined || socket.destroyed) return;
    this.#closed = true;
    socket.destroy(new ResultTooLargeError(tooLargeMessage(this.#settings.resultLimitBytes)));
  }

  /**
   * Runs one statement read-only and leaves the session as it found it.
   *
   * @param statement the SQL
   * @returns its columns and rows
   * @throws what the server or the driver raised; {@link ResultTooLargeError} past the limit
   */
  async run(statement: string): Promise<SessionRows> {
    const sql = this.#sql;
    this.#bytes = 0;
    // Sent together, in order, on the one connection: one round trip.
    const begin = sql.unsafe("BEGIN TRANSACTION READ ONLY").execute();
    // A new session connects first: a server that cannot be reached fails
    // the BEGIN alone, and the statement is never queued for a later one.
    if (this.#socket === undefined) await begin;
    const extended = { prepare: false, simple: false } as { prepare: boolean };
    // Rows are kept as they arrive, and weighed: past the limit the
    // connection is closed, whatever the server would still send.
    const rows: unknown[][] = [];
    let weight = 0;
    const query = sql.unsafe(statement, [], extended).values().forEach((row) => {
      weight += rowWeight(row as unknown[]);
      if (weight > this.#settings.resultLimitBytes) this.#overflow();
      else rows.push(row as unknown[]);
    });
    const rollback = sql.unsafe("ROLLBACK").execute();
    const discard = sql.unsafe("DISCARD ALL").execute();
    const settled = Promise.allSettled([begin, query, rollback, discard]);
    const timeout = this.#settings.timeoutMs;
    const cancel = setTimeout(
      () => (query as unknown as { cancel(): void }).cancel(),
      timeout + CANCEL_AFTER_MS,
    );
    const close = setTimeout(() => {
      this.#closed = true;
      this.#socket?.destroy(
        new Error(`the statement did not stop at its timeout (${timeout} ms); closed`),
      );
    }, timeout + CANCEL_AFTER_MS + CLOSE_AFTER_MS);
    try {
      const [began, ran, , discarded] = await settled;
      if (ran.status === "rejected") throw ran.reason;
      if (began.status === "rejected") throw began.reason;
      const result = ran.value as unknown;
      if (!Array.isArray(result)) {
        // COPY ... TO STDOUT answers with a stream, not rows.
        this.#closed = true;
        this.#socket?.destroy();
        throw new Error(
          "COPY ... TO STDOUT sends no rows the harness reads; write the query as a SELECT",
        );
      }
      if (discarded.status === "rejected") this.#closed = true;
      const columns = ((result as { columns?: { name: string }[] }).columns ?? []).map((c) =>
        c.name
      );
      return { columns, rows };
    } finally {
      clearTimeout(cancel);
      clearTimeout(close);
    }
  }

  /** Closes the connection at once. */
  async end(): Promise<void> {
    this.#closed = true;
    await this.#sql.end({ timeout: 0 }).catch(() => {});
  }
}

/**
 * Whether a statement failed because its session was ended or its statement
 * cancelled from outside (a server shutdown, another session's
 * `pg_terminate_backend` or `pg_cancel_backend`), not by what it did itself
 * or by the harness's own deadline.
 */
function stoppedByAnother(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  const message = typeof e?.message === "string" ? e.message : "";
  switch (e?.code) {
    case "CONNECTION_CLOSED":
    case "ECONNRESET":
    case "EPIPE":
    case "57P01":
      return true;
    case "57014":
      return /user request/.test(message);
    default:
      return false;
  }
}

/** How many times a statement runs when other sessions' SQL keeps ending its session. */
const RUNS = 3;

/** The sessions of one database: at most `max` at once, a broken one replaced. */
export class PgSessions {
  readonly #settings: SessionSettings;
  readonly #max: number;
  readonly #idle: PgSession[] = [];
  readonly #waiting: ((session: PgSession) => void)[] = [];
  #open = 0;
  #ended = false;

  /**
   * @param settings how each session connects
   * @param max the most sessions at once
   */
  constructor(settings: SessionSettings, max: number) {
    this.#settings = settings;
    this.#max = Math.max(1, max);
  }

  async #acquire(): Promise<PgSession> {
    const idle = this.#idle.pop();
    if (idle !== undefined) return idle;
    if (this.#open < this.#max) {
      this.#open++;
      try {
        return await PgSession.open(this.#settings);
      } catch (e) {
        this.#open--;
        throw e;
      }
    }
    return await new Promise<PgSession>((resolve) => this.#waiting.push(resolve));
  }

  #release(session: PgSession): void {
    if (session.broken || this.#ended) {
      this.#open--;
      session.end();
      const next = this.#waiting.shift();
      if (next !== undefined && !this.#ended) {
        this.#open++;
        PgSession.open(this.#settings).then(next);
      }
      return;
    }
    const next = this.#waiting.shift();
    if (next !== undefined) next(session);
    else this.#idle.push(session);
  }

  /**
   * Runs a statement on a free session.
   *
   * @param statement the SQL
   * @returns its columns and rows
   */
  async run(statement: string): Promise<SessionRows> {
    const started = performance.now();
    try {
      return await this.#runOnce(statement);
    } catch (error) {
      // Another case's SQL may end the sessions of the harness's role
      // (pg_terminate_backend, pg_cancel_backend on their pids): what was
      // running on them is run once more, on a new session, so that its case
      // does not pay for another's. An idle session ended meanwhile fails at
      // once too, so it is tried up to RUNS times in all. A statement that
      // ends its own session fails every time.
      let last = error;
      for (let run = 1; run < RUNS; run++) {
        if (!stoppedByAnother(last) || performance.now() - started >= this.#settings.timeoutMs) {
          throw last;
        }
        try {
          return await this.#runOnce(statement);
        } catch (again) {
          last = again;
        }
      }
      throw last;
    }
  }

  async #runOnce(statement: string): Promise<SessionRows> {
    const session = await this.#acquire();
    try {
      return await session.run(statement);
    } finally {
      this.#release(session);
    }
  }

  /** Closes every session. */
  async end(): Promise<void> {
    this.#ended = true;
    const idle = this.#idle.splice(0);
    await Promise.all(idle.map((s) => s.end()));
  }
}
