/**
 * Reading a UTF-8 text file a line at a time, a chunk in memory at most,
 * so that a long JSON lines cases file is never held whole.
 *
 * @module
 */
import * as fs from "node:fs";
import { specialFileError, specialFileKind } from "../read_text_file.ts";

const CHUNK = 1 << 16;

/**
 * The lines of a file, in order, each with its 1-based number, split on
 * "\n" as `text.split("\n")` splits it (a "\r" before it stays; JSON
 * ignores it), a leading byte-order mark dropped. Reads are synchronous:
 * a chunk of a local file costs less than the promise around it.
 */
export class LineReader {
  readonly #fd: number;
  readonly #decoder = new TextDecoder("utf-8");
  readonly #chunk: Buffer;
  #lines: string[] = [];
  #at = 0;
  #rest = "";
  #eof = false;
  /** The number of the line {@link next} returned last. */
  line = 0;

  /**
   * Opens the file, refusing FIFOs, sockets and devices first (as
   * readTextFile does).
   *
   * @param path the file
   * @param chunkBytes how much to read at a time
   * @throws the `node:fs` error (`ENOENT`, `EISDIR`, ...) or `ENOTREG`
   */
  constructor(path: string, chunkBytes: number = CHUNK) {
    this.#chunk = Buffer.allocUnsafe(chunkBytes);
    const stat = fs.statSync(path);
    const kind = specialFileKind(stat);
    if (kind !== undefined) throw specialFileError(path, kind);
    if (stat.isDirectory()) {
      throw Object.assign(new Error("EISDIR: illegal operation on a directory"), {
        code: "EISDIR",
      });
    }
    this.#fd = fs.openSync(path, "r");
  }

  /**
   * The next line, without its "\n".
   *
   * @returns the line, or undefined after the last one
   */
  next(): string | undefined {
    while (this.#at >= this.#lines.length) {
      if (this.#eof) return undefined;
      this.#fill();
    }
    this.line++;
    const text = this.#lines[this.#at]!;
    this.#lines[this.#at++] = "";
    return text;
  }

  #fill(): void {
    const n = fs.readSync(this.#fd, this.#chunk, 0, this.#chunk.length, null);
    let text: string;
    if (n === 0) {
      this.#eof = true;
      text = this.#rest + this.#decoder.decode();
      this.#rest = "";
      this.#lines = [text];
    } else {
      text = this.#rest + this.#decoder.decode(this.#chunk.subarray(0, n), { stream: true });
      const lines = text.split("\n");
      this.#rest = lines.pop()!;
      this.#lines = lines;
    }
    this.#at = 0;
  }

  /** Closes the file (at any point; reading after it is an error). */
  close(): void {
    fs.closeSync(this.#fd);
  }
}
