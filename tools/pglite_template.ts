#!/usr/bin/env -S deno run --allow-all
/**
 * Writes `lib/databases/_pglite_template.tar.br`: an empty PGlite data
 * directory (what `initdb` makes), as PGlite's own tar, compressed with
 * Brotli.
 *
 *     deno run --allow-all tools/pglite_template.ts
 *
 * `pglite:FILE.sql` starts PGlite from this directory instead of running
 * initdb in every run: initdb is a second PGlite instance and a third
 * WebAssembly module alive beside the first, which doubled the start's peak
 * memory (Chinook: 950 MB under Bun, 745 MB under Deno) and took most of its
 * time. Run this again after upgrading `@electric-sql/pglite`: PostgreSQL
 * refuses a data directory of another catalog version, so a stale template
 * fails every PGlite test.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { brotliCompressSync, constants } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");
const OUT = path.join(ROOT, "lib", "databases", "_pglite_template.tar.br");

/**
 * Makes the template: initdb in memory, its data directory as a tar,
 * Brotli at its best (about 40 s; the 31 MB tar, three copies of the
 * catalog and 7 MB of WAL, becomes 1.4 MB).
 *
 * @returns the compressed tar
 */
export async function makeTemplate(): Promise<Uint8Array> {
  // 1 MB WAL segments, not 16 MB: the template's own WAL is most of its
  // bytes, and PGlite holds every byte of it in memory (40 -> 31 MB).
  const db = new PGlite({ initDbStartParams: ["--wal-segsize=1"] });
  try {
    await db.waitReady;
    await db.exec("CHECKPOINT");
    const tar = new Uint8Array(await (await db.dumpDataDir("none")).arrayBuffer());
    return brotliCompressSync(tar, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_LGWIN]: 24,
        [constants.BROTLI_PARAM_SIZE_HINT]: tar.length,
      },
    });
  } finally {
    await db.close();
  }
}

if (import.meta.main) {
  const bytes = await makeTemplate();
  fs.writeFileSync(OUT, bytes);
  console.log(`wrote ${path.relative(process.cwd(), OUT)} (${(bytes.length / 1e6).toFixed(2)} MB)`);
}
