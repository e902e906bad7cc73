/**
 * Diffing every SQLite database in two folders: `diffFilesystemDatabases`.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { SqliteOpenError, UsageError } from "../errors.ts";
import { Aim } from "./_aim.ts";
import { globMatcher } from "./_glob.ts";
import { diffDatabasePair } from "./diff_sqlite.ts";
import type { DiffListener } from "./listener.ts";
import { type DiffOptions, diffSettings } from "./options.ts";
import type { DatabaseChange, DatabaseDiff } from "./types.ts";
import { DIFF_FORMAT_VERSION } from "./types.ts";

/**
 * One side of a filesystem diff: a folder, or a map of relative path to file path.
 *
 * @example
 * ```ts
 * import { type DatabaseSource, diffFilesystemDatabases } from "./diff_filesystem.ts";
 * const before: DatabaseSource = {}; // no databases yet
 * const after: DatabaseSource = { "app/users.db": "examples/db_agent/users.db" };
 * const diff = await diffFilesystemDatabases(before, after);
 * diff.databases[0]?.name; // "app/users.db"
 * ```
 */
export type DatabaseSource = string | Readonly<Record<string, string>>;

/**
 * Options of {@link diffFilesystemDatabases}.
 *
 * @example
 * ```ts
 * import { diffFilesystemDatabases, type FilesystemDiffOptions } from "./diff_filesystem.ts";
 * const options: FilesystemDiffOptions = { dbPatterns: ["*.sqlite"], includeSchema: false };
 * const diff = await diffFilesystemDatabases("examples/chinook", "examples/chinook", options);
 * diff.databases.map((d) => d.name); // ["Chinook_Sqlite.sqlite"]
 * ```
 */
export interface FilesystemDiffOptions extends DiffOptions {
  /**
   * Globs matched against file names (`*.db`), or against paths relative to
   * the folder when they contain `/` (`**\/data/*.db`). Default
   * `["*.db", "*.sqlite", "*.sqlite3"]`.
   */
  readonly dbPatterns?: readonly string[];
  /**
   * Told every table and row change of every database as the diff goes (all
   * of them, whatever `maxRows` keeps), as `streamSqliteDiff` tells its own.
   */
  readonly listener?: DiffListener;
}

/**
 * The default {@link FilesystemDiffOptions.dbPatterns}.
 *
 * @example
 * ```ts
 * import { DEFAULT_DB_PATTERNS } from "./diff_filesystem.ts";
 * DEFAULT_DB_PATTERNS; // ["*.db", "*.sqlite", "*.sqlite3"]
 * ```
 */
export const DEFAULT_DB_PATTERNS: readonly string[] = ["*.db", "*.sqlite", "*.sqlite3"];

/**
 * Finds the database files of two folders (searched recursively) and diffs
 * each by its relative path: a file on one side only is a database added or
 * removed. A file whose name matches but that is not a readable SQLite file
 * is reported with `error` set, not thrown.
 *
 * @param before the folder (or relative path -> file map) before
 * @param after the folder (or map) after
 * @param options `dbPatterns` plus the options of diffSqliteDatabases
 * @returns one database change per relative path, in path order
 * @throws {UsageError} when a side is a path that is not a folder
 * @example
 * ```ts
 * import { diffFilesystemDatabases } from "./diff_filesystem.ts";
 * const diff = await diffFilesystemDatabases("examples/chinook", "examples/chinook");
 * diff.databases.every((d) => d.status === "unchanged"); // true
 * ```
 */
export async function diffFilesystemDatabases(
  before: DatabaseSource,
  after: DatabaseSource,
  options: FilesystemDiffOptions = {},
): Promise<DatabaseDiff> {
  const settings = diffSettings(options);
  const matchers = (options.dbPatterns ?? DEFAULT_DB_PATTERNS).map(globMatcher);
  const matches = (rel: string): boolean => matchers.some((m) => m(rel));
  const a = listDatabases(before, matches);
  const b = listDatabases(after, matches);
  const names = [...new Set([...a.keys(), ...b.keys()])].sort();
  const databases: DatabaseChange[] = [];
  for (const name of names) {
    const pair = {
      name,
      before: a.get(name) ?? null,
      after: b.get(name) ?? null,
      settings,
      checkKeys: names.length === 1,
      ...(options.listener === undefined ? {} : { listener: options.listener }),
    };
    try {
      databases.push(await diffDatabasePair(pair));
    } catch (e) {
      if (!(e instanceof SqliteOpenError)) throw e;
      databases.push(unreadable(pair, e));
    }
  }
  if (names.length > 1) {
    // A key may name a table only some databases have: an error when none has it.
    const present = databases.flatMap((d) => d.tables.map((t) => t.name));
    const unknown = new Aim(settings).unknownKeyTable(present, "any database of the two folders");
    if (unknown !== null) throw unknown;
  }
  return { version: DIFF_FORMAT_VERSION, settings, databases };
}

function unreadable(
  pair: { name: string; before: string | null; after: string | null },
  error: SqliteOpenError,
): DatabaseChange {
  const { before, after } = pair;
  const same = before !== null && after !== null && sameBytes(before, after);
  return {
    name: pair.name,
    path: after ?? before ?? "",
    before_path: before,
    after_path: after,
    exists_before: before !== null,
    exists_after: after !== null,
    status: before === null ? "added" : after === null ? "removed" : same ? "unchanged" : "changed",
    tables: [],
    objects: [],
    skipped: [],
    error: error.message,
  };
}

/** Bytes of each file compared at once by {@link sameBytes}. */
const SAME_CHUNK = 1024 * 1024;

/**
 * Whether two files hold the same bytes, read a chunk at a time (an
 * unreadable file may be gigabytes of something else): false when either
 * cannot be read.
 */
function sameBytes(a: string, b: string): boolean {
  let fa: number | null = null;
  let fb: number | null = null;
  try {
    fa = fs.openSync(a, "r");
    fb = fs.openSync(b, "r");
    const size = fs.fstatSync(fa).size;
    if (fs.fstatSync(fb).size !== size) return false;
    const x = Buffer.allocUnsafe(Math.min(SAME_CHUNK, Math.max(1, size)));
    const y = Buffer.allocUnsafe(x.length);
    for (let at = 0; at < size;) {
      const want = Math.min(x.length, size - at);
      const n = fs.readSync(fa, x, 0, want, at);
      // A file that changed size while read is not the same as anything.
      if (n !== want || fs.readSync(fb, y, 0, want, at) !== want) return false;
      if (x.compare(y, 0, n, 0, n) !== 0) return false;
      at += n;
    }
    return true;
  } catch {
    return false;
  } finally {
    if (fa !== null) fs.closeSync(fa);
    if (fb !== null) fs.closeSync(fb);
  }
}

function listDatabases(
  source: DatabaseSource,
  matches: (rel: string) => boolean,
): Map<string, string> {
  if (typeof source !== "string") return new Map(Object.entries(source));
  let stat: fs.Stats;
  try {
    stat = fs.statSync(source);
  } catch (e) {
    throw new UsageError(`Cannot read folder "${source}": no such folder; check the path`, {
      cause: e,
    });
  }
  if (!stat.isDirectory()) {
    throw new UsageError(`"${source}" is not a folder; pass a folder, or diff files one by one`);
  }
  const out = new Map<string, string>();
  // Symlinks are followed, to files and to folders, as `cp -L` or a shell
  // glob would; a folder already being walked (a link to a parent) is not
  // entered twice, and a dangling link is no database.
  const walking = new Set<string>();
  const walk = (dir: string, rel: string): void => {
    const real = fs.realpathSync(dir);
    if (walking.has(real)) return;
    walking.add(real);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = nodePath.join(dir, entry.name);
      const relPath = rel === "" ? entry.name : `${rel}/${entry.name}`;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const target = fs.statSync(full);
          isDir = target.isDirectory();
          isFile = target.isFile();
        } catch {
          continue;
        }
      }
      if (isDir) walk(full, relPath);
      else if (isFile && matches(relPath)) out.set(relPath, full);
    }
    walking.delete(real);
  };
  walk(source, "");
  return out;
}
