// scoreSpider() against the verdicts Spider's official evaluator gave, on the
// Spider dev databases and on test suites made from them: a real model's
// predictions and perturbed gold, with and without --keep_distinct
// (tests/data/spider_scores/README.md).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { readFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TEST_SUITE_COPIES, writeTestSuites } from "../../tests/test_suite_fixture.ts";
import { openDatabase } from "../sqlite/database.ts";
import { scoreSpider } from "./score_spider.ts";
import { type StoredExecutor, storedExecutor } from "./stored.ts";
import type { TestSuiteDatabase } from "./score.ts";

const here = new URL("../../tests/data/", import.meta.url);
const read = (path: string): string[] =>
  readFileSync(new URL(path, here), "utf8").split("\n").filter((l) => l.trim() !== "");

const gold = read("spider/dev_gold.sql").map((l) => l.trim().split("\t") as [string, string]);
const verdicts = read("spider_scores/official.tsv").filter((l) => !l.startsWith("#"))
  .map((l) => l.split("\t").map(Number));
const predictions: Record<string, string[]> = {
  model: read("spider_scores/pred_model.txt"),
  perturbed: read("spider_scores/pred_perturbed.txt"),
};

const databases = new Map<string, { close(): void; execute: StoredExecutor }>();
after(() => databases.forEach((d) => d.close()));
async function executorFor(dbId: string): Promise<StoredExecutor> {
  let d = databases.get(dbId);
  if (d === undefined) {
    const db = await openDatabase(new URL(`spider/database/${dbId}/${dbId}.sqlite`, here).pathname);
    d = { close: () => db.close(), execute: storedExecutor(db) };
    databases.set(dbId, d);
  }
  return d.execute;
}

/**
 * The questions whose score is not the official verdict, for one column of
 * official verdicts (each row: the gold's line, then the verdicts).
 */
async function notOfficial(
  official: readonly number[][],
  file: string,
  options: {
    keepDistinct: boolean;
    column: number;
    suite?: (dbId: string) => Promise<TestSuiteDatabase[]>;
  },
): Promise<string[]> {
  const wrong: string[] = [];
  for (const row of official) {
    const [goldSql, dbId] = gold[row[0]! - 1]!;
    const r = await scoreSpider({
      gold: goldSql,
      predicted: predictions[file]![row[0]! - 1]!,
      execute: await executorFor(dbId),
      ...(options.suite === undefined ? {} : { testSuite: await options.suite(dbId) }),
    }, { keepDistinct: options.keepDistinct });
    if (r.value !== row[options.column]) wrong.push(`line ${row[0]}: ${r.value} (${r.detail})`);
  }
  return wrong;
}

describe("scoreSpider() on Spider dev", () => {
  // [predictions, keepDistinct, column of official.tsv]
  const runs: [string, boolean, number][] = [
    ["model", false, 1],
    ["model", true, 2],
    ["perturbed", false, 3],
    ["perturbed", true, 4],
  ];
  for (const [file, keepDistinct, column] of runs) {
    it(
      `gives the official verdict on all ${verdicts.length} questions for the ${file} predictions${
        keepDistinct ? " with --keep_distinct" : ""
      }`,
      async () => {
        assert.deepEqual(await notOfficial(verdicts, file, { keepDistinct, column }), []);
      },
    );
  }
});

describe("scoreSpider() on test suites", () => {
  // Each dev database with three copies beside it (rows deleted, duplicated,
  // changed): the verdicts the official evaluator gave on these very folders
  // (bench/spider_test_suite.ts wrote official_test_suite.tsv).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-suites-"));
  const suites = new Map<string, (TestSuiteDatabase & { close(): void })[]>();
  before(() => {
    writeTestSuites(new URL("spider/database", here).pathname, dir);
  });
  after(() => {
    suites.forEach((s) => s.forEach((d) => d.close()));
    fs.rmSync(dir, { recursive: true, force: true });
  });
  async function suiteOf(dbId: string): Promise<TestSuiteDatabase[]> {
    let s = suites.get(dbId);
    if (s === undefined) {
      s = [];
      for (const copy of TEST_SUITE_COPIES) {
        const name = `${dbId}_${copy}.sqlite`;
        const db = await openDatabase(path.join(dir, dbId, name));
        s.push({ close: () => db.close(), execute: storedExecutor(db), name });
      }
      suites.set(dbId, s);
    }
    return s;
  }
  const official = read("spider_scores/official_test_suite.tsv").filter((l) => !l.startsWith("#"))
    .map((l) => l.split("\t").map(Number));
  const runs: [string, boolean, number][] = [
    ["model", false, 1],
    ["perturbed", true, 4],
  ];
  for (const [file, keepDistinct, column] of runs) {
    it(
      `gives the official verdict on all ${official.length} questions for the ${file} predictions${
        keepDistinct ? " with --keep_distinct" : ""
      }`,
      async () => {
        const wrong = await notOfficial(official, file, { keepDistinct, column, suite: suiteOf });
        assert.deepEqual(wrong, []);
      },
    );
  }
});
