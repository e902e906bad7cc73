import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { pgliteStart } from "./_pglite_start.ts";

/** The names and contents of a tar's regular files (PGlite's tar: ustar, 512-byte blocks). */
function tarFiles(tar: Uint8Array): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const text = new TextDecoder();
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const field = (from: number, length: number) =>
      text.decode(header.subarray(from, from + length)).replace(/\0.*$/s, "");
    const name = field(345, 155) + field(0, 100);
    const size = parseInt(field(124, 12).trim() || "0", 8);
    if (field(156, 1) === "0" || field(156, 1) === "") {
      files.set(name, tar.subarray(at + 512, at + 512 + size));
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

describe("pgliteStart()", () => {
  it("gives an in-memory start the empty database PGlite would make, and PGlite reads its own files from its package", async () => {
    const start = await pgliteStart(true);
    assert.equal(start.pgliteWasmModule, undefined);
    assert.equal(start.fsBundle, undefined);
    const files = tarFiles(new Uint8Array(await start.loadDataDir!.arrayBuffer()));
    const version = [...files].find(([name]) =>
      /(^|\/)PG_VERSION$/.test(name) && !name.includes("base")
    );
    assert.ok(version !== undefined, [...files.keys()].slice(0, 20).join(", "));
    assert.match(new TextDecoder().decode(version[1]), /^\d+\n$/);
    assert.ok([...files.keys()].some((name) => /global\/pg_control$/.test(name)));
  });

  it("gives a data directory's start no template", async () => {
    assert.deepEqual(await pgliteStart(false), {});
  });
});
