/**
 * `--score spider` against Spider's official evaluator on the whole Spider
 * dev set we hold (19 databases, 972 questions, tests/data/spider), both
 * measured in one run: wall time, peak RSS and the accuracy each gives.
 *
 * The official evaluator is not in this repository: pass a copy of
 * `taoyds/test-suite-sql-eval` (a work tree, or a bare git repository) with
 * `--official DIR`; bench/_official_spider.ts copies it to a temporary folder
 * and runs it with Debian's python3, python3-sqlparse and python3-nltk.
 *
 * Usage: deno run -A bench/spider_scores.ts --official DIR [--pred FILE] [--runs N]
 *
 * @module
 */
import { cpSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";
import { measure, median } from "./_measure.ts";
import { officialSpider, PYTHON } from "./_official_spider.ts";

const args = process.argv.slice(2);
const arg = (name: string, fallback?: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const officialDir = arg("--official");
if (officialDir === undefined) {
  console.error(
    "pass --official DIR: a copy of taoyds/test-suite-sql-eval (work tree or bare git repository)",
  );
  process.exit(2);
}
const data = new URL("../tests/data/", import.meta.url).pathname;
const gold = join(data, "spider/dev_gold.sql");
const dbDir = join(data, "spider/database");
const tables = join(data, "spider_scores/tables.json");
const pred = resolve(arg("--pred", join(data, "spider_scores/pred_model.txt"))!);
const runs = Number(arg("--runs", "1"));

const official = officialSpider(officialDir);
const work = official.work;
// The evaluator opens the databases read-write: give it copies.
cpSync(dbDir, join(work, "database"), { recursive: true });

const runtime = process.execPath;
const ours = (): ReturnType<typeof measure> =>
  measure(
    runtime.includes("bun")
      ? [runtime, "bench/_spider_scores_child.ts", gold, pred, dbDir]
      : [runtime, "run", "-A", "bench/_spider_scores_child.ts", gold, pred, dbDir],
  );
const theirs = (): ReturnType<typeof measure> =>
  measure([
    PYTHON,
    "evaluation.py",
    "--gold",
    gold,
    "--pred",
    pred,
    "--db",
    join(work, "database"),
    "--table",
    tables,
    "--etype",
    "exec",
  ], { cwd: work });

try {
  const a: ReturnType<typeof measure>[] = [];
  const b: ReturnType<typeof measure>[] = [];
  for (let i = 0; i < runs; i++) {
    b.push(theirs());
    a.push(ours());
  }
  const theirAccuracy = /execution\s+(?:\S+\s+){4}(\S+)/.exec(b[0]!.stdout)?.[1];
  const ourAccuracy = /accuracy (\S+)/.exec(a[0]!.stdout)?.[1];
  const t1 = median(a.map((m) => m.seconds));
  const t2 = median(b.map((m) => m.seconds));
  console.log(
    `questions: ${
      readFileSync(gold, "utf8").split("\n").filter((l) => l.trim()).length
    }, predictions: ${pred}`,
  );
  console.log(
    `official evaluator: ${t2.toFixed(2)} s, peak ${
      Math.round(median(b.map((m) => m.peakRssMb)))
    } MB, accuracy ${theirAccuracy}`,
  );
  console.log(
    `--score spider:     ${t1.toFixed(2)} s, peak ${
      Math.round(median(a.map((m) => m.peakRssMb)))
    } MB, accuracy ${ourAccuracy}`,
  );
  console.log(`ratio (ours / official): ${(t1 / t2).toFixed(2)}`);
} finally {
  official.remove();
}
