/**
 * A read-only SQLite VFS over synchronous `node:fs` calls.
 *
 * The Node build of @sqlite.org/sqlite-wasm has no file access of its own, and
 * `sqlite3_deserialize` would copy a whole file into the 2 GiB WASM heap. This
 * VFS lets SQLite read pages straight from disk instead, one `readSync` per
 * page, so a multi-GB file costs only SQLite's page cache.
 *
 * What it guarantees, whatever SQLite asks for:
 * - on-disk files are opened with `O_RDONLY` and never written, truncated,
 *   created, deleted or locked (no fcntl locks, no `-shm` file);
 * - files SQLite wants to create (temp tables, sorter spill, journals of a
 *   temp database) are scratch files in the system temp folder, from
 *   temporary storage (temp_files.ts), removed when closed: never beside
 *   the inputs. With `temp_store=FILE` (set by `openDatabase()`), SQLite's
 *   external sorter then keeps only about `cache_size` in memory;
 * - the io-methods are version 1 (no xShmMap), so SQLite only reads a WAL
 *   database when the connection is in `locking_mode=EXCLUSIVE`, where it
 *   builds the wal-index in heap memory. `openDatabase()` sets that mode
 *   before the first read, so commits that are still only in the `-wal` file
 *   are seen.
 *
 * @module
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { isHotJournal, realPath } from "./file_check.ts";
import { MemoryFile } from "./_memory_file.ts";
import { ReadAhead } from "./read_ahead.ts";
import { closeTempFile, noteTempFileSize, openTempFile, type TempFile } from "./temp_files.ts";
import type { Ptr, Sqlite } from "./wasm.ts";

/** The name the VFS is registered under. */
export const READ_ONLY_VFS = "dbagenteval-ro";

// Open flags (sqlite3.h).
const OPEN_READONLY = 0x1;
const OPEN_READWRITE = 0x2;
const OPEN_CREATE = 0x4;
const OPEN_DELETEONCLOSE = 0x8;
const OPEN_MAIN_DB = 0x100;
const OPEN_MAIN_JOURNAL = 0x800;
const OPEN_WAL = 0x80000;
const OPEN_ON_DISK = OPEN_MAIN_DB | OPEN_MAIN_JOURNAL | OPEN_WAL;

// Result codes (sqlite3.h).
const OK = 0;
const READONLY = 8;
const FULL = 13;
const IOERR = 10;
const NOTFOUND = 12;
const CANTOPEN = 14;
const IOERR_READ = IOERR | (1 << 8);
const IOERR_SHORT_READ = IOERR | (2 << 8);
const IOERR_WRITE = IOERR | (3 << 8);
const IOERR_FSTAT = IOERR | (7 << 8);
const IOERR_TRUNCATE = IOERR | (6 << 8);

type OpenFile =
  | {
    readonly kind: "disk";
    readonly fd: number;
    readonly size: number;
    /** What this connection reads as the file's first bytes instead of its own (withPageOne). */
    readonly pageOne: Uint8Array | undefined;
    /** Chunks read ahead, for a main database file (_read_ahead.ts). */
    readonly ahead: ReadAhead | undefined;
  }
  | { readonly kind: "memory"; readonly file: MemoryFile }
  | { readonly kind: "temp"; readonly file: TempFile; size: number };

let installed: Promise<void> | undefined;

/** Page 1 replacements for the next open of a file, by the path SQLite opens. */
const pageOnes = new Map<string, Uint8Array>();

/**
 * Runs `open`, which opens `path` as a main database (a connection, or an
 * ATTACH), with `page` read as the file's page 1 by that connection only
 * (lib/diff/_schema_page_one.ts builds one that holds a few tables' schema
 * rows). The file itself is read as ever; the page lives in memory, for as
 * long as the connection. `open` must open the file synchronously: the
 * replacement is offered only while it runs, and to the first open of it.
 *
 * @param path the file
 * @param page its page 1 for this connection, or null for the file's own
 * @param open what opens it
 * @returns what `open` returns
 */
export function withPageOne<T>(path: string, page: Uint8Array | null, open: () => T): T {
  if (page === null) return open();
  const key = realPath(nodePath.resolve(path));
  pageOnes.set(key, page);
  try {
    return open();
  } finally {
    pageOnes.delete(key);
  }
}

/**
 * Registers the read-only VFS with SQLite once per process.
 *
 * @param sqlite the loaded module
 * @returns when the VFS is registered
 */
export function installReadOnlyVfs(sqlite: Sqlite): Promise<void> {
  installed ??= Promise.resolve().then(() => register(sqlite));
  return installed;
}

function register(sqlite: Sqlite): void {
  const { capi, wasm } = sqlite;
  const files = new Map<Ptr, OpenFile>();
  let lastError = "";

  const fail = (code: number, error: unknown): number => {
    lastError = error instanceof Error ? error.message : String(error);
    return code;
  };

  const io = new capi.sqlite3_io_methods();
  io.$iVersion = 1;
  const ioMethods = {
    xClose(pFile: Ptr): number {
      const f = files.get(pFile);
      files.delete(pFile);
      try {
        if (f?.kind === "disk") fs.closeSync(f.fd);
        if (f?.kind === "temp") closeTempFile(f.file);
      } catch (e) {
        return fail(IOERR, e);
      }
      return OK;
    },
    xRead(pFile: Ptr, pDest: Ptr, n: number, offset: bigint): number {
      const f = files.get(pFile);
      if (f === undefined) return IOERR_READ;
      const dest = Number(pDest);
      const at = Number(offset);
      try {
        // The heap view is taken per call: it is replaced when memory grows.
        const heap = wasm.heap8u();
        let got = 0;
        if (f.kind === "disk" && f.pageOne !== undefined && at < f.pageOne.length) {
          got = Math.min(n, f.pageOne.length - at);
          heap.set(f.pageOne.subarray(at, at + got), dest);
        }
        if (f.kind === "disk" && got === 0 && f.ahead !== undefined) {
          got = f.ahead.read(heap, dest, n, at);
        }
        if (f.kind !== "memory") {
          const fd = f.kind === "disk" ? f.fd : f.file.fd;
          while (got < n) {
            const r = fs.readSync(fd, heap, dest + got, n - got, at + got);
            if (r === 0) break;
            got += r;
          }
        } else {
          got = f.file.read(heap.subarray(dest, dest + n), at);
        }
        if (got < n) {
          heap.fill(0, dest + got, dest + n);
          return IOERR_SHORT_READ;
        }
        return OK;
      } catch (e) {
        return fail(IOERR_READ, e);
      }
    },
    xWrite(pFile: Ptr, pSrc: Ptr, n: number, offset: bigint): number {
      const f = files.get(pFile);
      if (f === undefined || f.kind === "disk") return READONLY;
      const src = Number(pSrc);
      const at = Number(offset);
      if (f.kind === "memory") {
        f.file.write(wasm.heap8u().slice(src, src + n), at);
        return OK;
      }
      // Past the cap of temporary storage the write fails, and the
      // statement with it ("database or disk is full").
      if (at + n > f.size && !noteTempFileSize(f.file, at + n)) return FULL;
      try {
        let put = 0;
        while (put < n) {
          // The heap view is taken per call: it is replaced when memory grows.
          put += fs.writeSync(f.file.fd, wasm.heap8u(), src + put, n - put, at + put);
        }
        if (at + n > f.size) f.size = at + n;
        return OK;
      } catch (e) {
        return fail(IOERR_WRITE, e);
      }
    },
    xTruncate(pFile: Ptr, size: bigint): number {
      const f = files.get(pFile);
      if (f === undefined || f.kind === "disk") return READONLY;
      if (f.kind === "memory") {
        f.file.truncate(Number(size));
        return OK;
      }
      try {
        if (Number(size) < f.size) {
          fs.ftruncateSync(f.file.fd, Number(size));
          f.size = Number(size);
          noteTempFileSize(f.file, f.size);
        }
        return OK;
      } catch (e) {
        return fail(IOERR_TRUNCATE, e);
      }
    },
    xSync: (): number => OK,
    xFileSize(pFile: Ptr, pSize: Ptr): number {
      const f = files.get(pFile);
      if (f === undefined) return IOERR_FSTAT;
      wasm.poke64(pSize, BigInt(f.kind === "memory" ? f.file.size : f.size));
      return OK;
    },
    // Locks are recorded nowhere: nothing else shares these handles, and the
    // files on disk must not be locked.
    xLock: (): number => OK,
    xUnlock: (): number => OK,
    xCheckReservedLock(_pFile: Ptr, pOut: Ptr): number {
      wasm.poke32(pOut, 0);
      return OK;
    },
    xFileControl: (): number => NOTFOUND,
    xSectorSize: (): number => 4096,
    xDeviceCharacteristics: (): number => 0,
  };
  sqlite.vfs.installVfs({ io: { struct: io, methods: ioMethods } });

  const vfs = new capi.sqlite3_vfs();
  const fallback = new capi.sqlite3_vfs(capi.sqlite3_vfs_find(null));
  vfs.$iVersion = 2;
  vfs.$szOsFile = capi.sqlite3_file.structInfo.sizeof;
  vfs.$mxPathname = 4096;
  vfs.$xRandomness = fallback.$xRandomness;
  fallback.dispose();

  const vfsMethods = {
    xOpen(
      _pVfs: Ptr,
      zName: Ptr,
      pFile: Ptr,
      flags: number,
      pOutFlags: Ptr,
    ): number {
      try {
        const name = zName ? wasm.cstrToJs(zName) : "";
        let open: OpenFile;
        let outFlags: number;
        const onDisk = name !== "" && isNonEmptyFile(name);
        if ((flags & OPEN_WAL) !== 0 && !onDisk) {
          // A WAL-mode database without its -wal file: SQLite still opens a
          // WAL. An empty read-only one in memory means "no pending commits".
          open = { kind: "memory", file: new MemoryFile() };
          outFlags = OPEN_READONLY;
        } else if (name !== "" && (flags & OPEN_ON_DISK) !== 0) {
          // The main database, its rollback journal or its WAL: read from
          // disk. A missing journal is not created.
          if (!onDisk && (flags & OPEN_MAIN_DB) === 0) {
            return fail(CANTOPEN, `no such file: ${name}`);
          }
          // Opening a FIFO for reading would wait for a writer: refuse
          // anything but a regular file before opening it.
          if (!fs.statSync(name).isFile()) {
            return fail(CANTOPEN, `not a regular file: ${name}`);
          }
          const fd = fs.openSync(name, "r");
          const main = (flags & OPEN_MAIN_DB) !== 0;
          const pageOne = main ? pageOnes.get(name) : undefined;
          pageOnes.delete(name);
          const size = fs.fstatSync(fd).size;
          const ahead = main ? new ReadAhead(fd, size) : undefined;
          open = { kind: "disk", fd, size, pageOne, ahead };
          outFlags = OPEN_READONLY;
        } else {
          open = { kind: "temp", file: openTempFile(), size: 0 };
          outFlags = (flags & ~OPEN_READONLY) | OPEN_READWRITE | OPEN_CREATE |
            OPEN_DELETEONCLOSE;
        }
        files.set(pFile, open);
        const file = new capi.sqlite3_file(pFile);
        file.$pMethods = io.pointer;
        file.dispose();
        if (pOutFlags) wasm.poke32(pOutFlags, outFlags);
        return OK;
      } catch (e) {
        return fail(CANTOPEN, e);
      }
    },
    // Never deletes, and says it did: a disk file is not ours, and scratch
    // files vanish on close. A read-only connection asks only for one delete:
    // a stale -wal beside an empty database, which SQLite would remove and
    // then ignore, as it now does.
    xDelete: (): number => OK,
    xAccess(_pVfs: Ptr, zName: Ptr, flags: number, pOut: Ptr): number {
      // SQLITE_ACCESS_EXISTS (0) answers like the unix VFS: an empty regular
      // file does not count. Nothing is ever writable (SQLITE_ACCESS_READWRITE).
      // A -journal counts only when it is hot: SQLite would call any journal
      // with a non-zero first byte hot and, read-only, refuse to open with
      // "attempt to write a readonly database", where a writer would find
      // nothing to roll back and discard it.
      const name = wasm.cstrToJs(zName);
      const exists = flags !== 1 && isNonEmptyFile(name) &&
        (!name.endsWith("-journal") || journalMayBeHot(name));
      wasm.poke32(pOut, exists ? 1 : 0);
      return OK;
    },
    xFullPathname(_pVfs: Ptr, zName: Ptr, nOut: number, pOut: Ptr): number {
      // Symlinks are resolved, as the unix VFS does: SQLite names the -wal
      // and -journal after this path, and they sit beside the real file.
      const full = realPath(nodePath.resolve(wasm.cstrToJs(zName)));
      const bytes = new TextEncoder().encode(full);
      if (bytes.length + 1 > nOut) return CANTOPEN;
      const heap = wasm.heap8u();
      heap.set(bytes, Number(pOut));
      heap[Number(pOut) + bytes.length] = 0;
      return OK;
    },
    xSleep: (): number => 0,
    xCurrentTime(_pVfs: Ptr, pOut: Ptr): number {
      wasm.poke(pOut, 2440587.5 + Date.now() / 864e5, "double");
      return OK;
    },
    xCurrentTimeInt64(_pVfs: Ptr, pOut: Ptr): number {
      wasm.poke(pOut, 210866760000000n + BigInt(Date.now()), "i64");
      return OK;
    },
    xGetLastError(_pVfs: Ptr, nOut: number, pOut: Ptr): number {
      const bytes = new TextEncoder().encode(lastError).subarray(0, nOut - 1);
      const heap = wasm.heap8u();
      heap.set(bytes, Number(pOut));
      heap[Number(pOut) + bytes.length] = 0;
      return OK;
    },
  };
  sqlite.vfs.installVfs({
    vfs: { struct: vfs, methods: vfsMethods, name: READ_ONLY_VFS },
  });
}

// An unreadable journal may be hot: SQLite then tries to open it and reports why it cannot.
function journalMayBeHot(path: string): boolean {
  try {
    return isHotJournal(path);
  } catch {
    return true;
  }
}

function isNonEmptyFile(path: string): boolean {
  try {
    const st = fs.statSync(path);
    return !st.isFile() || st.size > 0;
  } catch {
    return false;
  }
}
