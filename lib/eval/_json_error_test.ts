import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { findJsonError } from "./_json_error.ts";

const bad: [string, string, number, RegExp][] = [
  ["NaN", '[{"n": NaN}]', 7, /unexpected NaN; JSON has no NaN/],
  ["a trailing comma in an object", `{"a": 1,}`, 7, /trailing comma/],
  ["a trailing comma in a list", "[1, 2,]", 5, /trailing comma/],
  ["a missing comma", '{"a": 1 "b": 2}', 8, /expected , or \}/],
  ["a string not closed on its line", '["abc\n"]', 1, /not closed on its line/],
  ["a string not closed at all", '["abc', 1, /not closed/],
  ["a list not closed", "[1, 2", 5, /expected , or \], found the end of the file/],
  ["single quotes", "['a']", 1, /double quotes/],
  ["text after the value", "[] x", 3, /after the end/],
  ["a bad escape", '["\\q"]', 2, /bad escape/],
  ["an empty file", "", 0, /expected a value/],
];
const good = [
  "[]",
  '{"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"], "b": {}}',
  " [ [ [ ] ] , { } ] ",
  "[".repeat(10_000) + "]".repeat(10_000),
];

describe("findJsonError()", () => {
  for (const [name, text, offset, message] of bad) {
    it(`finds ${name} at offset ${offset}`, () => {
      const error = findJsonError(text);
      assert.equal(error?.offset, offset);
      assert.match(error?.message ?? "", message);
    });
  }
  for (const text of good) {
    it(`accepts ${text.slice(0, 30)}`, () => {
      assert.equal(findJsonError(text), undefined);
      JSON.parse(text);
    });
  }
});
