import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { openMemoryDatabase } from "../sqlite/database.ts";
import { laterStatements, removeDistinct } from "./_sqlparse_words.ts";
import { scoreSpider, spiderQueries } from "./score_spider.ts";
import { storedExecutor } from "./stored.ts";

const db = await openMemoryDatabase();
db.exec(`CREATE TABLE singer (id INTEGER, name TEXT, country TEXT, age INTEGER, score REAL);
  INSERT INTO singer VALUES (1, 'Joe', 'France', 52, 10), (2, 'Ann', 'France', 43, 10.5),
    (3, 'Tom', 'Spain', 43, 3), (4, 'Liz', 'USA', 29, NULL);`);
const execute = storedExecutor(db);
after(() => db.close());

describe("scoreSpider()", () => {
  // [name, gold, prediction line, keepDistinct, test-suite-sql-eval's verdict]
  // Each verdict is the one exec_eval.py's eval_exec_match gives on these rows.
  const cases: [string, string, string, boolean, 0 | 1][] = [
    ["passes the gold itself", "SELECT name FROM singer", "SELECT name FROM singer", false, 1],
    [
      "passes a missing DISTINCT: both lose it by default",
      "SELECT DISTINCT country FROM singer",
      "SELECT country FROM singer",
      false,
      1,
    ],
    [
      "fails a missing DISTINCT with --keep_distinct",
      "SELECT DISTINCT country FROM singer",
      "SELECT country FROM singer",
      true,
      0,
    ],
    [
      "passes COUNT(country) for COUNT(DISTINCT country): DISTINCT goes inside COUNT too",
      "SELECT count(DISTINCT country) FROM singer",
      "SELECT count(country) FROM singer",
      false,
      1,
    ],
    [
      "ignores row order when the gold has no ORDER BY",
      "SELECT name FROM singer",
      "SELECT name FROM singer ORDER BY name",
      false,
      1,
    ],
    [
      "counts row order when the gold has ORDER BY",
      "SELECT name FROM singer ORDER BY age",
      "SELECT name FROM singer ORDER BY age DESC",
      false,
      0,
    ],
    ["fails '43' for 43", "SELECT age FROM singer WHERE id = 2", "SELECT '43'", false, 0],
    ["passes 43.0 for 43", "SELECT age FROM singer WHERE id = 2", "SELECT 43.0", false, 1],
    [
      "fails an extra column",
      "SELECT name FROM singer",
      "SELECT name, age FROM singer",
      false,
      0,
    ],
    [
      "passes the columns in another order",
      "SELECT name, country FROM singer",
      "SELECT country, name FROM singer",
      false,
      1,
    ],
    ["fails NULL for ''", "SELECT score FROM singer WHERE id = 4", "SELECT ''", false, 0],
    ["compares numbers without rounding", "SELECT 2.675", "SELECT 2.68", false, 0],
    [
      "fails 10 and 10.5 given as 10.0 and 10.5: its row sort puts 10.5 first only for the INTEGER",
      "SELECT 10, 10.5",
      "SELECT 10.0, 10.5",
      false,
      0,
    ],
    [
      "reads a prediction line only up to its first TAB",
      "SELECT name FROM singer",
      "SELECT name FROM singer\tconcert_singer",
      false,
      1,
    ],
    [
      "turns value into 1 in the prediction",
      "SELECT 1 FROM singer",
      "SELECT value FROM singer",
      false,
      1,
    ],
    [
      "runs only the first statement when it strips DISTINCT",
      "SELECT name FROM singer",
      "SELECT name FROM singer; SELECT 1",
      false,
      1,
    ],
    [
      "fails a second statement with --keep_distinct",
      "SELECT name FROM singer",
      "SELECT name FROM singer; SELECT 1",
      true,
      0,
    ],
    [
      "passes two empty results whatever their columns",
      "SELECT name FROM singer WHERE age > 99",
      "SELECT id, age FROM singer WHERE age > 100",
      false,
      1,
    ],
    [
      "fails a query that does not run",
      "SELECT name FROM singer",
      "SELECT nme FROM singer",
      false,
      0,
    ],
    [
      "joins '> =' as >=",
      "SELECT name FROM singer WHERE age >= 43",
      "SELECT name FROM singer WHERE age > = 43",
      false,
      1,
    ],
  ];
  for (const [name, gold, predicted, keepDistinct, verdict] of cases) {
    it(name, async () => {
      const r = await scoreSpider({ gold, predicted, execute }, { keepDistinct });
      assert.equal(r.value, verdict, r.detail);
      assert.equal(r.correct, verdict === 1);
    });
  }

  it("reports a gold that fails as having no verdict", async () => {
    const r = await scoreSpider({
      gold: "SELECT nope FROM singer",
      predicted: "SELECT 1",
      execute,
    });
    assert.match(r.goldError ?? "", /no such column/);
  });
});

describe("removeDistinct()", () => {
  // [query, what sqlparse 0.4's remove_distinct returns (printed by Python)]
  const cases: [string, string][] = [
    ["SELECT count(DISTINCT  x) FROM t", "SELECT count(  x) FROM t"],
    ["select T1.distinct from t", "select T1. from t"],
    [
      `SELECT "distinct", [distinct], \`distinct\` FROM t -- distinct`,
      `SELECT "distinct", [distinct], \`distinct\` FROM t -- distinct`,
    ],
    ["select 'it\\'s distinct' , distinct", "select 'it\\'s distinct' , "],
    [
      "SELECT DISTINCT(name) FROM t /* distinct */ WHERE x = 'a;b'; SELECT 2",
      "SELECT (name) FROM t /* distinct */ WHERE x = 'a;b';",
    ],
    [
      "SELECT distinct$x, :distinct, distinct_x FROM t",
      "SELECT distinct$x, :distinct, distinct_x FROM t",
    ],
  ];
  for (const [sql, expected] of cases) {
    it(`keeps what sqlparse keeps in ${sql}`, () => assert.equal(removeDistinct(sql), expected));
  }

  it("spiderQueries() says row order counts when the gold has order by", () => {
    assert.equal(spiderQueries("SELECT 1", "SELECT a FROM t ORDER BY a").orderMatters, true);
    assert.equal(spiderQueries("SELECT 1", "SELECT a FROM t ORDER  BY a").orderMatters, false);
  });
});

// A second database of a test suite, where Tom is 44.
const other = await openMemoryDatabase();
other.exec(`CREATE TABLE singer (id INTEGER, name TEXT, country TEXT, age INTEGER, score REAL);
  INSERT INTO singer VALUES (1, 'Joe', 'France', 52, 10), (3, 'Tom', 'Spain', 44, 3);`);
after(() => other.close());
const testSuite = [{ name: "singer_changed.sqlite", execute: storedExecutor(other) }];

describe("scoreSpider() on a test suite", () => {
  // [name, gold, predicted, verdict, detail]
  const cases: [string, string, string, 0 | 1, string][] = [
    [
      "passes a prediction right on every database",
      "SELECT name FROM singer WHERE age > 40",
      "SELECT name FROM singer WHERE age >= 41",
      1,
      "the same rows on all 2 databases of the test suite",
    ],
    [
      "fails a prediction right on the question's database only, naming the other",
      "SELECT name FROM singer WHERE age > 40",
      "SELECT name FROM singer WHERE age IN (43, 52)",
      0,
      "a different number of rows on singer_changed.sqlite",
    ],
  ];
  for (const [name, gold, predicted, verdict, detail] of cases) {
    it(name, async () => {
      const r = await scoreSpider({ gold, predicted, execute, testSuite });
      assert.deepEqual([r.value, r.detail], [verdict, detail]);
    });
  }

  it("gives no verdict when the gold fails on a database of the suite", async () => {
    const r = await scoreSpider({
      gold: "SELECT name FROM singer WHERE age > 40",
      predicted: "SELECT name FROM singer WHERE age > 40",
      execute,
      testSuite: [{
        name: "broken.sqlite",
        execute: () => Promise.reject(new Error("no such table: singer")),
      }],
    });
    assert.equal(r.goldError, "no such table: singer on broken.sqlite");
  });
});

describe("removeDistinct() one rule at a time", () => {
  const sql = "SELECT DISTINCT a FROM t; LIMIT 1";
  const cases: [string, { distinct?: boolean; laterStatements?: boolean }, string][] = [
    ["both, as the official evaluator", {}, "SELECT  a FROM t;"],
    ["DISTINCT kept", { distinct: false }, "SELECT DISTINCT a FROM t;"],
    ["every statement kept", { laterStatements: false }, "SELECT  a FROM t; LIMIT 1"],
  ];
  for (const [name, rules, expected] of cases) {
    it(`removes ${name}`, () => assert.equal(removeDistinct(sql, rules), expected));
  }

  it("laterStatements() is what follows the first statement, outside strings", () => {
    assert.equal(laterStatements(sql), "LIMIT 1");
    assert.equal(laterStatements("SELECT 'a;b' FROM t;"), "");
  });
});
