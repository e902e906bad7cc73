/**
 * `--score spider` on test suites against Spider's official evaluator: the
 * 19 Spider dev databases we hold (tests/data/spider), each with three
 * copies beside it (rows deleted, duplicated, changed;
 * tests/test_suite_fixture.ts), scored by the official evaluator's
 * `eval_exec_match` (bench/_official_spider.ts) and by `dbagenteval run
 * --score spider --db-dir` (read back from its run file), for a real model's
 * predictions and perturbed gold, with and without `--keep_distinct`.
 * Prints how many questions each gets right and every question where the
 * verdicts differ; with `--write FILE`, writes the official verdicts as the
 * tests read them (tests/data/spider_scores/official_test_suite.tsv).
 *
 * `--root DIR` runs the CLI of another checkout (the code before a change)
 * on the same folders, under Deno.
 *
 * Usage: deno run -A bench/spider_test_suite.ts --official DIR [--write FILE] [--root DIR]
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { officialSpider } from "./_official_spider.ts";
import { writeTestSuites } from "../tests/test_suite_fixture.ts";
import { cliCommand } from "../tests/cli.ts";

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const officialDir = arg("--official");
if (officialDir === undefined) {
  console.error("pass --official DIR: a copy of taoyds/test-suite-sql-eval");
  process.exit(2);
}
const data = new URL("../tests/data/", import.meta.url).pathname;
const gold = join(data, "spider/dev_gold.sql");
const PREDICTIONS = {
  model: join(data, "spider_scores/pred_model.txt"),
  perturbed: join(data, "spider_scores/pred_perturbed.txt"),
};

const official = officialSpider(officialDir);
const suites = join(official.work, "database");
// The evaluator opens the databases read-write: it gets its own copy.
const theirs = join(official.work, "database_official");

interface RunFile {
  readonly cases: readonly { readonly id: string; readonly verdict: string }[];
  readonly scores: readonly {
    readonly questions: number;
    readonly no_verdict: number;
    readonly variant?: string;
    readonly disagreements: readonly { readonly id: string; readonly official: boolean }[];
  }[];
}

const root = arg("--root");
const [cmd, ...pre] = root === undefined
  ? cliCommand()
  : [process.execPath, "run", "-A", "--quiet", join(root, "cli.ts")];

/** Our spider verdict of each question, from a run file: ours, except where it disagrees. */
function ourVerdicts(pred: string, keep: boolean): { verdicts: string; variant: string } {
  const out = join(official.work, "run.json");
  const r = spawnSync(cmd!, [
    ...pre,
    "run",
    gold,
    "--predictions",
    pred,
    "--db-dir",
    suites,
    "--score",
    "spider",
    ...(keep ? ["--keep-distinct"] : []),
    "--json",
    out,
  ], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status === 2) return { verdicts: "", variant: `could not run: ${r.stderr.trim()}` };
  if (r.status !== 0 && r.status !== 1) throw new Error(r.stderr);
  const run = JSON.parse(readFileSync(out, "utf8")) as RunFile;
  const score = run.scores[0]!;
  if (score.no_verdict > 0) throw new Error(`${score.no_verdict} questions without a verdict`);
  const flipped = new Map(score.disagreements.map((d) => [d.id, d.official]));
  return {
    verdicts: run.cases.map((c) => (flipped.get(c.id) ?? c.verdict === "PASS") ? "1" : "0")
      .join(""),
    variant: score.variant ?? "",
  };
}

try {
  writeTestSuites(join(data, "spider/database"), suites);
  cpSync(suites, theirs, { recursive: true });
  const rows: string[][] = [];
  for (const [name, pred] of Object.entries(PREDICTIONS)) {
    for (const keep of [false, true]) {
      const t = official.verdicts(gold, pred, theirs, keep);
      const o = ourVerdicts(pred, keep);
      if (o.verdicts === "") {
        console.log(`${name}${keep ? " --keep_distinct" : ""}: ours ${o.variant}`);
        rows.push([...t]);
        continue;
      }
      const differ = [...t].flatMap((v, i) => v === o.verdicts[i] ? [] : [`line ${i + 1}`]);
      const right = (s: string) => [...s].filter((v) => v === "1").length;
      console.log(
        `${name}${keep ? " --keep_distinct" : ""}: official ${right(t)}/${t.length}, ours ${
          right(o.verdicts)
        }/${o.verdicts.length} (${o.variant}); verdicts differ on ${differ.length}${
          differ.length > 0 ? `: ${differ.join(", ")}` : ""
        }`,
      );
      rows.push([...t]);
    }
  }
  // The test suites against the dev databases alone: what the copies change.
  const alone = official.verdicts(gold, PREDICTIONS.model, join(data, "spider/database"), false);
  const suite = rows[0]!.join("");
  console.log(
    `model, one database a question (official): ${
      [...alone].filter((v) => v === "1").length
    }; questions the test suites turn from right to wrong: ${
      [...alone].filter((v, i) => v === "1" && suite[i] === "0").length
    }`,
  );
  const m = /execution\s+(?:\S+\s+){4}(\S+)/.exec(
    official.evaluation([
      "--gold",
      gold,
      "--pred",
      PREDICTIONS.model,
      "--db",
      theirs,
      "--table",
      join(data, "spider_scores/tables.json"),
      "--etype",
      "exec",
    ]),
  );
  console.log(`model, evaluation.py's own total on the test suites: ${m?.[1]}`);
  const write = arg("--write");
  if (write !== undefined) {
    const header =
      "# line\tmodel\tmodel_keep_distinct\tperturbed\tperturbed_keep_distinct (test suites)";
    const lines = rows[0]!.map((_, i) => [i + 1, ...rows.map((r) => r[i])].join("\t"));
    writeFileSync(write, [header, ...lines].join("\n") + "\n");
    console.log(`wrote ${write}`);
  }
} finally {
  official.remove();
}
