/**
 * Child of bench/spider_scores.ts: scores a Spider predictions file with
 * `--score spider`'s scorer, each database opened once, and prints the
 * execution accuracy and the per-question verdicts.
 *
 * Usage: deno run -A bench/_spider_scores_child.ts GOLD PRED DB_DIR [keep]
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { openDatabase } from "../lib/sqlite/database.ts";
import { scoreSpider } from "../lib/compare/score_spider.ts";
import { type StoredExecutor, storedExecutor } from "../lib/compare/stored.ts";
import process from "node:process";

const [goldFile, predFile, dbDir, keep] = process.argv.slice(2);
const lines = (f: string): string[] => readFileSync(f, "utf8").split("\n").filter((l) => l.trim());
const gold = lines(goldFile!);
const pred = lines(predFile!);
const executors = new Map<string, StoredExecutor>();
const verdicts: number[] = [];
for (let i = 0; i < gold.length; i++) {
  const [sql, dbId] = gold[i]!.trim().split("\t") as [string, string];
  let execute = executors.get(dbId);
  if (execute === undefined) {
    execute = storedExecutor(await openDatabase(`${dbDir}/${dbId}/${dbId}.sqlite`));
    executors.set(dbId, execute);
  }
  const r = await scoreSpider({ gold: sql, predicted: pred[i]!, execute }, {
    keepDistinct: keep === "keep",
  });
  verdicts.push(r.value);
}
const accuracy = verdicts.reduce((a, b) => a + b, 0) / verdicts.length;
console.log(`accuracy ${accuracy.toFixed(3)}`);
console.log(verdicts.join(""));
