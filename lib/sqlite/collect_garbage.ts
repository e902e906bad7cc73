/**
 * A full garbage collection, under Bun only. Bun's collector lets its heap
 * grow through long loops of small SQLite calls (the diff's range queries):
 * at 20M rows the compiled binary peaked at 228 MB where Deno stays at
 * 145 MB. Collecting every 20,000 ranges brought it to 179 MB at no
 * measurable cost (bench/README.md). Under Deno it does nothing: V8 needs no
 * help there.
 *
 * @module
 */

const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;

/**
 * Runs a collection under Bun; a no-op elsewhere.
 *
 * @param full a full, synchronous collection (true, the default), or only
 * a request to collect soon and to give freed memory back, which costs
 * next to nothing (for loops that call it every thousand rows)
 */
export function collectGarbage(full = true): void {
  bun?.gc(full);
}
