/**
 * The text encoding a database's `-wal` file gives it. A database created in
 * WAL mode can have its whole first page, and so its encoding, only in the
 * `-wal` until a checkpoint: the main file's header then says 0.
 *
 * @module
 */
import * as fs from "node:fs";

const WAL_MAGIC = [0x377f0682, 0x377f0683];
const HEADER = 32;
const FRAME_HEADER = 24;

/**
 * The encoding number (1 UTF-8, 2 UTF-16le, 3 UTF-16be) in the newest
 * committed copy of page 1 in `wal`, or 0 when the file is missing, not a
 * WAL, or holds no committed page 1. Frames are matched to the header by
 * their salts, as SQLite does; checksums are not verified (a torn last
 * frame only hides a page 1 that SQLite would ignore too, or not).
 *
 * @param wal the `-wal` file's path
 * @returns the encoding number, or 0
 */
export function walEncoding(wal: string): number {
  let fd: number;
  try {
    fd = fs.openSync(wal, "r");
  } catch {
    return 0;
  }
  try {
    const head = new Uint8Array(HEADER);
    if (fs.readSync(fd, head, 0, HEADER, 0) < HEADER) return 0;
    const h = new DataView(head.buffer);
    if (!WAL_MAGIC.includes(h.getUint32(0))) return 0;
    const pageSize = h.getUint32(8) === 1 ? 65536 : h.getUint32(8);
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return 0;
    const salt1 = h.getUint32(16);
    const salt2 = h.getUint32(20);
    const size = fs.fstatSync(fd).size;
    const frame = new Uint8Array(FRAME_HEADER);
    const f = new DataView(frame.buffer);
    const field = new Uint8Array(4);
    let pending = 0;
    let committed = 0;
    for (let at = HEADER; at + FRAME_HEADER + pageSize <= size; at += FRAME_HEADER + pageSize) {
      fs.readSync(fd, frame, 0, FRAME_HEADER, at);
      if (f.getUint32(8) !== salt1 || f.getUint32(12) !== salt2) break;
      if (f.getUint32(0) === 1) {
        fs.readSync(fd, field, 0, 4, at + FRAME_HEADER + 56);
        pending = new DataView(field.buffer).getUint32(0);
      }
      // A commit frame (database size set) makes the frames before it count.
      if (f.getUint32(4) !== 0 && pending !== 0) committed = pending;
    }
    return committed;
  } catch {
    return 0;
  } finally {
    fs.closeSync(fd);
  }
}
