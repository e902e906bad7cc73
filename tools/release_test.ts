import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { VERSION } from "../lib/version.ts";
import { type BinaryFormat, binaryFormat } from "./binary_format.ts";
import { binaryName, buildRelease, checkBinary, TARGETS } from "./release.ts";
import { COMPRESSED_ASSETS } from "./build.ts";
import { ARM64_SYSROOT, needs } from "../tests/system_packages.ts";

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-release-"));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function elf(machine: number, little = true): Uint8Array {
  const b = new Uint8Array(64);
  b.set([0x7f, 0x45, 0x4c, 0x46, 2, little ? 1 : 2]);
  new DataView(b.buffer).setUint16(18, machine, little);
  return b;
}

function macho(cpu: number): Uint8Array {
  const b = new Uint8Array(32);
  const v = new DataView(b.buffer);
  v.setUint32(0, 0xfeedfacf, true);
  v.setUint32(4, cpu, true);
  return b;
}

function pe(machine: number): Uint8Array {
  const b = new Uint8Array(256);
  const v = new DataView(b.buffer);
  b.set([0x4d, 0x5a]);
  v.setUint32(0x3c, 0x80, true);
  v.setUint32(0x80, 0x50450000);
  v.setUint16(0x84, machine, true);
  return b;
}

describe("binaryFormat()", () => {
  const cases: [string, Uint8Array, BinaryFormat | undefined][] = [
    ["reads an x86-64 ELF", elf(0x3e), { os: "linux", arch: "x64" }],
    ["reads an aarch64 ELF", elf(0xb7), { os: "linux", arch: "arm64" }],
    ["reads a big-endian ELF's machine in its byte order", elf(0x2b, false), {
      os: "linux",
      arch: "0x2b",
    }],
    ["reads an x86-64 Mach-O", macho(0x01000007), { os: "darwin", arch: "x64" }],
    ["reads an arm64 Mach-O", macho(0x0100000c), { os: "darwin", arch: "arm64" }],
    ["reads an x64 PE", pe(0x8664), { os: "windows", arch: "x64" }],
    ["reads an arm64 PE", pe(0xaa64), { os: "windows", arch: "arm64" }],
    ["knows no shell script", new TextEncoder().encode("#!/bin/sh\necho hi\n"), undefined],
    ["knows no MZ file without a PE header", pe(0x8664).fill(0, 0x80, 0x84), undefined],
    ["knows no empty file", new Uint8Array(0), undefined],
  ];
  for (const [name, header, expected] of cases) {
    it(name, () => assert.deepEqual(binaryFormat(header), expected));
  }
});

describe("checkBinary()", () => {
  it("refuses a binary whose header is another platform's", () => {
    const file = path.join(dir, "fake");
    fs.writeFileSync(file, elf(0x3e));
    const arm = TARGETS.find((t) => t.name === "linux-arm64")!;
    assert.throws(
      () => checkBinary(file, arm),
      /built for linux-arm64 but its header says linux-x64/,
    );
  });
});

/** qemu-user runs the arm64 binary; its C library comes from libc6-arm64-cross. */
function qemu(): string {
  for (const name of ["qemu-aarch64", "qemu-aarch64-static"]) {
    if (spawnSync(name, ["--version"]).status === 0) return name;
  }
  throw new Error("qemu-aarch64 not found: apt-get install qemu-user (.ci/run does)");
}

const SYSROOT = ARM64_SYSROOT;

// The release is built and emulated once, under deno test: under Bun the
// same build would run a second time, and qemu's start-up passes Bun's 5 s
// test timeout.
const underDeno = "Deno" in globalThis;

describe("deno task release (linux-arm64, run under qemu-user)", {
  skip: underDeno ? needs("bun") : "built and run under qemu by deno test",
}, () => {
  const out = path.join(dir, "release");
  const [file] = buildRelease({ outDir: out, targets: ["linux-arm64"] });
  const bin = path.join(out, binaryName(TARGETS[1]!));

  it("writes the binary and a SHA256SUMS line that matches it", () => {
    assert.equal(file?.path, bin);
    const sum = createHash("sha256").update(fs.readFileSync(bin)).digest("hex");
    assert.equal(
      fs.readFileSync(path.join(out, "SHA256SUMS"), "utf8"),
      `${sum}  dbagenteval-linux-arm64\n`,
    );
    assert.deepEqual(binaryFormat(fs.readFileSync(bin).subarray(0, 4096)), {
      os: "linux",
      arch: "arm64",
    });
  });

  // 4 KiB from the middle of a file: found in the binary only if the file is embedded as it is.
  const sample = (file: string) => {
    const bytes = fs.readFileSync(path.join(ROOT, file));
    const at = Math.floor(bytes.length / 2);
    return bytes.subarray(at, at + 4096);
  };

  it("embeds PostgreSQL's parser and PGlite Brotli-compressed, and PGlite's initdb not at all", () => {
    const binary = fs.readFileSync(bin);
    for (const { name, source } of COMPRESSED_ASSETS) {
      assert.equal(binary.indexOf(sample(source)), -1, `${source} is embedded uncompressed`);
      assert.notEqual(
        binary.indexOf(sample(path.join("dist", "assets", name))),
        -1,
        `dist/assets/${name} is not embedded`,
      );
    }
    const initdb = "node_modules/@electric-sql/pglite/dist/initdb.wasm";
    assert.equal(binary.indexOf(sample(initdb)), -1, `${initdb} is embedded`);
  });

  const arm = (args: string[]) => {
    assert.ok(
      fs.existsSync(path.join(SYSROOT, "lib", "ld-linux-aarch64.so.1")),
      `${SYSROOT} has no arm64 C library: apt-get install libc6-arm64-cross (.ci/run does)`,
    );
    return spawnSync(qemu(), ["-L", SYSROOT, bin, ...args], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 120_000,
    });
  };

  // qemu-user and the arm64 C library run it; without them only the build is checked.
  const emulated = { skip: needs("qemu", "arm64libc") };
  it("prints its version under qemu-aarch64", emulated, () => {
    const r = arm(["--version"]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), VERSION);
  });

  it("reads the Chinook file with db info under qemu-aarch64", emulated, () => {
    const r = arm(["db", "info", "examples/chinook/Chinook_Sqlite.sqlite"]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /11 table\(s\)/);
    assert.match(r.stdout, /Album +347 row\(s\)/);
    assert.match(r.stdout, /Track +3503 row\(s\)/);
  });
});
