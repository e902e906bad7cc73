import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type ComparableRows, compareRows, matchesAny } from "./rows.ts";
import type { RowSet } from "../row_set.ts";

type Rows = Record<string, unknown>[];

describe("compareRows()", () => {
  // One row per rule of "How rows are compared" (docs/harness.md), and the edges around it.
  const cases: [
    string,
    Rows,
    Rows,
    { ordered?: boolean; precision?: number; strictColumns?: boolean },
    boolean,
  ][] = [
    // Column names can be different.
    ["matches {count: 2} against a column named total", [{ total: 2 }], [{ count: 2 }], {}, true],
    [
      "matches a reference column SUM(amount) to total",
      [{ total: 2000 }],
      [{
        "SUM(amount)": 2000,
      }],
      {},
      true,
    ],
    ["compares same-name columns with each other", [{ a: 1, b: 2 }], [{ a: 2 }], {}, false],
    ["pairs same-name columns ignoring case", [{ Total: 2, other: 3 }], [{ total: 2 }], {}, true],
    [
      "pairs the other columns by their values",
      [{ x: "s1", y: 5 }],
      [{ store: "s1", n: 5 }],
      {},
      true,
    ],
    [
      "pairs each expected column with a different actual column",
      [{ x: 5 }],
      [{ a: 5, b: 5 }],
      {},
      false,
    ],
    [
      "pairs columns consistently across rows",
      [{ x: 1, y: 2 }, { x: 2, y: 1 }],
      [{ a: 1, b: 1 }, {
        a: 2,
        b: 2,
      }],
      {},
      false,
    ],
    [
      "finds a pairing when the first candidate column is wrong",
      [{ p: 1, q: 1 }, { p: 2, q: 3 }],
      [
        { a: 1, b: 1 },
        { a: 2, b: 3 },
      ],
      {},
      true,
    ],
    // Extra columns are fine.
    [
      "allows extra actual columns",
      [{ total: 2, store: "s1", status: "DELIVERED" }],
      [{
        total: 2,
      }],
      {},
      true,
    ],
    // ...unless strictColumns.
    [
      "refuses an extra actual column with strictColumns",
      [{ total: 2, store: "s1" }],
      [{ total: 2 }],
      { strictColumns: true },
      false,
    ],
    [
      "pairs as many columns by values with strictColumns",
      [{ n: 2, store: "s1" }],
      [{ store: "s1", total: 2 }],
      { strictColumns: true },
      true,
    ],
    [
      "takes rows: [] with strictColumns: no columns to count",
      [],
      [],
      { strictColumns: true },
      true,
    ],
    [
      "refuses when the expected side has more columns",
      [{ total: 2 }],
      [{ total: 2, n: 2 }],
      {},
      false,
    ],
    // Number types do not matter.
    ["treats 2 and 2.0 as equal", [{ n: 2.0 }], [{ n: 2 }], {}, true],
    ['treats 2 and "2.00" as equal', [{ n: "2.00" }], [{ n: 2 }], {}, true],
    ["treats a bigint and a number as equal", [{ n: 12n }], [{ n: 12 }], {}, true],
    [
      "keeps bigints beyond 2^53 exact",
      [{ n: 9007199254740993n }],
      [{ n: 9007199254740992 }],
      {},
      false,
    ],
    // Numbers are rounded to 2 decimal places; precision changes it.
    ["rounds to 2 decimal places by default", [{ r: 0.3333333 }], [{ r: 0.33 }], {}, true],
    ["sees a difference in the second decimal", [{ r: 0.34 }], [{ r: 0.33 }], {}, false],
    [
      "ignores differences past the precision",
      [{ r: 0.12344 }],
      [{ r: 0.12341 }],
      { precision: 4 },
      true,
    ],
    ["sees differences within a higher precision", [{ r: 0.1236 }], [{ r: 0.1234 }], {
      precision: 4,
    }, false],
    // The order of rows does not matter, except with ordered.
    ["ignores row order by default", [{ n: 1 }, { n: 2 }], [{ n: 2 }, { n: 1 }], {}, true],
    ["respects row order when ordered", [{ n: 1 }, { n: 2 }], [{ n: 2 }, { n: 1 }], {
      ordered: true,
    }, false],
    [
      "accepts the same order when ordered",
      [{ n: 1, x: "a" }, { n: 2, x: "b" }],
      [{ k: 1 }, {
        k: 2,
      }],
      { ordered: true },
      true,
    ],
    // An empty value is an empty value.
    ["treats null and empty text as equal", [{ c: null }], [{ c: "" }], {}, true],
    [
      "treats a missing key as empty",
      [{ c: 1 }, { c: 2, d: null }],
      [{ c: 1, d: "" }, {
        c: 2,
        d: null,
      }],
      {},
      true,
    ],
    ["does not treat 0 as empty", [{ c: 0 }], [{ c: null }], {}, false],
    // Text that only looks like a number stays text.
    ['keeps the postcode "01234" apart from 1234', [{ zip: 1234 }], [{ zip: "01234" }], {}, false],
    ["matches the postcode as text", [{ zip: "01234" }], [{ zip: "01234" }], {}, true],
    ["keeps text case", [{ s: "Delivered" }], [{ s: "DELIVERED" }], {}, false],
    // Multisets: duplicates count.
    [
      "counts duplicate rows",
      [{ n: 1 }, { n: 1 }, { n: 2 }],
      [{ n: 1 }, { n: 2 }, { n: 2 }],
      {},
      false,
    ],
    ["refuses a different number of rows", [{ n: 1 }, { n: 1 }], [{ n: 1 }], {}, false],
    // rows: [] means no rows.
    ["matches no rows with no rows", [], [], {}, true],
    ["refuses rows when none are expected", [{ n: 1 }], [], {}, false],
    ["refuses no rows when some are expected", [], [{ n: 1 }], {}, false],
    // Edge values: a text with a huge exponent is compared, not spelt out.
    ["compares a text with a huge exponent", [{ n: "1e-999999999" }], [{ n: 0 }], {}, true],
    ["tells huge exponents apart", [{ n: "1e999999999" }], [{ n: "1e999999998" }], {}, false],
  ];
  for (const [name, actual, expected, options, result] of cases) {
    it(`compareRows() ${name}`, () => {
      assert.equal(compareRows(actual, expected, options), result);
    });
  }
});

describe("matchesAny()", () => {
  const acceptable = [[{ category: "Electronics", total: 2000 }], [{ category: "Electronics" }]];
  const cases: [string, Rows, Rows[], boolean][] = [
    ["accepts the first of several results", [{ c: "Electronics", t: 2000 }], acceptable, true],
    ["accepts the second of several results", [{ category: "Electronics" }], acceptable, true],
    ["refuses when none of the results match", [{ category: "Toys" }], acceptable, false],
    ["accepts no rows when one result is empty", [], [[{ n: 1 }], []], true],
  ];
  for (const [name, actual, results, expected] of cases) {
    it(`matchesAny() ${name}`, () => {
      assert.equal(matchesAny(actual, results), expected);
    });
  }
});

describe("compareRows() with repeated column names", () => {
  // SELECT T2.Name, T3.Name ... : two columns called Name.
  const both: RowSet = { columns: ["Name", "Name"], rows: [["Rock", "AC/DC"], ["Jazz", "Miles"]] };
  const cases: [string, ComparableRows, ComparableRows, { ordered?: boolean }, boolean][] = [
    [
      "refuses one Name column against a reference with two (the false PASS of keyed objects)",
      { columns: ["Name"], rows: [["AC/DC"], ["Miles"]] },
      both,
      {},
      false,
    ],
    [
      "refuses one Name column given as objects against two",
      [{ Name: "AC/DC" }, { Name: "Miles" }],
      both,
      {},
      false,
    ],
    [
      "matches the two Name columns swapped",
      { columns: ["Name", "Name"], rows: [["AC/DC", "Rock"], ["Miles", "Jazz"]] },
      both,
      {},
      true,
    ],
    [
      "matches the two Name columns swapped with row order kept",
      { columns: ["Name", "Name"], rows: [["AC/DC", "Rock"], ["Miles", "Jazz"]] },
      both,
      { ordered: true },
      true,
    ],
    [
      "refuses two Name columns whose values are crossed between rows",
      { columns: ["Name", "Name"], rows: [["Rock", "Miles"], ["Jazz", "AC/DC"]] },
      both,
      {},
      false,
    ],
    [
      "allows a repeated column the reference does not have",
      { columns: ["Name", "Name"], rows: [["Rock", "AC/DC"], ["Jazz", "Miles"]] },
      [{ Name: "AC/DC" }, { Name: "Miles" }],
      {},
      true,
    ],
    [
      "pairs the surplus repeated name with a differently named column",
      { columns: ["Name", "Artist"], rows: [["Rock", "AC/DC"], ["Jazz", "Miles"]] },
      both,
      {},
      true,
    ],
    [
      "reads the keyed objects of a row set (Name (2)) as another column",
      [{ Name: "Rock", "Name (2)": "AC/DC" }, { Name: "Jazz", "Name (2)": "Miles" }],
      both,
      {},
      true,
    ],
    [
      "keeps forcing a same-name pair when names do not repeat",
      { columns: ["a", "b"], rows: [[1, 2]] },
      { columns: ["a", "b"], rows: [[2, 1]] },
      {},
      false,
    ],
    [
      "leaves the surplus of a name the actual side repeats to an unpaired expected column (SELECT a, a for SELECT a, a AS b)",
      { columns: ["a", "a"], rows: [[1, 1], [2, 2]] },
      { columns: ["a", "b"], rows: [[1, 1], [2, 2]] },
      {},
      true,
    ],
    [
      "pairs SELECT a, a AS b with SELECT a, a the other way round",
      { columns: ["a", "b"], rows: [[1, 1], [2, 2]] },
      { columns: ["a", "a"], rows: [[1, 1], [2, 2]] },
      {},
      true,
    ],
    [
      "still refuses the surplus of a repeated name when its values differ",
      { columns: ["a", "a"], rows: [[1, 1], [2, 3]] },
      { columns: ["a", "b"], rows: [[1, 1], [2, 2]] },
      {},
      false,
    ],
    [
      "never lets one actual column serve a name and a spare slot at once",
      { columns: ["a", "c"], rows: [[1, 9]] },
      { columns: ["a", "b"], rows: [[1, 1]] },
      {},
      false,
    ],
    [
      "pairs by position when names cross the values and both sides have as many columns",
      { columns: ["b", "a"], rows: [[1, 2]] },
      { columns: ["a", "b"], rows: [[1, 2]] },
      { ordered: true },
      true,
    ],
    [
      "does not pair by position when the actual side has extra columns",
      { columns: ["b", "a"], rows: [[2, 1]] },
      { columns: ["a"], rows: [[2]] },
      {},
      false,
    ],
    [
      "pairs two case-variant expected names with one same-name column and a free one",
      [{ Name: 1, other: 2 }],
      [{ name: 1, NAME: 2 }],
      {},
      true,
    ],
  ];
  for (const [name, actual, expected, options, result] of cases) {
    it(`compareRows() ${name}`, () => {
      assert.equal(compareRows(actual, expected, options), result);
    });
  }
});
