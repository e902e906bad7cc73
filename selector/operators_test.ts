import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { SqliteValue } from "../lib/sqlite/value.ts";
import { OPERATOR_NAMES, OPERATORS } from "./operators.ts";

// [name, operator, operand, value, expected]
const cases: [string, keyof typeof OPERATORS, unknown, SqliteValue, boolean][] = [
  ["$eq matches equal text", "$eq", "admin", "admin", true],
  ["$eq tells text from a number", "$eq", "10", 10, false],
  ["$eq matches an integer with an equal real", "$eq", 1, 1.0, true],
  ["$eq with null matches SQL NULL", "$eq", null, null, true],
  ["$eq with null does not match text", "$eq", null, "x", false],
  ["$eq with true matches 1", "$eq", true, 1, true],
  ["$eq compares a bigint exactly", "$eq", 9007199254740993n, 9007199254740992, false],
  ["$eq matches an equal bigint", "$eq", 9007199254740993n, 9007199254740993n, true],
  ["$not-eq matches other text", "$not-eq", "admin", "user", true],
  ["$not-eq matches NULL against text", "$not-eq", "admin", null, true],
  ["$not-eq rejects the same value", "$not-eq", 3, 3, false],
  ["$in matches a member", "$in", ["admin", "root"], "root", true],
  ["$in rejects a non-member", "$in", ["admin", "root"], "user", false],
  ["$in matches NULL when null is listed", "$in", ["a", null], null, true],
  ["$not-in matches a non-member", "$not-in", ["admin"], "user", true],
  ["$not-in rejects a member", "$not-in", ["admin"], "admin", false],
  ["$gt compares numbers", "$gt", 5, 6, true],
  ["$gt is false for an equal number", "$gt", 5, 5, false],
  ["$gt compares a bigint with a number", "$gt", 9007199254740992, 9007199254740993n, true],
  ["$gt between a number and text is false", "$gt", 5, "6", false],
  ["$gt between text and a number is false", "$gt", "a", 6, false],
  ["$gt is false for NULL", "$gt", 0, null, false],
  ["$gt compares text by code point", "$gt", "apple", "banana", true],
  ["$gte holds for equal numbers", "$gte", 2, 2.0, true],
  ["$lt compares numbers", "$lt", 0, -1, true],
  ["$lt is false for a BLOB", "$lt", 5, new Uint8Array([1]), false],
  ["$lte holds for equal text", "$lte", "b", "b", true],
  ["$regex searches anywhere in text", "$regex", "adm", "sysadmin", true],
  ["$regex respects anchors", "$regex", "^adm", "sysadmin", false],
  ["$regex is case-sensitive by default", "$regex", "ADMIN", "admin", false],
  ["$regex takes a leading (?i) to ignore case", "$regex", "(?i)ADMIN", "admin", true],
  ["$regex never matches a number", "$regex", "1", 1, false],
  ["$regex never matches NULL", "$regex", ".*", null, false],
];

describe("OPERATORS", () => {
  for (const [name, op, operand, value, expected] of cases) {
    it(name, () => {
      assert.equal(OPERATORS[op].build(operand)(value), expected);
    });
  }

  it("registers every operator name under its own name", () => {
    for (const name of OPERATOR_NAMES) assert.equal(OPERATORS[name].name, name);
    assert.deepEqual(Object.keys(OPERATORS).sort(), [...OPERATOR_NAMES].sort());
  });

  const words: [keyof typeof OPERATORS, unknown, string][] = [
    ["$eq", null, "role NULL"],
    ["$not-eq", null, "role not NULL"],
    ["$eq", "admin", `role = "admin"`],
    ["$in", ["admin", "root"], `role in ["admin","root"]`],
    ["$not-in", [1, 2], "role not in [1,2]"],
    ["$gte", 2, "role >= 2"],
    ["$regex", "^a", "role matches /^a/"],
  ];
  for (const [op, operand, text] of words) {
    it(`describes ${op} ${JSON.stringify(operand)} as ${text}`, () => {
      assert.equal(OPERATORS[op].describe("role", operand), text);
    });
  }
});
