/**
 * What PGlite starts from. Two things keep a start small and the binary
 * smaller:
 *
 * - The template data directory `_pglite_template.tar.br` (an empty
 *   database as initdb makes it, written by tools/pglite_template.ts): an
 *   in-memory start loads it instead of running initdb, which is a second
 *   PGlite instance and a third WebAssembly module alive beside the first
 *   (Chinook's run peaked at 950 MB under Bun, 745 MB under Deno).
 * - In the binary, PGlite's engine and file-system bundle are embedded
 *   Brotli-compressed (`pglite.wasm.br`, `pglite.data.br`; the build makes
 *   them) and decompressed here, on first use. From the repository or a
 *   package, PGlite reads its own files from its package as usual.
 *
 * All three files sit beside this module: in the repository for the
 * template, at the binary's root for all of them (the build names them
 * there, and the bundle's modules live there too).
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { brotliDecompressSync } from "node:zlib";

/** PGlite options that say where it starts from. */
export interface PgliteStart {
  readonly pgliteWasmModule?: WebAssembly.Module;
  readonly fsBundle?: Blob;
  readonly loadDataDir?: Blob;
}

/** The named file beside this module, decompressed, or undefined when there is none. */
function beside(name: string): Uint8Array<ArrayBuffer> | undefined {
  const url = new URL(`./${name}`, import.meta.url);
  if (url.protocol !== "file:" || !existsSync(url)) return undefined;
  return new Uint8Array(brotliDecompressSync(readFileSync(url)));
}

/**
 * The options that start PGlite from the embedded files and, for an
 * in-memory database, from the template.
 *
 * @param inMemory true for a new in-memory database (it gets the template)
 * @returns options to spread into PGlite's
 */
export async function pgliteStart(inMemory: boolean): Promise<PgliteStart> {
  const wasm = beside("pglite.wasm.br");
  const bundle = beside("pglite.data.br");
  const template = inMemory ? beside("_pglite_template.tar.br") : undefined;
  return {
    ...(wasm !== undefined ? { pgliteWasmModule: await WebAssembly.compile(wasm) } : {}),
    ...(bundle !== undefined ? { fsBundle: new Blob([bundle]) } : {}),
    ...(template !== undefined ? { loadDataDir: new Blob([template]) } : {}),
  };
}
