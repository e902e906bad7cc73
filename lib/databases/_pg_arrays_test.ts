import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { arrayTypes, parseArray } from "./_pg_arrays.ts";

describe("parseArray()", () => {
  const cases: [string, string, unknown[]][] = [
    ["numbers", "{1,2,3}", ["1", "2", "3"]],
    ["quoted text with a comma, a quote and a backslash", '{"a, b","c\\"d","e\\\\f"}', [
      "a, b",
      'c"d',
      "e\\f",
    ]],
    ["NULL, and the text NULL quoted", '{NULL,"NULL"}', [null, "NULL"]],
    ["nested lists", "{{1,2},{3,4}}", [["1", "2"], ["3", "4"]]],
    ["an empty array", "{}", []],
    ["bounds other than 1", "[0:1]={7,8}", ["7", "8"]],
  ];
  for (const [name, text, expected] of cases) {
    it(`reads ${name}`, () => {
      assert.deepEqual(parseArray(text, (t) => t), expected);
    });
  }
});

describe("arrayTypes()", () => {
  it("parses each array's elements by their type", () => {
    const types = arrayTypes([[1007, 23], [1016, 20], [1000, 16], [1001, 17]]) as Record<
      string,
      { parse: (t: string) => unknown }
    >;
    assert.deepEqual(types["array_1007"]!.parse("{1,2}"), [1, 2]);
    assert.deepEqual(types["array_1016"]!.parse("{9007199254740993}"), [9007199254740993n]);
    assert.deepEqual(types["array_1000"]!.parse("{t,f}"), [true, false]);
    assert.deepEqual(types["array_1001"]!.parse('{"\\\\x00ff"}'), [new Uint8Array([0, 255])]);
  });
});
