/**
 * How much of a `-wal` file SQLite will use. SQLite reads a WAL's frames up
 * to the last commit before the first frame whose salts or checksum do not
 * match, and silently ignores the rest. Frames with other salts are normal:
 * after a checkpoint SQLite restarts the log from its start with new salts
 * and leaves the old cycle's frames behind the new ones. A checksum failure
 * under the current salts is a torn write, a crash or damage: a database
 * read with it can lack commits without a word. This module counts the
 * frames so that `db info` and `db diff` can say so.
 *
 * @module
 */
import * as fs from "node:fs";
import { realPath } from "./file_check.ts";

const HEADER = 32;
const FRAME_HEADER = 24;

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
  const path = `${realPath(dbPath)}-wal`;
  let bytes: Uint8Array;
  try {
    if (!fs.statSync(path).isFile()) return null;
    bytes = fs.readFileSync(path);
  } catch {
    return null;
  }
  if (bytes.length < HEADER) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = view.getUint32(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return null;
  const bigEndian = (magic & 1) === 1;
  const rawSize = view.getUint32(8);
  const pageSize = rawSize === 1 ? 65536 : rawSize;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return null;
  let [s0, s1] = checksum(view, 0, 24, bigEndian, 0, 0);
  if (s0 !== view.getUint32(24) || s1 !== view.getUint32(28)) {
    return { path, frames: frameCount(bytes.length, pageSize), used: 0, firstBad: 1 };
  }
  const salt1 = view.getUint32(16);
  const salt2 = view.getUint32(20);
  const frames = frameCount(bytes.length, pageSize);
  let used = 0;
  let firstBad: number | null = null;
  for (let n = 0; n < frames; n++) {
    const at = HEADER + n * (FRAME_HEADER + pageSize);
    // Another salt: a frame of an earlier WAL cycle, left after a
    // checkpoint restarted the log. SQLite stops there by design.
    if (view.getUint32(at + 8) !== salt1 || view.getUint32(at + 12) !== salt2) break;
    [s0, s1] = checksum(view, at, 8, bigEndian, s0, s1);
    [s0, s1] = checksum(view, at + FRAME_HEADER, pageSize, bigEndian, s0, s1);
    if (s0 !== view.getUint32(at + 16) || s1 !== view.getUint32(at + 20)) {
      firstBad = n + 1;
      break;
    }
    if (view.getUint32(at + 4) !== 0) used = n + 1; // a commit frame
  }
  return { path, frames, used, firstBad };
}

function frameCount(size: number, pageSize: number): number {
  return Math.max(0, Math.floor((size - HEADER) / (FRAME_HEADER + pageSize)));
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
