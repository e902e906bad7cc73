/**
 * Test fixtures: real SQLite files built from SQL in the test, written with
 * the runtime's own `node:sqlite` (Deno and Bun both ship it), never with the
 * engine under test.
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";

/** A temporary folder removed by `cleanup()`. */
export interface TempDir {
  readonly path: string;
  /** A path inside the folder. */
  file(name: string): string;
  cleanup(): void;
}

/**
 * Makes a fresh temporary folder.
 *
 * @param prefix a name prefix
 * @returns the folder
 */
export function tempDir(prefix = "dbagenteval-test-"): TempDir {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (!removalArmed) {
    // Deno's test runner tells the end of a file with "unload", Bun with "exit".
    globalThis.addEventListener?.("unload", removeLiveDirs);
    process.once("exit", removeLiveDirs);
    removalArmed = true;
  }
  liveDirs.add(dir);
  return {
    path: dir,
    file: (name) => path.join(dir, name),
    cleanup: () => {
      fs.rmSync(dir, { recursive: true, force: true });
      liveDirs.delete(dir);
    },
  };
}

/**
 * The folders not cleaned up yet. A test file's top level can make a folder
 * that its `after()` hook removes, and `deno test --doc --filter` loads the
 * file without running its tests or hooks: the process's exit removes what
 * is left, so no run leaves folders in the temp directory.
 */
const liveDirs = new Set<string>();
let removalArmed = false;

function removeLiveDirs(): void {
  for (const dir of liveDirs) fs.rmSync(dir, { recursive: true, force: true });
  liveDirs.clear();
}

/** How {@link makeDb} builds the file. */
export interface MakeDbOptions {
  /**
   * `wal`: WAL mode, checkpointed and closed cleanly (no -wal file left);
   * `wal-pending`: WAL mode with the last commits only in the -wal file, as
   * after a writer crashed or while it still runs;
   * `delete` (default): rollback journal.
   */
  readonly journal?: "delete" | "wal" | "wal-pending";
}

/**
 * Writes a SQLite file at `file` from SQL statements.
 *
 * @param file where to write (must not exist)
 * @param sql the statements
 * @param options the journal mode
 * @returns the file path
 */
export function makeDb(file: string, sql: string, options: MakeDbOptions = {}): string {
  const journal = options.journal ?? "delete";
  if (journal !== "wal-pending") {
    const db = new DatabaseSync(file);
    if (journal === "wal") db.exec("PRAGMA journal_mode=WAL");
    db.exec(sql);
    db.close();
    return file;
  }
  // Write in a scratch folder with checkpoints off, copy the db and its -wal
  // while the writer still holds them open, then leave no -shm behind: the
  // same files a reader finds after the writer crashed.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-wal-"));
  const src = path.join(scratch, "w.db");
  const db = new DatabaseSync(src);
  db.exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;");
  db.exec(sql);
  fs.copyFileSync(src, file);
  fs.copyFileSync(`${src}-wal`, `${file}-wal`);
  db.close();
  fs.rmSync(scratch, { recursive: true, force: true });
  return file;
}

/**
 * The bytes and mtime of every entry in a folder, to prove nothing was
 * touched: a new, removed or changed file, folder or symlink (dangling ones
 * included) shows as a difference. A folder's bytes are "folder", a symlink's
 * are its target.
 */
export function snapshotDir(dir: string): Record<string, { mtimeMs: number; bytes: string }> {
  const out: Record<string, { mtimeMs: number; bytes: string }> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    const stat = fs.lstatSync(full);
    const bytes = stat.isSymbolicLink()
      ? `symlink to ${fs.readlinkSync(full)}`
      : stat.isFile()
      ? fs.readFileSync(full).toString("base64")
      : "folder";
    out[name] = { mtimeMs: stat.mtimeMs, bytes };
  }
  return out;
}

/**
 * The first leaf page under table `name`'s root, which must be an interior
 * page of a table b-tree (4096-byte pages): a page to damage or change that
 * belongs to that table alone.
 */
export function firstLeaf(file: string, name: string): number {
  const db = new DatabaseSync(file);
  const root = Number(
    db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = ?").get(name)!["rootpage"],
  );
  db.close();
  const page = fs.readFileSync(file).subarray((root - 1) * 4096, root * 4096);
  if (page[0] !== 0x05) throw new Error(`${name}'s root is not an interior page`);
  return page.readUInt32BE(page.readUInt16BE(12));
}
