/**
 * A folder of SQLite databases named by id, as the public text-to-SQL
 * benchmarks lay them out (`run --db-dir DIR`): a case's `db: concert_singer`
 * is `DIR/concert_singer/concert_singer.sqlite` or `DIR/concert_singer.sqlite`.
 * Each database is opened once, on first use, and closed with the folder.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { UsageError } from "../errors.ts";
import type { OpenDatabaseOptions, ReferenceDatabase } from "./database.ts";
import { openSqliteDatabase } from "./sqlite.ts";

/**
 * The databases of a folder, by name.
 *
 * @example
 * ```ts
 * import { DatabaseDir } from "./db_dir.ts";
 * const dir = new DatabaseDir("tests/data/spider/database");
 * dir.path("concert_singer"); // "tests/data/spider/database/concert_singer/concert_singer.sqlite"
 * const db = await dir.open("concert_singer");
 * await db.execute("SELECT count(*) AS n FROM singer"); // [{ n: 6 }]
 * await dir.close();
 * ```
 */
export class DatabaseDir {
  readonly dir: string;
  readonly #options: OpenDatabaseOptions;
  readonly #open = new Map<string, Promise<ReferenceDatabase>>();
  #names: string[] | undefined;

  /**
   * @param dir the folder
   * @param options how each database is opened (`strictQuotes`)
   * @throws {UsageError} when the folder is missing or not a folder
   */
  constructor(dir: string, options: OpenDatabaseOptions = {}) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(dir);
    } catch {
      throw new UsageError(
        `--db-dir ${dir}: no such folder; give the folder that holds one database per db_id`,
      );
    }
    if (!stat.isDirectory()) {
      throw new UsageError(
        `--db-dir ${dir}: not a folder; give the folder that holds one database per db_id`,
      );
    }
    this.dir = dir;
    this.#options = options;
  }

  /** The names of the databases in the folder, sorted. */
  names(): string[] {
    if (this.#names !== undefined) return this.#names;
    const names = new Set<string>();
    for (const entry of fs.readdirSync(this.dir, { withFileTypes: true })) {
      if (entry.isDirectory() && isFile(path.join(this.dir, entry.name, `${entry.name}.sqlite`))) {
        names.add(entry.name);
      } else if (entry.name.endsWith(".sqlite") && !entry.isDirectory()) {
        names.add(entry.name.slice(0, -".sqlite".length));
      }
    }
    this.#names = [...names].sort();
    return this.#names;
  }

  /**
   * The file of a database.
   *
   * @param name the database's name (a benchmark's db_id)
   * @returns its path
   * @throws {UsageError} when the folder has no database of that name: the
   * message lists the close names
   */
  path(name: string): string {
    const nested = path.join(this.dir, name, `${name}.sqlite`);
    if (isFile(nested)) return nested;
    const flat = path.join(this.dir, `${name}.sqlite`);
    if (isFile(flat)) return flat;
    const near = closeNames(name, this.names());
    const hint = near.length > 0
      ? `did you mean ${near.map((n) => JSON.stringify(n)).join(", ")}?`
      : this.names().length === 0
      ? "it holds no database (DIR/<db>/<db>.sqlite or DIR/<db>.sqlite)"
      : `it has ${this.names().length} database(s), e.g. ${this.names().slice(0, 5).join(", ")}`;
    throw new UsageError(`--db-dir ${this.dir} has no database "${name}"; ${hint}`);
  }

  /**
   * The other databases of a name's test suite, as Spider's test-suite
   * evaluator finds them: the files beside the nested
   * `DIR/<name>/<name>.sqlite` whose names contain `.sqlite` (SQLite's own
   * `-journal`, `-wal` and `-shm` files left out), sorted. The flat layout
   * (`DIR/<name>.sqlite`) has none.
   *
   * @param name the database's name
   * @returns their paths (none for a folder of one database)
   * @throws {UsageError} when the folder has no database of that name
   */
  testSuite(name: string): string[] {
    const own = this.path(name);
    const folder = path.dirname(own);
    if (path.resolve(folder) === path.resolve(this.dir)) return [];
    return fs.readdirSync(folder, { withFileTypes: true })
      .filter((e) =>
        e.name.includes(".sqlite") && !/-(journal|wal|shm)$/.test(e.name) &&
        e.name !== path.basename(own) && isFile(path.join(folder, e.name))
      )
      .map((e) => path.join(folder, e.name))
      .sort();
  }

  /**
   * The database of a name, opened once (read-only) and kept open.
   *
   * @param name the database's name
   * @returns the open database
   */
  open(name: string): Promise<ReferenceDatabase> {
    let db = this.#open.get(name);
    if (db === undefined) {
      db = Promise.resolve().then(() => openSqliteDatabase(this.path(name), this.#options));
      this.#open.set(name, db);
    }
    return db;
  }

  /** Closes every database opened. */
  async close(): Promise<void> {
    const open = [...this.#open.values()];
    this.#open.clear();
    for (const db of open) await db.then((d) => d.close(), () => {});
  }
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Names within a few edits of `name`, or holding it, closest first (at most 5). */
function closeNames(name: string, names: readonly string[]): string[] {
  const lower = name.toLowerCase();
  const limit = Math.max(2, Math.floor(name.length / 3));
  return names
    .map((n) => ({ n, d: editDistance(lower, n.toLowerCase()) }))
    .filter(({ n, d }) =>
      d <= limit || n.toLowerCase().includes(lower) || lower.includes(n.toLowerCase())
    )
    .sort((a, b) => a.d - b.d || a.n.localeCompare(b.n))
    .slice(0, 5)
    .map(({ n }) => n);
}

/** Levenshtein distance. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row.push(
        Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)),
      );
    }
    prev = row;
  }
  return prev[b.length]!;
}
