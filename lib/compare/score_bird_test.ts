import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { openMemoryDatabase } from "../sqlite/database.ts";
import { scoreBirdEx } from "./score_bird_ex.ts";
import { softF1 } from "./score_bird_f1.ts";
import {
  cleanAbnormal,
  rewardFromRatios,
  rves,
  scoreBirdVes,
  vesReward,
} from "./score_bird_ves.ts";
import type { StoredValue } from "./stored.ts";
import { storedExecutor } from "./stored.ts";

type Rows = StoredValue[][];

describe("softF1()", () => {
  // [name, predicted, gold, evaluation_f1.py's calculate_f1_score (printed by CPython 3.11)]
  // Python ints are bigints here, floats numbers.
  const cases: [string, Rows, Rows, number][] = [
    ["equal results", [[1n, "a"], [2n, "b"]], [[1n, "a"], [2n, "b"]], 1],
    ["one value of two wrong", [[1n, "a"]], [[1n, "b"]], 0.5],
    ["duplicates dropped", [[1n, "a"], [1n, "a"], [2n, "b"]], [[1n, "a"], [2n, "b"]], 1],
    ["rows matched by position: order counts", [[2n, "b"], [1n, "a"]], [[1n, "a"], [2n, "b"]], 0],
    ["an extra predicted row", [[1n, "a"], [2n, "b"], [3n, "c"]], [[1n, "a"], [2n, "b"]], 0.8],
    ["a missing predicted row", [[1n, "a"]], [[1n, "a"], [2n, "b"]], 0.6666666666666666],
    ["an extra column", [[1n, "a", 9n]], [[1n, "a"]], 0.8],
    ["3 equals 3.0 and '3' does not", [[3, "3"]], [[3n, 3n]], 0.6666666666666666],
    ["both empty", [], [], 1],
    ["an empty prediction", [], [[1n]], 0],
    ["an empty gold", [[1n]], [], 0],
    ["values swapped within a row", [["a", 1n]], [[1n, "a"]], 1],
    ["NULL matches NULL", [[null, 1n]], [[null, 2n]], 0.5],
  ];
  for (const [name, predicted, gold, expected] of cases) {
    it(`gives ${expected} for ${name}`, () => assert.equal(softF1(predicted, gold), expected));
  }
});

describe("R-VES arithmetic", () => {
  // [name, ratios, values kept by evaluation_ves.py's clean_abnormal (numpy 1.24), their mean]
  const cases: [string, number[], number, number | null][] = [
    ["equal ratios (std 0 keeps none)", Array(10).fill(1), 0, null],
    ["an outlier dropped", [...Array(20).fill(1), 50], 20, 1],
    ["a spread kept", [0.3, 0.5, 0.7, 0.9, 1.1, 1.3, 1.5], 7, 0.9],
    ["a hundred runs", Array.from({ length: 100 }, (_, i) => 1 + ((i * 37) % 11) / 10), 100, 1.495],
    ["fast predictions", [2.0, 2.2, 1.9, 2.1], 4, 2.05],
  ];
  for (const [name, ratios, kept, mean] of cases) {
    it(`cleanAbnormal() keeps ${kept} for ${name}`, () => {
      const k = cleanAbnormal(ratios);
      assert.equal(k.length, kept);
      if (mean !== null) {
        assert.ok(Math.abs(k.reduce((a, b) => a + b, 0) / k.length - mean) < 1e-12);
      }
    });
  }

  it("vesReward() follows the reward table at its edges", () => {
    const table: [number, number][] = [
      [0, 0],
      [0.1, 0.25],
      [0.25, 0.5],
      [0.49, 0.5],
      [0.5, 0.75],
      [1, 1],
      [1.99, 1],
      [2, 1.25],
    ];
    for (const [ratio, reward] of table) assert.equal(vesReward(ratio), reward, String(ratio));
    assert.equal(rewardFromRatios(Array(10).fill(3)), 0); // nothing kept: the script divides by zero
    assert.equal(rewardFromRatios([2.0, 2.2, 1.9, 2.1]), 1.25);
  });

  it("rves() is evaluation_ves.py's compute_ves", () => {
    // compute_ves on rewards [1, 0, 1.25, 0.25, 0.75, 0.5] prints 69.85276956201469
    assert.equal(rves([1, 0, 1.25, 0.25, 0.75, 0.5]), 69.85276956201469);
  });

  it("scoreBirdVes() times both queries and rewards the ratio", async () => {
    let clock = 0;
    // The gold takes 3 ms and the prediction 1 ms, with a little jitter.
    const execute = (sql: string) => {
      clock += sql.includes("gold") ? 3 + (clock % 7) / 100 : 1;
      return { columns: ["a"], rows: [[1n]] };
    };
    const r = await scoreBirdVes(
      { gold: "SELECT 1 AS gold", predicted: "SELECT 1", execute },
      { iterations: 20, now: () => clock },
    );
    assert.equal(r.value, 1.25, r.detail);
    const wrong = await scoreBirdVes({
      gold: "SELECT 1",
      predicted: "SELECT 2",
      execute: (sql) => ({ columns: ["a"], rows: [[sql.endsWith("1") ? 1n : 2n]] }),
    });
    assert.equal(wrong.value, 0);
  });
});

const db = await openMemoryDatabase();
after(() => db.close());

describe("scoreBirdEx()", () => {
  db.exec("CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (1, 'x'), (2, 'y');");
  const execute = storedExecutor(db);
  // [name, gold, predicted, BIRD's set() verdict]
  const cases: [string, string, string, number][] = [
    ["ignores duplicates", "SELECT a FROM t", "SELECT DISTINCT a FROM t", 1],
    ["ignores row order", "SELECT a FROM t ORDER BY a", "SELECT a FROM t ORDER BY a DESC", 1],
    ["counts 1.0 as 1", "SELECT a FROM t WHERE a = 1", "SELECT 1.0", 1],
    ["refuses '1' for 1", "SELECT a FROM t WHERE a = 1", "SELECT '1'", 0],
    ["refuses the columns in another order", "SELECT a, b FROM t", "SELECT b, a FROM t", 0],
    ["refuses an extra column", "SELECT a FROM t", "SELECT a, b FROM t", 0],
    ["scores a failing prediction 0", "SELECT a FROM t", "SELECT nope FROM t", 0],
  ];
  for (const [name, gold, predicted, value] of cases) {
    it(
      name,
      async () => assert.equal((await scoreBirdEx({ gold, predicted, execute })).value, value),
    );
  }
});
