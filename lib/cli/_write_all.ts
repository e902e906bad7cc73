/**
 * Synchronous writes that stream a long output (`db diff --sql`, `--json`)
 * with flat memory, to a file or to stdout.
 *
 * Why not `fs.writeSync(1, ...)` alone: Bun makes stdout non-blocking when
 * it is a pipe, so a write into a full pipe (a reader slower than we are,
 * `| gzip`, `| psql`) fails with EAGAIN instead of waiting, and may write
 * part of what it was given. `process.stdout.write` would instead queue the
 * whole output in memory.
 *
 * @module
 */
import * as fs from "node:fs";

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes every byte of `bytes` to `fd`, waiting 2 ms at a time while a
 * non-blocking pipe is full. A reader that went away still throws (EPIPE).
 *
 * @param fd an open file descriptor (1 for stdout)
 * @param bytes what to write
 */
export function writeAllSync(fd: number, bytes: Uint8Array): void {
  let at = 0;
  while (at < bytes.length) {
    try {
      at += fs.writeSync(fd, bytes, at, bytes.length - at);
    } catch (e) {
      if ((e as { code?: unknown }).code !== "EAGAIN") throw e;
      Atomics.wait(pause, 0, 0, 2);
    }
  }
}

/**
 * Bytes and text written to a file descriptor through a 1 MiB buffer: the
 * JSON document comes in pieces and a changeset a value at a time, and a
 * system call per piece made a 995-column table's changeset take minutes.
 */
export class BufferedFile {
  readonly #fd: number;
  readonly #bytes = new Uint8Array(1 << 20);
  readonly #encoder = new TextEncoder();
  #used = 0;

  /** @param fd an open file descriptor (1 for stdout) */
  constructor(fd: number) {
    this.#fd = fd;
  }

  /** Writes bytes (straight through when they are bigger than the buffer). */
  write(bytes: Uint8Array): void {
    if (bytes.length > this.#bytes.length - this.#used) this.flush();
    if (bytes.length >= this.#bytes.length) this.#writeAll(bytes);
    else {
      this.#bytes.set(bytes, this.#used);
      this.#used += bytes.length;
    }
  }

  /** Writes text as UTF-8. */
  text(text: string): void {
    for (let rest = text;;) {
      const { read, written } = this.#encoder.encodeInto(rest, this.#bytes.subarray(this.#used));
      this.#used += written;
      if (read === rest.length) return;
      this.flush();
      rest = rest.slice(read);
    }
  }

  /** Writes what the buffer holds. */
  flush(): void {
    this.#writeAll(this.#bytes.subarray(0, this.#used));
    this.#used = 0;
  }

  #writeAll(bytes: Uint8Array): void {
    writeAllSync(this.#fd, bytes);
  }
}
