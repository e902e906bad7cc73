/**
 * Read-ahead for the read-only VFS (file_vfs.ts) and the file-format reader
 * (lib/sqlite_format/page_source.ts): SQLite asks for one page
 * per xRead, and each costs a system call and a runtime crossing. A diff's
 * queries walk a table's b-tree in key order, whose leaves mostly sit in
 * ascending page numbers; there, reading 64 pages at once and serving the
 * next 63 from memory cut W1's 110,000 page reads to under 2,000 (about a
 * sixth of its CPU time under `deno run`, bench/README.md).
 *
 * Reads that do not follow on (a miss in a chunk neither the same as nor
 * next to a recent miss's or a held chunk) read only what was asked: a random probe of
 * one page must not cost a 256 KiB copy. The chunks hold what the file held
 * when they were read, as SQLite's own page cache does; the inputs are not
 * written while they are read (file_vfs.ts says what happens if they are).
 *
 * @module
 */
import * as fs from "node:fs";
import { Buffer } from "node:buffer";

/** Bytes per chunk: a multiple of every page size, so a page read never straddles two. */
const CHUNK = 256 * 1024;
/** Chunks kept per file (1 MiB). */
const SLOTS = 4;

/**
 * The chunks of one open file.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs";
 * import { ReadAhead } from "./read_ahead.ts";
 * const path = "examples/chinook/Chinook_Sqlite.sqlite";
 * const fd = fs.openSync(path, "r");
 * const ahead = new ReadAhead(fd, fs.fstatSync(fd).size);
 * const page = new Uint8Array(4096);
 * ahead.read(page, 0, 4096, 0); // 0: a first read is the caller's own
 * ahead.read(page, 0, 4096, 4096); // 4096: it follows on, so its chunk is read and kept
 * fs.closeSync(fd);
 * ```
 */
export class ReadAhead {
  readonly #fd: number;
  readonly #size: number;
  /** Most recently used first. */
  readonly #slots: { index: number; bytes: number; buf: Buffer }[] = [];
  /** The chunks of the last few misses: a walk reads on from one of them (two b-trees at once, say). */
  readonly #misses: number[] = [];

  /**
   * @param fd the open file
   * @param size its size in bytes
   */
  constructor(fd: number, size: number) {
    this.#fd = fd;
    this.#size = size;
  }

  /**
   * Copies `n` bytes at `at` of the file into `dest` at `offset`, when they
   * lie in one chunk and that chunk is held or worth reading.
   *
   * @returns the bytes copied: `n`, or 0 when the caller must read them itself
   */
  read(dest: Uint8Array, offset: number, n: number, at: number): number {
    const index = Math.floor(at / CHUNK);
    if (Math.floor((at + n - 1) / CHUNK) !== index || at + n > this.#size) return 0;
    let i = this.#slots.findIndex((s) => s.index === index);
    if (i < 0) {
      const follows = this.#misses.some((m) => m === index || m === index - 1) ||
        this.#slots.some((s) => s.index === index - 1);
      this.#misses.unshift(index);
      if (this.#misses.length > SLOTS) this.#misses.pop();
      if (!follows) return 0;
      const slot = this.#slots.length < SLOTS
        ? { index: -1, bytes: 0, buf: Buffer.allocUnsafe(CHUNK) }
        : this.#slots.pop()!;
      slot.index = -1;
      const want = Math.min(CHUNK, this.#size - index * CHUNK);
      let got = 0;
      while (got < want) {
        const r = fs.readSync(this.#fd, slot.buf, got, want - got, index * CHUNK + got);
        if (r === 0) break;
        got += r;
      }
      this.#slots.unshift(slot);
      // A short read (the file shrank) leaves the chunk unused.
      if (got < want) return 0;
      slot.index = index;
      slot.bytes = got;
      i = 0;
    } else if (i > 0) this.#slots.unshift(...this.#slots.splice(i, 1));
    const slot = this.#slots[0]!;
    const from = at - index * CHUNK;
    dest.set(slot.buf.subarray(from, from + n), offset);
    return n;
  }
}
