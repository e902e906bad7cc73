import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { scanSql, unescapeLiteral } from "./_lex.ts";

describe("scanSql", () => {
  const rejected: [string, string, string, RegExp][] = [
    ["rejects a MySQL executable comment", "mysql", "SELECT 1 /*! OR 1=1 */", /runs the code/],
    ["rejects a MariaDB executable comment", "mariadb", "SELECT 1 /*M! OR 1=1 */", /runs the code/],
    ["rejects --1 in MySQL", "mysql", "SELECT 1 --1", /minus signs/],
    ["rejects || in MySQL", "mysql", "SELECT a || b FROM t", /reads \|\| as OR/],
    ["rejects a nested comment in any dialect", "sqlite", "SELECT 1 /* a /* b */", /nested/],
    [
      "rejects a backslash in a double-quoted name",
      "sqlite",
      'SELECT * FROM t WHERE "a\\" OR 1=1 --" = 1',
      /backslash inside a "quoted name"/,
    ],
    ["rejects a backslash in a postgres quoted name", "postgres", 'SELECT "a\\b"', /backslash/],
    [
      "rejects a backslash in a BigQuery string, which may escape the quote",
      "bigquery",
      "SELECT * FROM t WHERE store_id = 's1' AND a = 'x\\' OR 1=1 --'",
      /backslash inside a string: bigquery/,
    ],
    ["rejects a backslash in a Snowflake string", "snowflake", "SELECT 'a\\b'", /backslash/],
  ];
  for (const [name, dialect, sql, problem] of rejected) {
    it(`scanSql() ${name}`, () => {
      const scan = scanSql(sql, dialect);
      assert.equal(scan.ok, false);
      assert.match(scan.ok ? "" : scan.problem, problem);
    });
  }

  const kept: [string, string, string, string][] = [
    ["keeps -- followed by a space in MySQL", "mysql", "SELECT 1 -- c\n", "SELECT 1 -- c\n"],
    ["keeps || inside a MySQL string", "mysql", "SELECT 'a||b' FROM t", "SELECT 'a||b' FROM t"],
    ["keeps /*! inside a MySQL string", "mysql", "SELECT '/*! x */'", "SELECT '/*! x */'"],
    ["keeps || in postgres (concatenation there)", "postgres", "SELECT a || b", "SELECT a || b"],
    [
      "doubles backslashes in a postgres standard string",
      "postgres",
      "SELECT 'a\\' OR 1=1 --'",
      "SELECT 'a\\\\' OR 1=1 --'",
    ],
    ["doubles backslashes in a sqlite string", "sqlite", "SELECT 'a\\b'", "SELECT 'a\\\\b'"],
    ["leaves a postgres E string alone", "postgres", "SELECT E'a\\'b'", "SELECT E'a\\'b'"],
    [
      "leaves a dollar-quoted body alone",
      "postgres",
      "SELECT $q$ it's || $q$",
      "SELECT $q$ it's || $q$",
    ],
    ["leaves MySQL backslash escapes alone", "mysql", "SELECT 'a\\'b'", "SELECT 'a\\'b'"],
    [
      "keeps a MySQL double-quoted string with escapes",
      "mysql",
      'SELECT "a\\"b"',
      'SELECT "a\\"b"',
    ],
  ];
  for (const [name, dialect, sql, text] of kept) {
    it(`scanSql() ${name}`, () => {
      const scan = scanSql(sql, dialect);
      assert.deepEqual(scan.ok ? scan.text : scan.problem, text);
    });
  }

  const withs: [string, string, boolean][] = [
    ["(WITH o AS (SELECT 1) SELECT * FROM o) UNION SELECT 1", "postgres", true],
    ["( /* c */ with o AS (SELECT 1) SELECT 1)", "sqlite", true],
    ["WITH o AS (SELECT 1) SELECT * FROM o", "sqlite", false],
    ["SELECT '(WITH' FROM t", "sqlite", false],
    ["SELECT * FROM (withdrawals)", "mysql", false],
  ];
  for (const [sql, dialect, flag] of withs) {
    it(`scanSql() flags "(WITH" in ${JSON.stringify(sql)}: ${flag}`, () => {
      const scan = scanSql(sql, dialect);
      assert.equal(scan.ok && scan.parenthesizedWith, flag);
    });
  }

  const literals: [string, string, "doubled" | "escapes" | "literal", string][] = [
    ["undoes doubled backslashes", "a\\\\b", "doubled", "a\\b"],
    ["reads MySQL escapes", "it\\'s", "escapes", "it's"],
    ["reads doubled quotes", "it''s", "literal", "it's"],
  ];
  for (const [name, raw, mode, value] of literals) {
    it(`unescapeLiteral() ${name}`, () => assert.equal(unescapeLiteral(raw, mode), value));
  }
});
