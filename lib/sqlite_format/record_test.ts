/**
 * sameStored() as SQLite's `+x IS +y COLLATE BINARY` tells, on two-column
 * records written here byte by byte in the record format.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Record, sameStored } from "./record.ts";

type Stored = null | number | bigint | string | Uint8Array | { real: number };

/** A value's serial type and bytes, as SQLite stores it. */
function field(v: Stored): [number, number[]] {
  if (v === null) return [0, []];
  if (typeof v === "object" && "real" in v) {
    const b = new DataView(new ArrayBuffer(8));
    b.setFloat64(0, v.real);
    return [7, [...new Uint8Array(b.buffer)]];
  }
  if (typeof v === "number" || typeof v === "bigint") {
    const b = new DataView(new ArrayBuffer(8));
    b.setBigInt64(0, BigInt(v));
    const x = BigInt(v);
    if (x >= -128n && x < 128n) return [1, [Number(BigInt.asUintN(8, x))]];
    if (x >= -32768n && x < 32768n) return [2, [...new Uint8Array(b.buffer).slice(6)]];
    return [6, [...new Uint8Array(b.buffer)]];
  }
  const bytes = typeof v === "string" ? [...new TextEncoder().encode(v)] : [...v];
  return [typeof v === "string" ? 13 + 2 * bytes.length : 12 + 2 * bytes.length, bytes];
}

function record(a: Stored, b: Stored): Record {
  const [ta, xa] = field(a);
  const [tb, xb] = field(b);
  const bytes = new Uint8Array([3, ta, tb, ...xa, ...xb]);
  const r = new Record("utf-8");
  assert.equal(r.parse(bytes, 0, bytes.length, bytes.length), null);
  return r;
}

describe("sameStored()", () => {
  const cases: [string, Stored, Stored, boolean][] = [
    ["0.0 and -0.0", { real: 0 }, { real: -0 }, true],
    ["1 and 1.0", 1, { real: 1 }, true],
    ["1.5 and 1.5", { real: 1.5 }, { real: 1.5 }, true],
    ["1.5 and 2.5", { real: 1.5 }, { real: 2.5 }, false],
    ["300 and 300", 300, 300, true],
    ["300 and 301", 300, 301, false],
    ["'a' and x'61'", "a", new Uint8Array([0x61]), false],
    ["'abc' and 'abc'", "abc", "abc", true],
    ["'abc' and 'abd'", "abc", "abd", false],
    ["NULL and NULL", null, null, true],
    ["NULL and 0", null, 0, false],
    ["2^53 + 1 and the real 2^53", 2n ** 53n + 1n, { real: 2 ** 53 }, false],
    ["2^53 and the real 2^53", 2n ** 53n, { real: 2 ** 53 }, true],
  ];
  for (const [name, a, b, same] of cases) {
    it(`${name}: ${same ? "the same" : "different"}`, () => {
      assert.equal(sameStored(record(a, b), 0, record(a, b), 1), same);
    });
  }
});
