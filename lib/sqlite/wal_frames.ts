/**
 * How much of a `-wal` file SQLite will use. SQLite reads a WAL's frames up
 * to the last commit before the first frame whose salts or checksum do not
 * match, and silently ignores the rest. Frames with other salts are normal:
 * after a checkpoint SQLite restarts the log from its start with new salts
 * and leaves the old cycle's frames behind the new ones. A checksum failure
 * under the current salts is a torn write, a crash or damage: a database
 * read with it can lack commits without a word. This module counts the
 * frames so that `db info` and `db diff` can say so, and gives the file
 * reader (lib/sqlite_format/page_source.ts) the committed pages, which it
 * reads in place of the database file's, as SQLite does.
 *
 * The frames are read in chunks, never the whole file at once.
 *
 * @module
 */
import * as fs from "node:fs";
import { realPath } from "./file_check.ts";

const HEADER = 32;
const FRAME_HEADER = 24;
/** Frames are read about this many bytes at a time. */
const CHUNK = 4 * 1024 * 1024;

/** What a `-wal` holds, and how much of it SQLite uses. */
export interface WalFrames {
  /** The `-wal` file's path. */
  readonly path: string;
  /** Whole frames in the file. */
  readonly frames: number;
  /** Frames SQLite uses: those up to the last valid commit. */
  readonly used: number;
  /**
   * The 1-based frame whose checksum fails under the current salts, or null
   * (frames of an earlier WAL cycle, with other salts, are not bad).
   */
  readonly firstBad: number | null;
}

/** The pages a `-wal` holds for its database, as SQLite reads them. */
export interface WalCommits extends WalFrames {
  readonly pageSize: number;
  /** The database's size in pages after the last commit SQLite uses. */
  readonly pages: number;
  /**
   * For each page that a used frame holds, the offset in the `-wal` of the
   * newest such frame's page bytes.
   */
  readonly offsets: ReadonlyMap<number, number>;
}

/**
 * Counts the frames of the `-wal` beside `dbPath` (beside its real path,
 * as SQLite looks for it) and the frames SQLite would use.
 *
 * @param dbPath the database file
 * @returns the counts, or null when there is no `-wal`, it is empty, not a
 * regular file, or its header is not a valid WAL header (then SQLite uses none of it
 * and says nothing either, as it treats it as empty)
 * @example
 * ```ts
 * import { walFrames } from "./wal_frames.ts";
 * walFrames("examples/chinook/Chinook_Sqlite.sqlite"); // null: no -wal
 * ```
 */
export function walFrames(dbPath: string): WalFrames | null {
  const commits = walCommits(dbPath);
  if (commits === null) return null;
  const { path, frames, used, firstBad } = commits;
  return { path, frames, used, firstBad };
}

/**
 * The committed pages of the `-wal` beside `dbPath`: what SQLite reads in
 * place of the database file's pages (see {@link walFrames} for which
 * frames count).
 *
 * @param dbPath the database file
 * @returns the pages and counts, or null as {@link walFrames} gives null
 * @example
 * ```ts
 * import { walCommits } from "./wal_frames.ts";
 * walCommits("examples/chinook/Chinook_Sqlite.sqlite"); // null: no -wal
 * ```
 */
export function walCommits(dbPath: string): WalCommits | null {
  const path = `${realPath(dbPath)}-wal`;
  let fd: number;
  try {
    if (!fs.statSync(path).isFile()) return null;
    fd = fs.openSync(path, "r");
  } catch {
    return null;
  }
  try {
    return scan(fd, path);
  } finally {
    fs.closeSync(fd);
  }
}

function scan(fd: number, path: string): WalCommits | null {
  const size = fs.fstatSync(fd).size;
  if (size < HEADER) return null;
  const head = new Uint8Array(HEADER);
  if (fs.readSync(fd, head, 0, HEADER, 0) !== HEADER) return null;
  const hv = new DataView(head.buffer);
  const magic = hv.getUint32(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return null;
  const bigEndian = (magic & 1) === 1;
  const rawSize = hv.getUint32(8);
  const pageSize = rawSize === 1 ? 65536 : rawSize;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return null;
  const frameSize = FRAME_HEADER + pageSize;
  const frames = Math.max(0, Math.floor((size - HEADER) / frameSize));
  const none = { path, frames, used: 0, pageSize, pages: 0, offsets: new Map() };
  let [s0, s1] = checksum(hv, 0, 24, bigEndian, 0, 0);
  if (s0 !== hv.getUint32(24) || s1 !== hv.getUint32(28)) return { ...none, firstBad: 1 };
  const salt1 = hv.getUint32(16);
  const salt2 = hv.getUint32(20);
  const perChunk = Math.max(1, Math.floor(CHUNK / frameSize));
  const buf = new Uint8Array(perChunk * frameSize);
  const view = new DataView(buf.buffer);
  // Frames since the last commit, and the pages they hold, kept until a
  // commit frame makes them count.
  const offsets = new Map<number, number>();
  const pending: number[] = [];
  let used = 0;
  let pages = 0;
  let firstBad: number | null = null;
  scanning: for (let first = 0; first < frames; first += perChunk) {
    const count = Math.min(perChunk, frames - first);
    const at0 = HEADER + first * frameSize;
    if (fs.readSync(fd, buf, 0, count * frameSize, at0) !== count * frameSize) break;
    for (let k = 0; k < count; k++) {
      const at = k * frameSize;
      // Another salt: a frame of an earlier WAL cycle, left after a
      // checkpoint restarted the log. SQLite stops there by design.
      if (view.getUint32(at + 8) !== salt1 || view.getUint32(at + 12) !== salt2) break scanning;
      [s0, s1] = checksum(view, at, 8, bigEndian, s0, s1);
      // A frame of page 0 is invalid too (wal.c walDecodeFrame).
      if (view.getUint32(at) === 0) {
        firstBad = first + k + 1;
        break scanning;
      }
      [s0, s1] = checksum(view, at + FRAME_HEADER, pageSize, bigEndian, s0, s1);
      if (s0 !== view.getUint32(at + 16) || s1 !== view.getUint32(at + 20)) {
        firstBad = first + k + 1;
        break scanning;
      }
      pending.push(view.getUint32(at), at0 + at + FRAME_HEADER);
      const commit = view.getUint32(at + 4);
      if (commit !== 0) {
        for (let i = 0; i < pending.length; i += 2) offsets.set(pending[i]!, pending[i + 1]!);
        pending.length = 0;
        used = first + k + 1;
        pages = commit;
      }
    }
  }
  // A commit that shrank the database leaves frames of pages beyond it.
  for (const page of offsets.keys()) if (page > pages) offsets.delete(page);
  return { path, frames, used, firstBad, pageSize, pages, offsets };
}

// SQLite's WAL checksum (wal.c walChecksumBytes): over 32-bit words in the
// byte order the magic number names, two running sums.
function checksum(
  view: DataView,
  at: number,
  length: number,
  bigEndian: boolean,
  a: number,
  b: number,
): [number, number] {
  let s0 = a;
  let s1 = b;
  for (let i = at; i < at + length; i += 8) {
    s0 = (s0 + view.getUint32(i, !bigEndian) + s1) >>> 0;
    s1 = (s1 + view.getUint32(i + 4, !bigEndian) + s0) >>> 0;
  }
  return [s0, s1];
}

/**
 * The warning to print for a `-wal` with frames SQLite does not use, or
 * undefined when it uses them all. Frames after the last commit that are
 * valid are a transaction still being written (or abandoned): not warned.
 *
 * @param dbPath the database file
 * @returns one line, without a newline
 */
export function walWarning(dbPath: string): string | undefined {
  const wal = walFrames(dbPath);
  if (wal === null || wal.firstBad === null) return undefined;
  return `warning: "${wal.path}" has ${wal.frames} frame(s) but frame ${wal.firstBad} does not match its checksum, so SQLite reads only the first ${wal.used} (the commits after them are not seen); the -wal is damaged or was being written`;
}
