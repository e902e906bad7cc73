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
import {
  type Database,
  openDatabase,
  openReadOnly,
  openScratchDatabase,
} from "../sqlite/database.ts";
import { ident, stringLiteral } from "../sqlite/sql_text.ts";
import type { PageSide } from "./_page_sides.ts";
import { Utf8Copy } from "./_utf8_copy.ts";
import { withPageOne } from "../sqlite/file_vfs.ts";
import { checkSqliteFile } from "../sqlite/file_check.ts";

/** The attached after file's schema name. */
export const AFTER = "aft";

/** The before file's schema name when it is attached to a scratch database (a UTF-16 side). */
const BEFORE = "bef";

/** Each side's pages, for a UTF-16 side the engine reads through a UTF-8 copy. */
export interface EngineSides {
  readonly before: PageSide | null;
  readonly after: PageSide | null;
}

function utf16(side: PageSide | null): boolean {
  const e = side?.src.header.encoding;
  return e === "utf-16le" || e === "utf-16be";
}

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
  #sides: EngineSides = { before: null, after: null };
  readonly #copies: Utf8Copy[] = [];
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

  /** The schema the before side's tables are in: `main`, or `bef` beside a UTF-16 after side's copy. */
  get beforeSchema(): string {
    return this.copies && !utf16(this.#sides.before) && this.#after !== null ? BEFORE : "main";
  }

  /** True when a side is UTF-16, read by the engine through a UTF-8 copy (_utf8_copy.ts). */
  get copies(): boolean {
    return utf16(this.#sides.before) || utf16(this.#sides.after);
  }

  /** Gives the sides' pages, which a UTF-16 side's copy is made from; only before it starts. */
  readPagesOf(sides: EngineSides): void {
    if (this.#opening === null) this.#sides = sides;
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
    this.#opening ??= this.copies
      ? openWithCopies(this.#sides, this.beforeSchema, this.#copies)
      : openSides(this.#before, this.#after, this.#pageOnes);
    this.#opening.catch(() => {});
  }

  /** The engine, started now if need be. */
  db(): Promise<Database> {
    this.start();
    return this.#opening!;
  }

  /**
   * The engine, with table `name`'s rows in it: a UTF-16 side's are copied
   * now if they were not (_utf8_copy.ts).
   */
  async dbWith(name: string): Promise<Database> {
    const db = await this.db();
    for (const copy of this.#copies) await copy.fill(name);
    return db;
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
 * A scratch database holding the UTF-16 sides' rows in UTF-8, and the
 * UTF-8 sides attached read-only beside them: the before side in `main`
 * (its copy) or `bef`, the after side in `aft` (`main` alone).
 */
async function openWithCopies(
  sides: EngineSides,
  beforeSchema: string,
  copies: Utf8Copy[],
): Promise<Database> {
  const db = await openScratchDatabase();
  try {
    const place = (side: PageSide, schema: string): void => {
      if (!utf16(side)) checkSqliteFile(side.path);
      const file = utf16(side) ? "''" : readOnlyUri(side.path);
      if (schema !== "main") db.exec(`ATTACH ${file} AS ${ident(schema)}`);
      if (utf16(side)) copies.push(new Utf8Copy(db, schema, side));
    };
    const { before, after } = sides;
    if (before !== null) place(before, beforeSchema);
    if (after !== null) place(after, before === null ? "main" : AFTER);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/** A file's read-only URI for ATTACH (the scratch connection is writable; the files never are). */
function readOnlyUri(path: string): string {
  const escaped = path.replace(
    /[%?#]/g,
    (c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
  return stringLiteral(`file:${escaped}?mode=ro`);
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
