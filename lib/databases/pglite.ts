/**
 * Reference SQL on PGlite, PostgreSQL compiled to WebAssembly, for users
 * without a server: `pglite:FILE.sql` loads a schema and data script into an
 * in-memory database; `pglite:DIR` opens a PGlite data directory read-only,
 * by copying it to a temporary directory first (PGlite writes to the
 * directory it opens, even to read), so the original is never touched.
 *
 * The engine runs in a host process of its own (pglite_host.ts,
 * pglite_process.ts), one statement at a time (PGlite is one connection),
 * each inside `BEGIN READ ONLY` and rolled back. A statement that passes its
 * deadline (`--timeout`), or makes the host's memory or the copy grow past
 * their allowance, is ended by killing the host: that statement fails, and
 * the next one gets a new engine, started from a tar file of the loaded
 * database (a second) instead of the script again. A statement that waited
 * behind others past its own deadline does not run at all.
 *
 * Temporary files (the copy, the tar file) live in one folder per database
 * (lib/isolation/temp_storage.ts: `dbagenteval-pglite-PID-*`), removed when
 * the database is closed, when the run exits (also by a signal), and, for a
 * run that was killed, by the next one that opens a PGlite database.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { NotRunError, UsageError } from "../errors.ts";
import { makeTempDir, sweepLeftovers } from "../isolation/temp_storage.ts";
import { type ResultRows, resultRows } from "../row_set.ts";
import { queryError } from "./postgres.ts";
import type { EngineSource } from "./_pglite_engine.ts";
import {
  type HostError,
  type HostLimits,
  HostStopped,
  type PgliteHost,
  startPgliteHost,
} from "./pglite_process.ts";
import { DEFAULT_RESULT_LIMIT_BYTES } from "./result_limit.ts";
import type { OpenDatabaseOptions, ReferenceDatabase } from "./database.ts";

const MB = 1024 * 1024;
/** PostgreSQL's temp_file_limit in PGlite: a spilling sort or hash join may use this much. */
export const PGLITE_TEMP_FILE_BYTES = 128 * MB;
/** How much the host's memory, or a data directory's copy, may grow during one statement. */
export const PGLITE_GROWTH_BYTES = 384 * MB;

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}

/** The first line of the script that is a psql meta-command, which PGlite cannot run. */
function checkScript(name: string, spec: string): void {
  const script = fs.readFileSync(spec, "utf8");
  const meta = script.split("\n").findIndex((line) => /^\s*\\[a-zA-Z]/.test(line));
  if (meta >= 0) {
    throw new UsageError(
      `--db ${name}: line ${meta + 1} is a psql meta-command (${
        JSON.stringify(script.split("\n")[meta]!.trim().slice(0, 40))
      }), which PGlite cannot run; remove it (and any CREATE DATABASE) from the script`,
    );
  }
}

/** A PGlite database. */
export interface PgliteDatabase extends ReferenceDatabase {
  /** How many WebAssembly engines its start made: one, PGlite's (no initdb beside it). */
  readonly engines: number;
  /**
   * Its engine, while one runs: another engine can start beside it, in its
   * host process (the counterexample search's sandbox does).
   */
  engine(): Promise<PgliteHost | undefined>;
}

/**
 * Opens `pglite:FILE.sql` or `pglite:DIR`.
 *
 * @param spec what follows `pglite:`: a `.sql` file or a PGlite data directory
 * @param options `statementTimeoutMs` (each statement's deadline, default 30 s) and `resultLimitBytes`
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
export async function openPgliteDatabase(
  spec: string,
  options: OpenDatabaseOptions = {},
): Promise<PgliteDatabase> {
  const name = `pglite:${spec}`;
  const stat = fs.statSync(spec, { throwIfNoEntry: false });
  if (stat === undefined) {
    throw new UsageError(
      `--db ${name}: "${spec}" does not exist; give a .sql script or a PGlite data directory`,
    );
  }
  if (stat.isDirectory() && !fs.existsSync(path.join(spec, "PG_VERSION"))) {
    throw new UsageError(
      `--db ${name}: "${spec}" is not a PGlite data directory (it has no PG_VERSION file)`,
    );
  }
  if (!stat.isDirectory()) checkScript(name, spec);
  // A killed run's copy can be gigabytes.
  sweepLeftovers();
  const temp = makeTempDir("pglite");
  const folder = temp.path;
  const copy = path.join(folder, "data");
  const tarball = path.join(folder, "data.tar");
  const limits: HostLimits = {
    tempFileBytes: PGLITE_TEMP_FILE_BYTES,
    memoryBytes: PGLITE_GROWTH_BYTES,
    resultBytes: options.resultLimitBytes ?? DEFAULT_RESULT_LIMIT_BYTES,
    ...(stat.isDirectory() ? { watchDir: { path: copy, growthBytes: PGLITE_GROWTH_BYTES } } : {}),
  };
  let dumped = false;
  const start = async (): Promise<PgliteHost> => {
    let source: EngineSource;
    if (stat.isDirectory()) {
      // A fresh copy each time: one a killed statement wrote into is dropped.
      fs.rmSync(copy, { recursive: true, force: true });
      fs.cpSync(spec, copy, { recursive: true });
      source = { kind: "dir", path: copy };
    } else {
      source = dumped ? { kind: "tarball", path: tarball } : { kind: "script", path: spec };
    }
    const started = await startPgliteHost(source, limits, {
      dumpTo: stat.isDirectory() ? undefined : tarball,
    });
    dumped ||= started.dumped;
    return started;
  };
  const close = (host: PgliteHost | undefined): Promise<void> =>
    (host?.close() ?? Promise.resolve()).then(() => temp.dispose());
  let host: PgliteHost | undefined;
  try {
    host = await start();
  } catch (error) {
    await close(host);
    const cause = (error as { cause?: HostError }).cause;
    if (cause?.script === true) {
      throw new UsageError(`--db ${name}: ${cause.message}`, { cause: error });
    }
    throw new UsageError(`--db ${name}: PGlite could not open it: ${message(error)}`, {
      cause: error,
    });
  }

  const timeout = Math.max(1, Math.round(options.statementTimeoutMs ?? 30_000));
  let queue: Promise<unknown> = Promise.resolve();
  // The engine, started again when a statement killed it.
  let current: Promise<PgliteHost> | undefined = Promise.resolve(host);
  // The start in progress, if one is.
  let starting: Promise<PgliteHost> | undefined;
  // Whether that start replaces a bloated engine (no statement's fault).
  let retiring = false;
  const restart = (retire = false): Promise<PgliteHost> => {
    const next = start();
    current = starting = next;
    retiring = retire;
    next.then(() => {}, () => {}).finally(() => {
      if (starting === next) starting = undefined;
    });
    return next;
  };
  // An engine a statement left holding far more memory (an `out of memory`
  // error leaves PostgreSQL's heap at its largest): the next statement gets a
  // new one, and the old one's memory is given back.
  const retire = (engine: PgliteHost): void => {
    restart(true).catch(() => {});
    void engine.close();
  };
  const stopped = () =>
    new NotRunError(
      `${name}: the statement waited for the one before it until its case was over; it did not run`,
    );
  const late = (why: string) =>
    new NotRunError(
      `${name}: the statement waited for ${why} past its own deadline (${
        timeout / 1000
      } s); it did not run`,
    );
  /**
   * `clock`: when its time started; for a statement sent while PGlite was
   * starting again, when the start ended (a statement that was waiting
   * when a runaway was killed counts the start: sent with what it had left,
   * it would be killed at once, and cost the next one another start).
   */
  const run = async (
    query: string,
    clock: Promise<number>,
    signal: AbortSignal | undefined,
    sent: { now: boolean },
  ): Promise<ResultRows> => {
    let deadline = (await clock) + timeout;
    if (signal?.aborted) throw stopped();
    if (deadline <= performance.now()) throw late("the one before it");
    let engine: PgliteHost;
    // The start of an engine that replaces a bloated one is not a
    // statement's wait: no statement was killed for it.
    const replacing = starting !== undefined && retiring ? performance.now() : undefined;
    try {
      engine = await (current ?? restart());
      // Killed while idle, with another engine of its process (the search's sandbox).
      if (!engine.alive) engine = await restart();
    } catch (error) {
      throw new Error(`${name}: PGlite could not start again: ${message(error)}`);
    }
    if (replacing !== undefined) deadline += performance.now() - replacing;
    const left = deadline - performance.now();
    if (left <= 0) throw late("PGlite to start again");
    if (signal?.aborted) throw stopped();
    // The case that sent it is over (its time ran out, or the run was
    // stopped): the statement is stopped with it, and the next case gets a
    // new PGlite rather than wait for this one's deadline.
    const abort = () => engine.stop?.("the statement was stopped with its case");
    signal?.addEventListener("abort", abort, { once: true });
    sent.now = true;
    try {
      const reply = await engine.request("query", query, left);
      return resultRows(reply["columns"] as string[], reply["rows"] as unknown[][]);
    } catch (error) {
      if (error instanceof HostStopped) {
        // The next statement gets a new engine.
        restart().catch(() => {});
        throw new Error(`${name}: ${error.message}; PGlite was started again for the next one`);
      }
      const cause = (error as { cause?: HostError }).cause;
      throw queryError(cause ?? error, name);
    } finally {
      signal?.removeEventListener("abort", abort);
      if (engine.alive && engine.bloated) retire(engine);
    }
  };
  return {
    kind: "pglite",
    name,
    dialect: "postgres",
    engines: host.engines,
    execute(query: string, options?: { readonly signal?: AbortSignal }): Promise<ResultRows> {
      const now = performance.now();
      const clock = starting === undefined
        ? Promise.resolve(now)
        : starting.then(() => performance.now(), () => performance.now());
      const signal = options?.signal;
      const sent = { now: false };
      const next = queue.then(() => run(query, clock, signal, sent));
      queue = next.catch(() => {});
      if (signal === undefined) return next;
      // A case that ends while its statement still waits (for the ones
      // before it, or for PGlite to start) hears so at once, so that its
      // message can say the SQL never ran; run() then skips the statement.
      return new Promise<ResultRows>((resolve, reject) => {
        const over = () => {
          if (!sent.now) reject(stopped());
        };
        if (signal.aborted) over();
        else signal.addEventListener("abort", over, { once: true });
        next.then(resolve, reject).finally(() => signal.removeEventListener("abort", over));
      });
    },
    engine: () => current?.catch(() => undefined) ?? Promise.resolve(undefined),
    // The engine's start (one that fails is the next statement's error, not
    // the wait's). Not the statements sent before: a case that waited for
    // those outside its time would let runaways run one after the other.
    ready: async () => {
      await current?.catch(() => undefined);
    },
    async close(): Promise<void> {
      await queue;
      await close(await current?.catch(() => undefined));
    },
  };
}
