import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { cutText, rowsText, valueText } from "./_values_text.ts";

const values: [string, unknown, string][] = [
  ["null", null, "null"],
  ["undefined as null", undefined, "null"],
  ["an integer beyond 2^53 with its exact digits", 9007199254740993n, "9007199254740993"],
  ["a negative bigint", -9223372036854775808n, "-9223372036854775808"],
  ["a real", 1.5, "1.5"],
  ["NaN as a string", Number.NaN, '"NaN"'],
  ["text with quotes", 'say "hi"', '"say \\"hi\\""'],
  ["a BLOB as a hex literal", new Uint8Array([0, 255, 16]), `"x'00FF10'"`],
  ["an empty BLOB", new Uint8Array(0), `"x''"`],
  [
    "a long BLOB by its start and size",
    new Uint8Array(40),
    `"x'${"00".repeat(32)}...' (40 bytes)"`,
  ],
  ["a date as ISO text", new Date(0), '"1970-01-01T00:00:00.000Z"'],
  ["a row", { id: 1, big: 2n ** 64n, name: "a" }, '{"id":1,"big":18446744073709551616,"name":"a"}'],
  ["nested values", { a: [1, { b: true }] }, '{"a":[1,{"b":true}]}'],
];

describe("valueText()", () => {
  for (const [name, value, expected] of values) {
    it(`prints ${name}`, () => {
      assert.equal(valueText(value, 100), expected);
    });
  }

  it("prints the result as JSON that parses back, bigint aside", () => {
    const text = valueText({ a: "x\ny", b: [null, 2.25] }, 100);
    assert.deepEqual(JSON.parse(text), { a: "x\ny", b: [null, 2.25] });
  });

  it("stops at a cycle instead of looping", () => {
    const row: Record<string, unknown> = { id: 1 };
    row.self = row;
    assert.match(valueText(row, 100), /"\.\.\."/);
  });

  const many = Array.from({ length: 1000 }, (_, i) => i);
  const fifty = many.slice(0, 50).join(",");
  const capped: [string, unknown, string][] = [
    ["a long array", { ids: many }, `{"ids":[${fifty},"(950 more items of 1000)"]}`],
    ["an array of 51", { ids: many.slice(0, 51) }, `{"ids":[${fifty},"(1 more item of 51)"]}`],
    ["an array of 50, whole", { ids: many.slice(0, 50) }, `{"ids":[${fifty}]}`],
    [
      "a nested object with many keys",
      { doc: Object.fromEntries(many.slice(0, 60).map((i) => [`k${i}`, i])) },
      `{"doc":{${many.slice(0, 50).map((i) => `"k${i}":${i}`).join(",")},` +
      `"...":"(10 more items of 60)"}}`,
    ],
    [
      "a wide row, every column",
      Object.fromEntries(many.slice(0, 60).map((i) => [`c${i}`, i])),
      `{${many.slice(0, 60).map((i) => `"c${i}":${i}`).join(",")}}`,
    ],
  ];
  for (const [name, value, expected] of capped) {
    it(`caps ${name}, saying how many items were left out`, () => {
      assert.equal(valueText(value, 100), expected);
    });
  }

  it("cuts long text, saying how much was left out", () => {
    assert.equal(valueText("abcdef", 3), '"abc... (3 more characters)"');
  });
});

describe("cutText()", () => {
  it("never splits a surrogate pair", () => {
    assert.equal(cutText("a😀b", 2), "a... (3 more characters)");
  });
});

describe("rowsText()", () => {
  const cases: [string, Record<string, unknown>[], number, string][] = [
    ["says there are no rows", [], 5, "(no rows)"],
    ["prints one row a line", [{ n: 1 }, { n: 2 }], 5, '{"n":1}\n{"n":2}'],
    [
      "says how many rows it left out",
      [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }],
      2,
      '{"n":1}\n{"n":2}\n(2 more rows left out: 4 rows in all, only the first 2 are shown)',
    ],
    [
      "says one row was left out",
      [{ n: 1 }, { n: 2 }],
      1,
      '{"n":1}\n(1 more row left out: 2 rows in all, only the first 1 are shown)',
    ],
  ];
  for (const [name, rows, maxRows, expected] of cases) {
    it(name, () => {
      assert.equal(rowsText(rows, { maxRows, maxTextChars: 100 }), expected);
    });
  }
});
