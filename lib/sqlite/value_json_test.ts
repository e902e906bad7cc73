import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { VALUES } from "../../tests/value_table.ts";
import {
  decodeJsonAnywhere,
  decodeValue,
  encodeJsonAnywhere,
  isEncodedValue,
  parseExactJson,
  valueReplacer,
} from "./value_json.ts";

describe("valueReplacer() and decodeValue()", () => {
  for (const [name, value] of VALUES) {
    it(`carry ${name} across unchanged`, () => {
      const text = JSON.stringify({ v: value }, valueReplacer);
      assert.deepEqual(decodeValue((JSON.parse(text) as { v: unknown }).v), value, text);
    });
  }

  it("write a Buffer as the BLOB it is", () => {
    assert.equal(JSON.stringify([Buffer.from([1, 2])], valueReplacer), '[{"$blob":"AQI="}]');
  });

  const notValues: [string, unknown][] = [
    ["an object with a second key", { $blob: "AA==", x: 1 }],
    ["a tag with a number", { $bigint: 5 }],
    ["a $real that is not special", { $real: "1.5" }],
    ["a $bigint that is not digits", { $bigint: "1e3" }],
  ];
  for (const [name, x] of notValues) {
    it(`leave ${name} as it is`, () => {
      assert.equal(isEncodedValue(x), false);
      assert.equal(decodeValue(x), x);
    });
  }
});

describe("parseExactJson()", () => {
  for (const [name, value, json] of VALUES) {
    it(`reads ${name} as an agent writes it`, () => {
      assert.deepEqual(decodeValue(parseExactJson(json)), value);
    });
  }
});

describe("encodeJsonAnywhere() and decodeJsonAnywhere()", () => {
  const cases: [string, unknown][] = [
    ["a bigint beyond 2^53", { n: 2n ** 70n }],
    ["a negative bigint", [-(2n ** 64n)]],
    ["bytes (a BLOB)", { b: new Uint8Array([0, 1, 255]) }],
    ["NaN and the infinities", [NaN, Infinity, -Infinity]],
    ["plain JSON", { a: "x", b: [1, 2.5, null, true], c: {} }],
    ["text that looks like a tag", { "\u0000bigintx": "1" }],
    ["an object that looks like an encoded value", { output: { $bigint: "12" } }],
    ["an object that looks like an escaped one", [{ $$blob: "AA==" }, { $$$real: "NaN" }]],
    ["every value of the table", VALUES.map(([, value]) => value)],
  ];
  for (const [name, value] of cases) {
    it(`carry ${name} across unchanged`, () => {
      assert.deepEqual(decodeJsonAnywhere(encodeJsonAnywhere(value, JSON.stringify)), value);
    });
  }
});
