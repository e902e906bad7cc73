import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { openMemoryDatabase } from "../sqlite/database.ts";
import { compareRows } from "./rows.ts";
import { explainDisagreement } from "./disagreement.ts";
import { SCORES } from "./scores.ts";
import type { ScoreName } from "./score.ts";
import { storedExecutor } from "./stored.ts";
import { spiderScore } from "./score_spider.ts";

const db = await openMemoryDatabase();
after(() => db.close());
db.exec(`CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (1, 'x'), (2, 'y');`);
const execute = storedExecutor(db);
const objects = (sql: string): Record<string, unknown>[] => db.query(sql);

describe("explainDisagreement()", () => {
  // [name, score, gold, predicted, case ordered, the reason starts with]
  const cases: [string, ScoreName, string, string, boolean, string][] = [
    [
      "a dropped DISTINCT",
      "spider",
      "SELECT DISTINCT a FROM t",
      "SELECT a FROM t",
      false,
      "the official evaluator removes DISTINCT",
    ],
    [
      "an extra column",
      "spider",
      "SELECT a FROM t",
      "SELECT a, b FROM t",
      false,
      "2 columns for the gold's 1",
    ],
    [
      "row order without ORDER BY in the gold",
      "spider",
      "SELECT a FROM t",
      "SELECT a FROM t ORDER BY a DESC",
      true,
      "row order: this case counts it",
    ],
    [
      "'1' for 1",
      "spider",
      "SELECT a FROM t WHERE a = 2",
      "SELECT '2'",
      false,
      "values compared exactly",
    ],
    [
      "a TAB in the prediction line",
      "spider",
      "SELECT a FROM t",
      "SELECT b FROM t\tSELECT a FROM t",
      false,
      "the official evaluator reads a prediction line only up to its first TAB",
    ],
    [
      "duplicates under BIRD",
      "bird-ex",
      "SELECT a FROM t",
      "SELECT DISTINCT a FROM t",
      false,
      "duplicate rows or row order",
    ],
    [
      "column order under BIRD",
      "bird-ex",
      "SELECT a, b FROM t",
      "SELECT b, a FROM t",
      false,
      "column order",
    ],
    [
      "an extra column under BIRD",
      "bird-ex",
      "SELECT a FROM t",
      "SELECT a, b FROM t",
      false,
      "2 columns for the gold's 1",
    ],
  ];
  for (const [name, score, gold, predicted, ordered, reason] of cases) {
    it(`names ${name}`, async () => {
      const input = { gold, predicted, execute };
      const official = (await SCORES[score].score(input)).correct;
      const sql = predicted.split("\t").at(-1)!;
      const ours = compareRows(objects(sql), objects(gold), { ordered });
      assert.notEqual(official, ours, "the two must disagree for the test to mean anything");
      const text = await explainDisagreement(
        score,
        input,
        { correct: ours, ordered, precision: 2 },
        official,
      );
      assert.ok(text.startsWith(reason), text);
    });
  }
});

// A test-suite database beside db, where a is 3 in every row.
const other = await openMemoryDatabase();
after(() => other.close());
other.exec(`CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (3, 'x'), (3, 'y');`);
const testSuite = [{ name: "t_changed.sqlite", execute: storedExecutor(other) }];

describe("explainDisagreement() gives one reason per rule of Spider's evaluator", () => {
  // [name, gold, predicted, keepDistinct, test suite, ours, the reason starts with]
  const cases: [string, string, string, boolean, boolean, boolean, string][] = [
    [
      "a second statement, which the official evaluator drops (not DISTINCT)",
      "SELECT a FROM t",
      "SELECT a FROM t; LIMIT 1",
      false,
      false,
      false,
      'the official evaluator runs only the first statement of a prediction and drops the rest ("LIMIT 1")',
    ],
    [
      "a second statement and a DISTINCT that makes no difference",
      "SELECT DISTINCT b FROM t WHERE a = 2",
      "SELECT DISTINCT b FROM t WHERE a = 2; LIMIT 1",
      false,
      false,
      false,
      "the official evaluator runs only the first statement",
    ],
    [
      "DISTINCT, with the flag that makes it agree",
      "SELECT DISTINCT a FROM t",
      "SELECT a FROM t",
      false,
      false,
      false,
      "the official evaluator removes DISTINCT from both queries (also inside COUNT(DISTINCT ...)); with --keep-distinct (its --keep_distinct) it agrees with ours",
    ],
    [
      "a second statement under --keep_distinct, which Python's sqlite3 refuses",
      "SELECT a FROM t",
      "SELECT a FROM t; SELECT 1",
      true,
      false,
      true,
      "with --keep-distinct (its --keep_distinct) the official evaluator runs the whole prediction, and Python's sqlite3 refuses a second statement",
    ],
    [
      "a test-suite database where the prediction is wrong",
      "SELECT b FROM t WHERE a > 1",
      "SELECT b FROM t WHERE a = 2",
      false,
      true,
      true,
      "test suite: the official evaluator needs the same rows on all 2 databases of the question's folder, and finds a different number of rows on t_changed.sqlite; ours checks the question's own database",
    ],
  ];
  for (const [name, gold, predicted, keepDistinct, suite, ours, reason] of cases) {
    it(`names ${name}`, async () => {
      const input = { gold, predicted, execute, ...(suite ? { testSuite } : {}) };
      const score = spiderScore({ keepDistinct });
      const official = (await score.score(input)).correct;
      assert.notEqual(official, ours, "the two must disagree for the test to mean anything");
      const text = await explainDisagreement(
        score,
        input,
        { correct: ours, ordered: false, precision: 2 },
        official,
      );
      assert.ok(text.startsWith(reason), text);
    });
  }
});
