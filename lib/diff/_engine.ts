/**
 * The one SQLite engine of a database diff, started when first needed and
 * at most once: the before file opened and the after file attached to the
 * same connection (both through the read-only VFS), with a small page
 * cache. Most diffs never start it (the file reader answers them); one
 * that needs it may start it early, so the engine's start overlaps the
 * reading of pages, and await it later.
 *
 * @module
 */
import { type Database, openDatabase, openReadOnly } from "../sqlite/database.ts";
import { withPageOne } from "../sqlite/file_vfs.ts";
import { checkSqliteFile } from "../sqlite/file_check.ts";

/** The attached after file's schema name. */
export const AFTER = "aft";

/** Page 1 of each file as the engine is to read it, or null for the file's own. */
export interface PageOnes {
  readonly before: Uint8Array | null;
  readonly after: Uint8Array | null;
}

/**
 * Starts the engine for two files, once.
 *
 * @example
 * ```ts
 * import { EngineStarter } from "./_engine.ts";
 * const file = "examples/db_agent/users.db";
 * const engine = new EngineStarter(file, file);
 * const db = await engine.db();
 * db.query("SELECT count(*) AS n FROM aft.users")[0]; // { n: 4 }
 * await engine.close();
 * ```
 */
export class EngineStarter {
  readonly #before: string | null;
  readonly #after: string | null;
  #pageOnes: PageOnes = { before: null, after: null };
  #opening: Promise<Database> | null = null;

  /**
   * @param before the before file, or null
   * @param after the after file, or null
   */
  constructor(before: string | null, after: string | null) {
    this.#before = before;
    this.#after = after;
  }

  /** The schema the after side's tables are in: `aft` with two files, else `main`. */
  get afterSchema(): string {
    return this.#before !== null && this.#after !== null ? AFTER : "main";
  }

  /** Whether the engine was started. */
  get started(): boolean {
    return this.#opening !== null;
  }

  /**
   * Sets what the engine is shown as each file's page 1 (`--table`: a
   * schema of the named tables only); only before it starts.
   */
  showPageOnes(pageOnes: PageOnes): void {
    if (this.#opening === null) this.#pageOnes = pageOnes;
  }

  /** Starts the engine if it is not started; a failure is reported by {@link db}. */
  start(): void {
    this.#opening ??= openSides(this.#before, this.#after, this.#pageOnes);
    this.#opening.catch(() => {});
  }

  /** The engine, started now if need be. */
  db(): Promise<Database> {
    this.start();
    return this.#opening!;
  }

  /** Closes the engine if it was started (a failed start is not reported again). */
  async close(): Promise<void> {
    const db = await this.#opening?.catch(() => null);
    db?.close();
  }
}

/**
 * Opens the before file (or the only one) and attaches the after file, with
 * a small page cache: the WASM build's default is 16 MiB per schema, and the
 * comparison reads each page about once, so SQLite's native default of
 * 2 MiB is as fast and keeps peak memory flat (the OS caches the files).
 */
async function openSides(
  before: string | null,
  after: string | null,
  pageOnes: PageOnes,
): Promise<Database> {
  const db = await openReadOnly(
    (before ?? after)!,
    {},
    before === null ? pageOnes.after : pageOnes.before,
  );
  try {
    const both = before !== null && after !== null;
    if (both) await attachAfter(db, after, pageOnes.after);
    db.exec(`PRAGMA main.cache_size=-2000${both ? `; PRAGMA ${AFTER}.cache_size=-2000` : ""}`);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/**
 * Attaches the after file to `db` and reads its schema once. When that
 * fails, the file is opened alone, so that the error names it (a damaged
 * page, a hot journal); opening it alone first every time would parse a
 * schema of thousands of tables twice.
 */
async function attachAfter(
  db: Database,
  after: string,
  pageOne: Uint8Array | null,
): Promise<void> {
  checkSqliteFile(after);
  try {
    const attach = db.prepare(`ATTACH ? AS ${AFTER}`);
    try {
      attach.bind([after]);
      withPageOne(after, pageOne, () => attach.step());
    } finally {
      attach.finalize();
    }
    db.query(`SELECT count(*) FROM ${AFTER}.sqlite_schema`);
  } catch (e) {
    (await openDatabase(after)).close();
    throw e;
  }
}
