/**
 * Checks a path before SQLite sees it, so that the common mistakes get a
 * message a person can act on instead of "file is not a database".
 *
 * @module
 */
import * as fs from "node:fs";
import { SqliteOpenError } from "../errors.ts";
import { specialFileKind } from "../read_text_file.ts";
import { walEncoding } from "./_wal_encoding.ts";

const MAGIC = "SQLite format 3\0";
const ENCODINGS: Record<number, string> = { 1: "UTF-8", 2: "UTF-16le", 3: "UTF-16be" };
const JOURNAL_MAGIC = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];

/**
 * Throws a {@link SqliteOpenError} unless `path` looks like a complete SQLite
 * database that can be read without recovery. An empty file is accepted: it
 * is a valid, empty database to SQLite.
 *
 * @param path the file to check
 * @param options `utf16`: a UTF-16 database is accepted (the diff reads it
 * with the file reader), not refused as one the engine cannot read
 * @throws {SqliteOpenError} missing, a directory, not SQLite, truncated, or a
 * hot rollback journal beside it
 * @example
 * ```ts
 * import { checkSqliteFile } from "./file_check.ts";
 * checkSqliteFile("examples/chinook/Chinook_Sqlite.sqlite"); // no error
 * ```
 */
export function checkSqliteFile(path: string, options: { utf16?: boolean } = {}): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(path);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new SqliteOpenError(
        path,
        "missing",
        `Cannot open "${path}": no such file; check the path`,
        { cause: e },
      );
    }
    const why = code === "ELOOP"
      ? "it is a loop of symbolic links; fix the link"
      : code === "EACCES" || code === "EPERM"
      ? "permission denied; check the permissions of the path"
      : (e as Error).message;
    throw new SqliteOpenError(path, "unreadable", `Cannot open "${path}": ${why}`, { cause: e });
  }
  if (stat.isDirectory()) {
    throw new SqliteOpenError(
      path,
      "directory",
      `Cannot open "${path}": it is a directory, not a SQLite file; pass a .db file inside it`,
    );
  }
  const kind = specialFileKind(stat);
  if (kind !== undefined) {
    throw new SqliteOpenError(
      path,
      "unreadable",
      `Cannot open "${path}": it is ${kind}, not a regular file; SQLite needs a file it can read at any offset, so save it to a file first`,
    );
  }
  // SQLite names the -wal and -journal after the real file, not a symlink.
  const real = realPath(path);
  for (const suffix of ["-wal", "-journal"]) {
    const beside = besideKind(`${real}${suffix}`);
    if (beside !== undefined) {
      throw new SqliteOpenError(
        path,
        "unreadable",
        `Cannot open "${path}": its "${real}${suffix}" is ${beside}, not a regular file; move it away or replace it with the real ${suffix} file`,
      );
    }
  }
  let head: Uint8Array;
  try {
    head = readHead(path, 100);
  } catch (e) {
    const code = (e as { code?: string }).code;
    const why = code === "EACCES" || code === "EPERM"
      ? "permission denied; check its permissions"
      : `cannot read it (${(e as Error).message})`;
    throw new SqliteOpenError(path, "unreadable", `Cannot open "${path}": ${why}`, { cause: e });
  }
  if (stat.size === 0) {
    const inWal = walEncoding(`${real}-wal`);
    if ((inWal === 2 || inWal === 3) && options.utf16 !== true) throw utf16Error(path, inWal);
    return;
  }
  if (head.length < MAGIC.length || latin1(head.subarray(0, 16)) !== MAGIC) {
    throw new SqliteOpenError(
      path,
      "not-sqlite",
      `Cannot open "${path}": file is not a SQLite database (header is ${
        describeBytes(head.subarray(0, 16))
      })`,
    );
  }
  if (head.length < 100) {
    throw new SqliteOpenError(
      path,
      "truncated",
      `Cannot open "${path}": file is truncated (${head.length} bytes, shorter than the 100-byte SQLite header)`,
    );
  }
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const rawPageSize = view.getUint16(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  const pages = view.getUint32(28);
  // The in-header page count is valid when the change counter matches the
  // "version valid for" number (SQLite 3.7.0 and later).
  const countValid = view.getUint32(24) === view.getUint32(92) && pages > 0;
  // A database created in WAL mode may have its encoding only in the -wal.
  const encoding = view.getUint32(56) || walEncoding(`${real}-wal`);
  if ((encoding === 2 || encoding === 3) && options.utf16 !== true) {
    throw utf16Error(path, encoding);
  }
  const hasWal = fileSize(`${real}-wal`) > 0;
  if (!hasWal && countValid && stat.size < pages * pageSize) {
    throw new SqliteOpenError(
      path,
      "truncated",
      `Cannot open "${path}": file is truncated (${stat.size} bytes, the header says ${pages} pages of ${pageSize} bytes); restore it from a complete copy`,
    );
  }
  const journal = `${real}-journal`;
  let hot: boolean;
  try {
    hot = isHotJournal(journal);
  } catch (e) {
    throw new SqliteOpenError(
      path,
      "unreadable",
      `Cannot open "${path}": cannot read its rollback journal "${journal}" (${
        (e as Error).message
      }); check its permissions`,
      { cause: e },
    );
  }
  if (hot) throw hotJournalError(path);
}

function utf16Error(path: string, encoding: number): SqliteOpenError {
  return new SqliteOpenError(
    path,
    "unsupported",
    `Cannot open "${path}": the database is ${
      ENCODINGS[encoding]
    }, which the WASM build of SQLite cannot read; convert it with: sqlite3 "${path}" .dump | sqlite3 utf8.db`,
  );
}

/**
 * Whether `journal` is a rollback journal that SQLite would play back: it
 * starts with the journal magic, which a writer puts there only once the
 * journal is synced and before it changes the database. A missing or empty
 * journal, a zeroed header (journal_mode=PERSIST) or a header the writer has
 * not finished is not hot: the database file is consistent as it stands.
 *
 * @param journal the `-journal` file's path
 * @returns true when the journal is hot
 * @throws the read error when the journal is there but cannot be read
 */
export function isHotJournal(journal: string): boolean {
  let head: Uint8Array;
  try {
    // Never open a FIFO: that waits for a writer. checkSqliteFile refuses one.
    if (besideKind(journal) !== undefined) return false;
    head = readHead(journal, JOURNAL_MAGIC.length);
  } catch (e) {
    // Not there (or gone since SQLite looked: a writer finished), or a folder.
    const code = (e as { code?: string }).code;
    if (code === "ENOENT" || code === "EISDIR") return false;
    throw e;
  }
  return JOURNAL_MAGIC.every((b, i) => head[i] === b);
}

/**
 * The error for a database with a hot rollback journal beside it.
 *
 * @param path the database's path as given
 * @param cause what SQLite reported, if it found the journal itself
 * @returns the error
 */
export function hotJournalError(path: string, cause?: unknown): SqliteOpenError {
  const journal = `${realPath(path)}-journal`;
  return new SqliteOpenError(
    path,
    "hot-journal",
    `Cannot open "${path}": a hot rollback journal "${journal}" is beside it (the file is mid-transaction); let the writer finish or open it once with sqlite3 to roll back`,
    { cause },
  );
}

/**
 * The text encoding named in a SQLite file's header ("UTF-8" for an empty
 * file, which SQLite creates as UTF-8).
 *
 * @param path a file that passed {@link checkSqliteFile}
 * @returns "UTF-8", "UTF-16le" or "UTF-16be"
 */
export function headerEncoding(path: string): string {
  const head = readHead(path, 60);
  const inFile = head.length < 60 ? 0 : new DataView(head.buffer).getUint32(56);
  return ENCODINGS[inFile || walEncoding(`${realPath(path)}-wal`)] ?? "UTF-8";
}

/**
 * The path with every symlink resolved, as SQLite's unix VFS resolves it, or
 * `path` itself when it does not exist.
 *
 * @param path a file path
 * @returns the real path
 */
export function realPath(path: string): string {
  try {
    return fs.realpathSync(path);
  } catch {
    return path;
  }
}

// What a file beside the database is when it is there and not a regular file
// (a folder counts: SQLite cannot use one either, but ignores it as missing).
function besideKind(path: string): string | undefined {
  try {
    const stat = fs.statSync(path);
    return stat.isDirectory() ? undefined : specialFileKind(stat);
  } catch {
    return undefined;
  }
}

function readHead(path: string, n: number): Uint8Array {
  const fd = fs.openSync(path, "r");
  try {
    const buf = new Uint8Array(n);
    const got = fs.readSync(fd, buf, 0, n, 0);
    return buf.subarray(0, got);
  } finally {
    fs.closeSync(fd);
  }
}

function fileSize(path: string): number {
  try {
    return fs.statSync(path).size;
  } catch {
    return 0;
  }
}

function latin1(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
}

/** Shows bytes as a quoted string with `\xNN` escapes, like `"PK\x03\x04"`. */
export function describeBytes(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) {
    if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).padStart(2, "0")}`;
  }
  return `"${out}"`;
}
