#!/usr/bin/env -S deno run --allow-all
/**
 * `deno task build`: compiles the CLI into one self-contained binary,
 * `dist/dbagenteval`, with `bun build --compile`. `tools/release.ts` builds
 * each platform's binary with the same {@link compileBinary}.
 *
 *     deno task build                       # dist/dbagenteval
 *     deno run -A tools/build.ts --outfile /tmp/dbagenteval
 *
 * The binary embeds what the CLI loads at run time, beside its modules:
 * SQLite's WebAssembly as it is (every command needs it), and the parts
 * only some runs use Brotli-compressed, decompressed on first use:
 * PostgreSQL's parser (`libpg-query.wasm.br`, rules with the postgres
 * dialect), PGlite's engine and file-system bundle (`pglite.wasm.br`,
 * `pglite.data.br`, `--db pglite:`) and the empty PGlite database it starts
 * from (`lib/databases/_pglite_template.tar.br`, already compressed in the
 * repository). The compressed files are made once into `dist/assets/` and
 * made again only when their source changes.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { brotliCompressSync, constants } from "node:zlib";

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");

/** Files embedded compressed: their source in node_modules, by the name the binary reads. */
export const COMPRESSED_ASSETS: readonly { readonly name: string; readonly source: string }[] = [
  { name: "libpg-query.wasm.br", source: "node_modules/libpg-query/wasm/libpg-query.wasm" },
  { name: "pglite.wasm.br", source: "node_modules/@electric-sql/pglite/dist/pglite.wasm" },
  { name: "pglite.data.br", source: "node_modules/@electric-sql/pglite/dist/pglite.data" },
];

/** Files embedded as they are (the template is compressed in the repository). */
const PLAIN_ASSETS = [
  "node_modules/@sqlite.org/sqlite-wasm/dist/sqlite3.wasm",
  "lib/databases/_pglite_template.tar.br",
];

/**
 * Brotli quality 9 with a 16 MiB window: PGlite's engine 9.1 -> 2.9 MB in
 * about 4 s. Quality 11 gains 0.35 MB more on it and takes 40 s, which a
 * CI job building from a clean checkout would pay every time.
 */
function compress(bytes: Uint8Array): Uint8Array {
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 9,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

/**
 * Writes the compressed assets into `dist/assets/` unless they are there
 * already for the same source bytes (a `.sha256` beside each says which).
 *
 * @param root the repository
 * @returns the paths of the compressed files, relative to root
 */
export function compressedAssets(root: string = ROOT): string[] {
  const dir = path.join(root, "dist", "assets");
  fs.mkdirSync(dir, { recursive: true });
  return COMPRESSED_ASSETS.map(({ name, source }) => {
    const bytes = fs.readFileSync(path.join(root, source));
    const hash = createHash("sha256").update(bytes).digest("hex");
    const out = path.join(dir, name);
    const stamp = `${out}.sha256`;
    if (
      !fs.existsSync(out) || !fs.existsSync(stamp) || fs.readFileSync(stamp, "utf8") !== hash
    ) {
      fs.writeFileSync(out, compress(bytes));
      fs.writeFileSync(stamp, hash);
    }
    return path.relative(root, out);
  });
}

/**
 * Compiles `cli.ts` into one binary with `bun build --compile`.
 *
 * @param outfile the binary to write
 * @param options `target` (`bun-linux-arm64`, ...; the running platform when absent) and `root`
 * @throws Error with the end of Bun's output when it fails
 */
export function compileBinary(
  outfile: string,
  options: { readonly target?: string; readonly root?: string } = {},
): void {
  const root = options.root ?? ROOT;
  const args = [
    "build",
    "--compile",
    "--minify",
    // Parsed ahead of time: the main thread and every pool worker start without parsing the
    // bundle (one counterexample pair 0.26 -> 0.16 s); 16 MB more binary (bench/README.md).
    "--bytecode",
    "--format=esm",
    // Each command's modules load when it runs, so `--version` starts in 0.02 s.
    "--splitting",
    ...(options.target !== undefined ? [`--target=${options.target}`] : []),
    "cli.ts",
    // The worker pool's thread entry (lib/isolation/pool.ts finds it by this path).
    "lib/isolation/_worker_entry.js",
    ...PLAIN_ASSETS,
    ...compressedAssets(root),
    "--loader",
    ".br:file",
    "--entry-naming=[dir]/[name]-[hash].[ext]",
    // Assets keep their names at the binary's root, beside the modules that read them.
    "--asset-naming=[name].[ext]",
    "--outfile",
    outfile,
  ];
  const r = spawnSync("bun", args, { cwd: root, encoding: "utf8" });
  if (r.error !== undefined || r.status !== 0) {
    const reason = r.error?.message ?? `${r.stderr}${r.stdout}`.trim().split("\n").slice(-5)
      .join("\n");
    throw new Error(
      `bun build${
        options.target !== undefined ? ` --target=${options.target}` : ""
      } failed: ${reason}`,
    );
  }
}

if (import.meta.main) {
  try {
    const { values } = parseArgs({
      args: process.argv.slice(2),
      options: { outfile: { type: "string", default: path.join(ROOT, "dist", "dbagenteval") } },
    });
    compileBinary(values.outfile);
    const mb = (fs.statSync(values.outfile).size / 1e6).toFixed(1);
    console.log(`wrote ${path.relative(process.cwd(), values.outfile)} (${mb} MB)`);
  } catch (error) {
    console.error(`build: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  }
}
