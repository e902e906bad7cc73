import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { openMemoryDatabase } from "../sqlite/database.ts";
import { compareRows } from "./rows.ts";
import { explainDisagreement } from "./disagreement.ts";
import { SCORES } from "./scores.ts";
import type { ScoreName } from "./score.ts";
import { storedExecutor } from "./stored.ts";

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
