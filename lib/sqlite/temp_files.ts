/**
 * Temporary storage: the one place that creates files.
 *
 * SQLite asks its VFS for scratch files it names no path for (the external
 * sorter's spill, temporary tables, statement journals). Held in memory they
 * grow with the data: a GROUP BY over a 20M-row keyless table would fill the
 * WebAssembly heap. Given real files, SQLite's sorter keeps only about
 * `cache_size` in memory and merges sorted runs from disk.
 *
 * Where: the system temp folder (`os.tmpdir()`, so `TMPDIR` moves it), never
 * beside the input files. Names: `dbagenteval-<pid>-<n>-<random>.tmp`,
 * created exclusively with mode 0600. How big: up to the cap of temporary
 * storage (lib/isolation/temp_storage.ts, shared by the pool's workers),
 * past which a write fails as SQLITE_FULL; the {@link tempFileStats} say
 * how much. Removed on every exit path: on POSIX
 * systems the name is unlinked the moment the file is open, so nothing is left
 * behind even when the process is killed; elsewhere (Windows, where an open
 * file cannot be unlinked) the file is removed on close and any left are
 * removed when the process exits.
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as nodePath from "node:path";
import { reserveTempBytes } from "../isolation/temp_storage.ts";

/** A scratch file open for reading and writing. */
export interface TempFile {
  readonly fd: number;
}

/** What temporary storage has done in this process. */
export interface TempFileStats {
  /** The folder temporary files are created in. */
  readonly dir: string;
  /** Files created so far. */
  readonly created: number;
  /** Files open now. */
  readonly open: number;
  /** The most bytes written to files open at one time. */
  readonly peakBytes: number;
}

const UNLINK_WHILE_OPEN = process.platform !== "win32";

/** Paths still on disk (only where they cannot be unlinked while open). */
const onDisk = new Map<number, string>();
/** Bytes each open file spans. */
const sizes = new Map<number, number>();
let created = 0;
let bytes = 0;
let peakBytes = 0;
let exitHook = false;

function removeLeftovers(): void {
  for (const p of onDisk.values()) {
    try {
      fs.rmSync(p, { force: true });
    } catch {
      // Best effort at exit: nothing else can be done.
    }
  }
  onDisk.clear();
}

/**
 * Creates an empty scratch file in the system temp folder.
 *
 * @returns the open file; give it back with {@link closeTempFile}
 */
export function openTempFile(): TempFile {
  const dir = os.tmpdir();
  const name = `dbagenteval-${process.pid}-${++created}-${
    Math.random().toString(36).slice(2, 10)
  }.tmp`;
  const path = nodePath.join(dir, name);
  const fd = fs.openSync(path, "wx+", 0o600);
  if (UNLINK_WHILE_OPEN) {
    fs.unlinkSync(path);
  } else {
    onDisk.set(fd, path);
    if (!exitHook) {
      exitHook = true;
      process.on("exit", removeLeftovers);
    }
  }
  sizes.set(fd, 0);
  return { fd };
}

/**
 * Records that `file` now spans `size` bytes (after a write or a truncate),
 * counted against the cap of temporary storage (lib/isolation/temp_storage.ts).
 *
 * @param file the file
 * @param size its size in bytes
 * @returns false, recording nothing, when growing to `size` would pass the
 * cap: the write must fail (SQLITE_FULL)
 */
export function noteTempFileSize(file: TempFile, size: number): boolean {
  const before = sizes.get(file.fd) ?? 0;
  if (!reserveTempBytes(size - before)) return false;
  sizes.set(file.fd, size);
  bytes += size - before;
  peakBytes = Math.max(peakBytes, bytes);
  return true;
}

/**
 * Closes a scratch file and removes it.
 *
 * @param file the file from {@link openTempFile}
 */
export function closeTempFile(file: TempFile): void {
  const size = sizes.get(file.fd) ?? 0;
  reserveTempBytes(-size);
  bytes -= size;
  sizes.delete(file.fd);
  fs.closeSync(file.fd);
  const path = onDisk.get(file.fd);
  if (path !== undefined) {
    onDisk.delete(file.fd);
    fs.rmSync(path, { force: true });
  }
}

/**
 * What temporary storage has done in this process.
 *
 * @returns the folder, the files created and open, the peak bytes
 */
export function tempFileStats(): TempFileStats {
  return { dir: os.tmpdir(), created, open: sizes.size, peakBytes };
}
