import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { decodeWire, encodeWire } from "./_wire.ts";

const cases: [string, unknown][] = [
  ["a bigint beyond 2^53", { n: 2n ** 70n }],
  ["a negative bigint", [-(2n ** 64n)]],
  ["bytes (a BLOB)", { b: new Uint8Array([0, 1, 255]) }],
  ["NaN and the infinities", [NaN, Infinity, -Infinity]],
  ["plain JSON", { a: "x", b: [1, 2.5, null, true], c: {} }],
  ["text that looks like a tag", { "\u0000bigintx": "1" }],
];

describe("encodeWire() and decodeWire()", () => {
  for (const [name, value] of cases) {
    it(`carry ${name} across unchanged`, () => {
      assert.deepEqual(decodeWire(encodeWire(value, JSON.stringify)), value);
    });
  }
});
