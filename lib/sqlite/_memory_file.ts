/**
 * A growable byte array standing in for a file SQLite asks to create
 * (temporary tables, sorter spill, statement journals). Keeping these in
 * memory is what lets the read-only VFS promise that nothing on disk is ever
 * created.
 *
 * @module
 */
export class MemoryFile {
  #data = new Uint8Array(0);
  #size = 0;

  /** The file's size in bytes. */
  get size(): number {
    return this.#size;
  }

  /** Copies up to `length` bytes at `offset` into `into`; returns the count copied. */
  read(into: Uint8Array, offset: number): number {
    const end = Math.min(this.#size, offset + into.length);
    if (end <= offset) return 0;
    into.set(this.#data.subarray(offset, end));
    return end - offset;
  }

  /** Writes `bytes` at `offset`, growing the file as needed. */
  write(bytes: Uint8Array, offset: number): void {
    const end = offset + bytes.length;
    if (end > this.#data.length) {
      const grown = new Uint8Array(Math.max(end, this.#data.length * 2, 4096));
      grown.set(this.#data.subarray(0, this.#size));
      this.#data = grown;
    }
    this.#data.set(bytes, offset);
    this.#size = Math.max(this.#size, end);
  }

  /** Cuts the file to `size` bytes. */
  truncate(size: number): void {
    if (size < this.#size) {
      this.#data.fill(0, size, this.#size);
      this.#size = size;
    }
  }
}
