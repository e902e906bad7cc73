/**
 * The pages of one database file as SQLite reads them, read-only: the
 * file's own pages, except those a `-wal` beside it holds in a committed
 * frame (the newest such frame wins, as SQLite's WAL index says), up to the
 * size the last commit gives. Every reader of pages in lib/diff reads
 * through one of these.
 *
 * Pages are read three ways: one at a time through the read-only VFS's
 * read-ahead chunks (lib/sqlite/read_ahead.ts; interior and overflow pages,
 * which a walk reads in scattered order), or a run of consecutive pages at
 * once, on the runtime's I/O threads ({@link PageSource.readRun}; the
 * leaves of a b-tree, which mostly follow on), so that reading overlaps the
 * work on the pages before.
 *
 * The file is opened `O_RDONLY`, never written or locked, and refused before
 * it is opened unless it is a regular file (opening a FIFO waits for a
 * writer).
 *
 * @module
 */
import * as fs from "node:fs";
import { Buffer } from "node:buffer";
import { SqliteDamageError, SqliteOpenError } from "../errors.ts";
import { ReadAhead } from "../sqlite/read_ahead.ts";
import { walCommits } from "../sqlite/wal_frames.ts";
import { realPath } from "../sqlite/file_check.ts";
import { type FileHeader, HeaderError, lockBytePage, readHeader } from "./header.ts";

/** Buffers a source keeps for reuse (see {@link PageSource.borrow}). */
const POOL = 16;

/** A read of a run of pages, on the runtime's I/O threads. */
function readAt(fd: number, buf: Uint8Array, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    fs.read(fd, buf, 0, length, position, (err, n) => (err === null ? resolve(n) : reject(err)));
  });
}

/** The header of a file with no page yet (an empty file is an empty database to SQLite). */
const EMPTY: FileHeader = {
  pageSize: 4096,
  reserved: 0,
  usable: 4096,
  fileFormat: 1,
  headerPages: 0,
  freelistTrunk: 0,
  freelistCount: 0,
  schemaCookie: 0,
  schemaFormat: 4,
  encoding: null,
  encodingNumber: 0,
  autoVacuumRoot: 0,
  incrementalVacuum: false,
  userVersion: 0,
  applicationId: 0,
};

/** What {@link PageSource.open} found, for the constructor. */
interface SourceInit {
  readonly path: string;
  readonly fd: number;
  readonly fileSize: number;
  readonly wal: {
    readonly fd: number;
    readonly offsets: ReadonlyMap<number, number>;
    readonly pages: number;
    readonly pageSize: number;
  } | null;
  /** The first 100 bytes of page 1 (from the -wal when it holds page 1), or null for an empty file. */
  readonly pageOne: Uint8Array | null;
}

/**
 * One database file's pages (see the module documentation). Close it when done.
 *
 * @example
 * ```ts
 * import { PageSource } from "./page_source.ts";
 * const src = PageSource.open("examples/chinook/Chinook_Sqlite.sqlite");
 * const page = new Uint8Array(src.pageSize);
 * src.read(1, page);
 * page[100]; // 13: page 1 is sqlite_schema's root, here a table leaf
 * src.close();
 * ```
 */
export class PageSource {
  /** The path as given, for messages. */
  readonly path: string;
  readonly header: FileHeader;
  readonly pageSize: number;
  readonly usable: number;
  /** The database's size in pages (page numbers run from 1 to this). */
  readonly pages: number;
  /** The lock-byte page's number, or 0 when the file is too small to have one. */
  readonly lockPage: number;
  /** How many pages are read from the `-wal` rather than the file. */
  readonly walPages: number;
  readonly #fd: number;
  readonly #fileSize: number;
  readonly #ahead: ReadAhead;
  readonly #wal: { readonly fd: number; readonly offsets: ReadonlyMap<number, number> } | null;
  readonly #pool: Buffer[] = [];
  #open = true;

  /** Use {@link PageSource.open}. */
  constructor(init: SourceInit) {
    const { path, fd, fileSize, wal, pageOne } = init;
    this.path = path;
    this.#fd = fd;
    this.#fileSize = fileSize;
    this.#ahead = new ReadAhead(fd, fileSize);
    this.#wal = wal;
    this.walPages = wal?.offsets.size ?? 0;
    let header = EMPTY;
    if (pageOne !== null) {
      try {
        header = readHeader(pageOne);
      } catch (e) {
        if (!(e instanceof HeaderError)) throw e;
        throw new SqliteOpenError(
          path,
          "not-sqlite",
          `Cannot open "${path}": file is not a SQLite database (${e.message})`,
        );
      }
    }
    // SQLite reads such a file alone as UTF-8, but refuses to attach it.
    if (header.encodingNumber > 3) {
      throw new SqliteDamageError(
        path,
        0,
        `its text encoding is ${header.encodingNumber}, not 1 (UTF-8), 2 or 3 (UTF-16)`,
      );
    }
    if (wal !== null && wal.pageSize !== header.pageSize) {
      throw new SqliteDamageError(
        path,
        0,
        `its -wal has pages of ${wal.pageSize} bytes, the file ${header.pageSize}`,
      );
    }
    this.header = header;
    this.pageSize = header.pageSize;
    this.usable = header.usable;
    // A last page cut short counts, its missing bytes read as zeros (pager.c).
    const inFile = Math.ceil(fileSize / header.pageSize);
    if (wal !== null && wal.pages > 0) this.pages = wal.pages;
    else if (pageOne === null) this.pages = 0;
    else if (header.headerPages > 0) {
      // SQLite refuses a header that claims more pages than the file has.
      if (header.headerPages > inFile) {
        throw new SqliteDamageError(
          path,
          0,
          `the header says ${header.headerPages} pages but the file holds ${inFile}`,
        );
      }
      this.pages = header.headerPages;
    } else this.pages = inFile;
    const lock = lockBytePage(header.pageSize);
    this.lockPage = lock <= this.pages ? lock : 0;
  }

  /**
   * Opens a database file and the committed frames of its `-wal`.
   *
   * @param path the file (a regular file: anything else is refused unopened)
   * @returns the source
   * @throws {SqliteOpenError} when it is not a regular file, not a SQLite
   * file, or cannot be read
   */
  static open(path: string): PageSource {
    let fd: number | null = null;
    let walFd: number | null = null;
    try {
      const stat = fs.statSync(path);
      if (!stat.isFile()) {
        throw new SqliteOpenError(path, "unreadable", `Cannot open "${path}": not a regular file`);
      }
      fd = fs.openSync(path, "r");
      const size = fs.fstatSync(fd).size;
      const commits = walCommits(path);
      let wal: SourceInit["wal"] = null;
      if (commits !== null && commits.used > 0) {
        walFd = fs.openSync(`${realPath(path)}-wal`, "r");
        const { offsets, pages, pageSize } = commits;
        wal = { fd: walFd, offsets, pages, pageSize };
      }
      let pageOne: Uint8Array | null = null;
      const inWal = wal?.offsets.get(1);
      if (inWal !== undefined) {
        pageOne = new Uint8Array(100);
        fs.readSync(walFd!, pageOne, 0, 100, inWal);
      } else if (size > 0) {
        pageOne = new Uint8Array(Math.min(100, size));
        fs.readSync(fd, pageOne, 0, pageOne.length, 0);
      }
      const src = new PageSource({ path, fd, fileSize: size, wal, pageOne });
      fd = walFd = null;
      return src;
    } catch (e) {
      if (e instanceof SqliteOpenError) throw e;
      throw new SqliteOpenError(
        path,
        "unreadable",
        `Cannot open "${path}": ${(e as Error).message}`,
        { cause: e },
      );
    } finally {
      if (fd !== null) fs.closeSync(fd);
      if (walFd !== null) fs.closeSync(walFd);
    }
  }

  /**
   * The error for damage found on page `page` of this file.
   *
   * @param page the page (0: the header)
   * @param problem what is wrong there
   * @returns the error, to throw
   */
  damaged(page: number, problem: string): SqliteDamageError {
    return new SqliteDamageError(this.path, page, problem);
  }

  /**
   * Reads page `n` into `into` at `at` (a page's bytes), synchronously.
   *
   * @param n the page number (1 to {@link pages})
   * @param into where the page goes
   * @param at where in `into`
   * @param ahead whether a read that follows on may read its whole chunk
   * ahead (lib/sqlite/read_ahead.ts); false for pages that lie far apart,
   * a b-tree's interior pages, where each chunk read would be used for one
   * page
   */
  read(n: number, into: Uint8Array, at = 0, ahead = true): void {
    if (!(n >= 1 && n <= this.pages)) {
      throw this.damaged(n, `no such page: the file has ${this.pages}`);
    }
    const size = this.pageSize;
    const inWal = this.#wal?.offsets.get(n);
    if (inWal !== undefined) {
      this.#fill(this.#wal!.fd, into, at, size, inWal, n);
      return;
    }
    const pos = (n - 1) * size;
    if (ahead && this.#ahead.read(into, at, size, pos) === size) return;
    this.#fill(this.#fd, into, at, size, pos, n);
  }

  /**
   * Reads pages `first` to `first + count - 1` into `into` (consecutive,
   * from its start), on the runtime's I/O threads; pages a `-wal` holds are
   * then read from it.
   *
   * @param first the first page
   * @param count how many
   * @param into at least `count` pages of bytes
   * @returns when they are read
   */
  async readRun(first: number, count: number, into: Uint8Array): Promise<void> {
    const last = first + count - 1;
    if (!(first >= 1 && last <= this.pages)) {
      throw this.damaged(last, `no such page: the file has ${this.pages}`);
    }
    const size = this.pageSize;
    const pos = (first - 1) * size;
    const want = Math.max(0, Math.min(count * size, this.#fileSize - pos));
    let got = 0;
    while (got < want) {
      const n = await readAt(this.#fd, into.subarray(got), want - got, pos + got);
      if (n === 0) break;
      got += n;
    }
    // Pages past the file's end (a -wal holds them, or SQLite reads zeros).
    into.fill(0, got, count * size);
    const wal = this.#wal;
    if (wal !== null) {
      for (let n = first; n <= last; n++) {
        const off = wal.offsets.get(n);
        if (off !== undefined) this.#fill(wal.fd, into, (n - first) * size, size, off, n);
      }
    }
  }

  /** Reads `size` bytes at `pos` of `fd`; what lies past the end of the file reads as zeros. */
  #fill(fd: number, into: Uint8Array, at: number, size: number, pos: number, n: number): void {
    let got = 0;
    try {
      while (got < size) {
        const r = fs.readSync(fd, into, at + got, size - got, pos + got);
        if (r === 0) break;
        got += r;
      }
    } catch (e) {
      throw new SqliteOpenError(
        this.path,
        "unreadable",
        `Cannot read "${this.path}": reading page ${n} failed (${(e as Error).message})`,
        { cause: e },
      );
    }
    into.fill(0, at + got, at + size);
  }

  /**
   * A buffer of `bytes` for reading runs of pages, from the few this source
   * keeps for reuse (a diff of 200 tables walks 400 trees: a buffer each
   * was most of its memory, given back late by the collector).
   *
   * @param bytes its size
   * @returns the buffer (uninitialised)
   */
  borrow(bytes: number): Buffer {
    const i = this.#pool.findIndex((b) => b.length === bytes);
    if (i >= 0) return this.#pool.splice(i, 1)[0]!;
    return Buffer.allocUnsafe(bytes);
  }

  /**
   * Gives a buffer from {@link borrow} back, once nothing reads into it.
   *
   * @param buf the buffer
   */
  giveBack(buf: Buffer): void {
    if (this.#pool.length < POOL) this.#pool.push(buf);
  }

  /** Closes the file (and its `-wal`). */
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    fs.closeSync(this.#fd);
    if (this.#wal !== null) fs.closeSync(this.#wal.fd);
  }
}
