import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { compareCodePoints, pyFloatRepr, pyKey, pyStrWithType } from "./_python_values.ts";

describe("Python's view of SQLite values", () => {
  // [number, Python's repr(float)] (printed by CPython 3.11)
  const reprs: [number, string][] = [
    [3, "3.0"],
    [1e16, "1e+16"],
    [1.5e-5, "1.5e-05"],
    [0.0001, "0.0001"],
    [123456789012345678, "1.2345678901234568e+17"],
    [-0, "-0.0"],
    [2.5, "2.5"],
    [1e22, "1e+22"],
    [0.1 + 0.2, "0.30000000000000004"],
    [-1234.5, "-1234.5"],
    [Infinity, "inf"],
  ];
  for (const [x, repr] of reprs) {
    it(`pyFloatRepr() writes ${x} as ${repr}`, () => assert.equal(pyFloatRepr(x), repr));
  }

  it("pyKey() makes 3 and 3.0 equal and '3' different, as == does", () => {
    assert.equal(pyKey(3n), pyKey(3));
    assert.notEqual(pyKey("3"), pyKey(3n));
    assert.notEqual(pyKey(null), pyKey(""));
    assert.equal(pyKey(-0), pyKey(0n));
  });

  it("pyStrWithType() is str(x) + str(type(x))", () => {
    assert.equal(pyStrWithType(3n), "3<class 'int'>");
    assert.equal(pyStrWithType(3), "3.0<class 'float'>");
    assert.equal(pyStrWithType(null), "None<class 'NoneType'>");
    assert.equal(pyStrWithType(new Uint8Array([0x61, 0x27, 0x00])), `b"a'\\x00"<class 'bytes'>`);
  });

  it("compareCodePoints() sorts an astral character after U+E000, as Python does", () => {
    const sorted = ["\u{1F600}", "\ue000", "a"].sort(compareCodePoints);
    assert.deepEqual(sorted, ["a", "\ue000", "\u{1F600}"]);
  });
});
