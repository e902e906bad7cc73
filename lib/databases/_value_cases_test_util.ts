/**
 * PostgreSQL values and the rows an agent over SQLite (or any driver) might
 * give for them: the server and PGlite tests both run these.
 */
export const valueCases: [string, string, Record<string, unknown>[], boolean][] = [
  ["NUMERIC 12.50 equal to 12.5", "SELECT 12.50::numeric AS n", [{ n: 12.5 }], true],
  ["NUMERIC 12.50 equal to the text 12.5", "SELECT 12.50::numeric AS n", [{ n: "12.5" }], true],
  [
    "a 30-digit NUMERIC exactly (no float rounding)",
    "SELECT 123456789012345678901234567890::numeric AS n",
    [{ n: "123456789012345678901234567891" }],
    false,
  ],
  [
    "a 30-digit NUMERIC equal to its own text",
    "SELECT 123456789012345678901234567890::numeric AS n",
    [{ n: "123456789012345678901234567890" }],
    true,
  ],
  [
    "BIGINT 2^53 + 1 exactly (a float would make it 2^53)",
    "SELECT 9007199254740993::bigint AS n",
    [{ n: 9007199254740992n }],
    false,
  ],
  ["BIGINT 2^53 + 1 equal to itself", "SELECT 9007199254740993::bigint AS n", [{
    n: 9007199254740993n,
  }], true],
  ["COUNT(*) (a BIGINT) equal to a number", "SELECT count(*) AS n FROM genre", [{ n: 25 }], true],
  ["a DATE as its ISO text", "SELECT DATE '2009-01-02' AS d", [{ d: "2009-01-02" }], true],
  [
    "a TIMESTAMP as the ISO text SQLite's datetime() prints",
    "SELECT TIMESTAMP '2009-01-02 03:04:05' AS t",
    [{ t: "2009-01-02 03:04:05" }],
    true,
  ],
  [
    "a TIMESTAMPTZ as ISO text in UTC",
    "SELECT TIMESTAMPTZ '2009-01-02 03:04:05+02' AS t",
    [{ t: "2009-01-02 01:04:05+00" }],
    true,
  ],
  ["an array as a list", "SELECT ARRAY[1, 2, 3] AS a", [{ a: [1, 2, 3] }], true],
  ["an array in order", "SELECT ARRAY[1, 2, 3] AS a", [{ a: [3, 2, 1] }], false],
  ["JSONB as a value, whatever the key order", `SELECT '{"b": 2, "a": [1]}'::jsonb AS j`, [{
    j: { a: [1], b: 2 },
  }], true],
  ["NULL equal to null", "SELECT NULL::text AS x", [{ x: null }], true],
];
