#!/usr/bin/env -S deno run --allow-all
/**
 * `deno task release`: cross-compiles the CLI into one self-contained binary
 * per platform with `bun build --compile --target`, checks that each file's
 * header is the format and CPU it is named for, and writes SHA256SUMS.
 *
 *     deno task release                          # all five, into dist/release/
 *     deno task release --target linux-arm64     # one (repeatable)
 *     deno task release --out /tmp/rel
 *
 * Bun takes each target's runtime from the npm package
 * `@oven/bun-<os>-<arch>` of the Bun version that builds, downloading it from
 * the npm registry once into its cache (`~/.bun/install/cache`, or
 * `$BUN_INSTALL/install/cache`); later builds are offline.
 *
 * @module
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { binaryFormat } from "./binary_format.ts";
import { compileBinary } from "./build.ts";

/** One platform the release builds for. */
export interface ReleaseTarget {
  /** `<os>-<arch>`, as in the file name `dbagenteval-<os>-<arch>`. */
  readonly name: string;
  readonly os: "linux" | "darwin" | "windows";
  readonly arch: "x64" | "arm64";
}

/** The platforms of a release, in the order they are built. */
export const TARGETS: readonly ReleaseTarget[] = [
  { name: "linux-x64", os: "linux", arch: "x64" },
  { name: "linux-arm64", os: "linux", arch: "arm64" },
  { name: "darwin-x64", os: "darwin", arch: "x64" },
  { name: "darwin-arm64", os: "darwin", arch: "arm64" },
  { name: "windows-x64", os: "windows", arch: "x64" },
];

/** A built binary. */
export interface ReleaseFile {
  readonly target: ReleaseTarget;
  /** Its path. */
  readonly path: string;
  /** Its SHA-256, in hex. */
  readonly sha256: string;
}

/** Options of {@link buildRelease}. */
export interface ReleaseOptions {
  /** The folder the binaries and SHA256SUMS go to (created when missing). */
  readonly outDir: string;
  /** Target names to build; all of {@link TARGETS} when absent. */
  readonly targets?: readonly string[];
  /** The repository root; the folder above this file when absent. */
  readonly root?: string;
}

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");

/** The file name a target's binary gets. */
export function binaryName(target: ReleaseTarget): string {
  return `dbagenteval-${target.name}${target.os === "windows" ? ".exe" : ""}`;
}

function pickTargets(names: readonly string[] | undefined): ReleaseTarget[] {
  if (names === undefined) return [...TARGETS];
  return names.map((name) => {
    const target = TARGETS.find((t) => t.name === name);
    if (target === undefined) {
      throw new Error(
        `unknown target "${name}"; the targets are ${TARGETS.map((t) => t.name).join(", ")}`,
      );
    }
    return target;
  });
}

function readHeader(file: string): Uint8Array {
  const fd = fs.openSync(file, "r");
  try {
    const header = new Uint8Array(4096);
    const n = fs.readSync(fd, header, 0, header.length, 0);
    return header.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Checks that a binary's header is the format and CPU of its target.
 *
 * @param file the binary
 * @param target what it must be
 * @throws Error naming what the header says instead
 */
export function checkBinary(file: string, target: ReleaseTarget): void {
  const format = binaryFormat(readHeader(file));
  if (format?.os !== target.os || format.arch !== target.arch) {
    const found = format === undefined ? "no known executable" : `${format.os}-${format.arch}`;
    throw new Error(`${file}: built for ${target.name} but its header says ${found}`);
  }
}

function sha256(file: string): string {
  return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/**
 * Builds the release binaries, checks their formats and writes SHA256SUMS
 * (the format `sha256sum -c` reads) beside them.
 *
 * @param options where to write, and which targets
 * @returns the binaries with their hashes
 */
export function buildRelease(options: ReleaseOptions): ReleaseFile[] {
  const root = options.root ?? ROOT;
  const outDir = path.resolve(options.outDir);
  fs.mkdirSync(outDir, { recursive: true });
  const files: ReleaseFile[] = [];
  for (const target of pickTargets(options.targets)) {
    const file = path.join(outDir, binaryName(target));
    // The same bundle and embedded files as `deno task build`.
    compileBinary(file, { target: `bun-${target.name}`, root });
    checkBinary(file, target);
    files.push({ target, path: file, sha256: sha256(file) });
  }
  const sums = files.map((f) => `${f.sha256}  ${path.basename(f.path)}\n`).join("");
  fs.writeFileSync(path.join(outDir, "SHA256SUMS"), sums);
  return files;
}

if (import.meta.main) {
  try {
    const { values } = parseArgs({
      args: process.argv.slice(2),
      options: {
        out: { type: "string", default: path.join(ROOT, "dist", "release") },
        target: { type: "string", multiple: true },
      },
    });
    const files = buildRelease({
      outDir: values.out,
      ...(values.target !== undefined ? { targets: values.target } : {}),
    });
    for (const f of files) {
      const mb = (fs.statSync(f.path).size / 1e6).toFixed(0);
      console.log(`${f.sha256}  ${path.relative(process.cwd(), f.path)} (${mb} MB)`);
    }
    console.log(`wrote ${path.relative(process.cwd(), path.join(values.out, "SHA256SUMS"))}`);
  } catch (error) {
    console.error(`release: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  }
}
