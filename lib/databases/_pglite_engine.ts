/**
 * One PGlite engine, as the PGlite host process runs it (pglite_host.ts):
 * started from the empty database it carries or a data directory, the
 * harness's session settings set, and bounded where PostgreSQL itself can
 * bound it:
 *
 * - `temp_file_limit`: a sort or hash join that spills, a recursive query's
 *   work table, stop at the limit ("temporary file size exceeds
 *   temp_file_limit") instead of filling the memory or the data directory's
 *   copy;
 * - `pg_sleep` and every other wait, which PGlite makes by reading the
 *   clock in a loop, read a clock that pauses a busy loop
 *   (_pglite_clock.ts) instead of making garbage and spinning a core;
 * - `COPY ... TO PROGRAM` (or a `DO` block that runs one) is an error for
 *   that statement: PGlite, which has no programs to run, answered it by
 *   throwing through the engine, which left it broken for every statement
 *   after (`ERRORDATA_STACK_SIZE exceeded`, or empty results).
 *
 * What PostgreSQL cannot bound inside one process (a statement that never
 * ends, memory) the parent bounds by killing the host: pglite_process.ts.
 *
 * @module
 */
import * as fs from "node:fs";
import { pgliteParsers, SESSION_SETTINGS } from "./pg_types.ts";
import { pgliteStart } from "./_pglite_start.ts";
import { withCalmClock } from "./_pglite_clock.ts";

/** Where an engine starts from. */
export type EngineSource =
  | { readonly kind: "script"; readonly path: string }
  | { readonly kind: "dir"; readonly path: string }
  | { readonly kind: "tarball"; readonly path: string }
  | { readonly kind: "empty" };

/** One statement's answer. */
export interface EngineRows {
  readonly columns: readonly string[];
  readonly rows: unknown[][];
}

interface Results {
  rows: unknown[][];
  fields: { name: string }[];
}

interface PgliteLike {
  exec(sql: string, options?: object): Promise<Results[]>;
  query(
    sql: string,
    params: unknown[],
    options: { rowMode: "array"; parsers: Record<number, (t: string) => unknown> },
  ): Promise<Results>;
  dumpDataDir(compression: "none"): Promise<Blob>;
  close(): Promise<void>;
  handleExternalCmd(command: string, mode: string): number;
}

/**
 * The most PostgreSQL's heap (PGlite's WebAssembly memory) may grow to:
 * PGlite asks for up to 2 GB; past this, an allocation fails and the
 * statement is an `out of memory` error, the engine intact. (The data of an
 * in-memory database is not in it: PGlite keeps its files apart.)
 */
export const DEFAULT_HEAP_BYTES = 512 * 1024 * 1024;

/**
 * Runs `make` with WebAssembly memories capped at `bytes`: PGlite makes its
 * memory with a fixed maximum of 2 GB, and has no option for it.
 */
async function withHeapLimit<T>(bytes: number, make: () => Promise<T>): Promise<T> {
  const Memory = WebAssembly.Memory;
  const pages = Math.max(1, Math.floor(bytes / 65536));
  WebAssembly.Memory = new Proxy(Memory, {
    construct(target, [descriptor]: [WebAssembly.MemoryDescriptor]) {
      const maximum = Math.min(descriptor.maximum ?? pages, pages);
      return new target({ ...descriptor, maximum: Math.max(maximum, descriptor.initial) });
    },
  });
  try {
    // PGlite makes its memory while it starts, after its constructor returns.
    return await make();
  } finally {
    WebAssembly.Memory = Memory;
  }
}

/** Raised when the script of a `pglite:FILE.sql` does not load: the user's to fix. */
export class ScriptError extends Error {}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}

/**
 * PostgreSQL's error, said for PGlite: a program it could not run failed
 * "with" errno 0 (`Success`), since PGlite runs none.
 */
function explained(error: unknown): unknown {
  const e = error as { message?: unknown; code?: unknown };
  if (typeof e?.message !== "string" || !e.message.startsWith("could not execute command")) {
    return error;
  }
  return Object.assign(
    new Error(`${e.message.replace(/: [^:"]*$/, "")}: PGlite runs no programs`),
    {
      code: e.code,
    },
  );
}

/** A started PGlite. */
export class PgliteEngine {
  readonly #db: PgliteLike;
  readonly #parsers = pgliteParsers();

  private constructor(db: PgliteLike) {
    this.#db = db;
  }

  /**
   * Starts PGlite.
   *
   * @param source what it starts from
   * @param tempFileLimitKb PostgreSQL's `temp_file_limit`
   * @returns the engine
   * @throws {ScriptError} when a script fails to load
   */
  static async open(
    source: EngineSource,
    tempFileLimitKb: number,
    heapBytes: number = DEFAULT_HEAP_BYTES,
  ): Promise<PgliteEngine> {
    const { PGlite } = await import("@electric-sql/pglite");
    const start = await pgliteStart(source.kind === "script" || source.kind === "empty");
    const db = await withHeapLimit(heapBytes, () =>
      withCalmClock(async () => {
        const made = new PGlite({
          ...(source.kind === "dir" ? { dataDir: source.path } : {}),
          // In memory, from the template, not initdb; in the binary, from its
          // embedded files (_pglite_start.ts).
          ...start,
          ...(source.kind === "tarball"
            ? { loadDataDir: new Blob([fs.readFileSync(source.path)]) }
            : {}),
          // PostgreSQL's default of 128 MB of shared buffers grew the WebAssembly
          // heap by 64 MB; the data is in memory anyway (PGlite's file system),
          // so a page not in a buffer is a copy away, not a read.
          startParams: [
            ...PGlite.defaultStartParams,
            "-c",
            "shared_buffers=16MB",
            "-c",
            `temp_file_limit=${Math.max(64, Math.round(tempFileLimitKb))}kB`,
            // The session's settings as PostgreSQL starts with them, so that
            // DISCARD ALL after each statement goes back to them.
            ...Object.entries(SESSION_SETTINGS).flatMap(([k, v]) => ["-c", `${k}=${v}`]),
          ],
        });
        await made.waitReady;
        return made as unknown as PgliteLike;
      }));
    // PGlite answers popen() (COPY ... TO PROGRAM) by throwing through the
    // engine; a NULL stream instead makes PostgreSQL raise its own error.
    const external = db.handleExternalCmd.bind(db);
    db.handleExternalCmd = (command, mode) =>
      command.startsWith("locale -a") ? external(command, mode) : 0;
    const engine = new PgliteEngine(db);
    try {
      if (source.kind === "script") {
        try {
          await db.exec(fs.readFileSync(source.path, "utf8"));
        } catch (error) {
          throw new ScriptError(`the script failed to load: ${firstLine(error)}`, {
            cause: error,
          });
        }
      }
      // What the script set for its session is not the cases' (a restart would lose it anyway).
      await db.exec("DISCARD ALL");
    } catch (error) {
      await engine.close();
      throw error;
    }
    return engine;
  }

  /**
   * Runs one statement read-only: inside `BEGIN READ ONLY`, rolled back,
   * then the session reset (`DISCARD ALL`), so that what a rollback keeps (a
   * `PREPARE`, an advisory lock, a `LISTEN`) does not reach the next one.
   *
   * @param sql one statement
   * @returns its columns and rows
   */
  async query(sql: string): Promise<EngineRows> {
    await this.#db.exec("BEGIN TRANSACTION READ ONLY");
    try {
      const result = await this.#db.query(sql, [], { rowMode: "array", parsers: this.#parsers });
      return { columns: result.fields.map((f) => f.name), rows: result.rows };
    } catch (error) {
      throw explained(error);
    } finally {
      await this.#db.exec("ROLLBACK").catch(() => {});
      await this.#db.exec("DISCARD ALL").catch(() => {});
    }
  }

  /**
   * Runs a script of statements as it is (the counterexample sandbox's own
   * transaction control inside), every result's rows kept.
   *
   * @param sql the statements
   * @returns each statement's columns and rows
   */
  async exec(sql: string): Promise<EngineRows[]> {
    try {
      const results = await this.#db.exec(sql, { rowMode: "array", parsers: this.#parsers });
      return results.map((r) => ({ columns: r.fields.map((f) => f.name), rows: r.rows }));
    } catch (error) {
      await this.#db.exec("ROLLBACK").catch(() => {});
      throw explained(error);
    }
  }

  /**
   * Writes the database's files as a tar file, which {@link open} starts
   * from as a `tarball`: a new engine in a second instead of the script's
   * load again.
   *
   * @param file where to write it
   */
  async dump(file: string): Promise<void> {
    const blob = await this.#db.dumpDataDir("none");
    fs.writeFileSync(file, new Uint8Array(await blob.arrayBuffer()));
  }

  /** Stops the engine (a data directory is written back). */
  async close(): Promise<void> {
    await this.#db.close().catch(() => {});
  }
}
