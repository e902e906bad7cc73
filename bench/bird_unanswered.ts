/**
 * `--score bird-ex` on a BIRD predictions file with unanswered questions
 * (entries that are `0`, not SQL, as BIRD's published ChatGPT-baseline
 * predict_dev.json has 54 of) against BIRD's own evaluators: Mini-Dev's
 * `evaluation/evaluation_ex.py` (bird-bench/mini_dev) and the dev-set script
 * it replaced, `bird/llm/src/evaluation.py` (AlibabaResearch/DAMO-ConvAI).
 * Neither is in this repository: pass their repositories (work trees or bare
 * git repositories) with `--mini-dev DIR` and `--damo DIR`.
 *
 * The benchmark is BIRD-shaped, made from what this repository holds: the 972
 * Spider dev questions on their 19 databases (tests/data/spider) as a BIRD
 * dev.json (question_id, db_id, question, evidence, SQL, difficulty), a
 * dev_gold.sql, and `dev_databases/<db_id>/<db_id>.sqlite`; the predictions
 * are a real model's (tests/data/spider_scores/pred_model.txt) in BIRD's
 * format, with every 20th entry and the first 10 questions whose gold has
 * no rows replaced by 0. The evaluators run with the machine's python3; the
 * `func_timeout` package they import (not in Debian) is replaced by a
 * module that calls the function without a timeout. Per-question verdicts
 * come from each script's own `package_sqls` and `execute_model`, called by
 * a driver written below; the aggregate from each script run as published.
 *
 * Usage: deno run -A bench/bird_unanswered.ts --mini-dev DIR --damo DIR
 *
 * @module
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { cliCommand } from "../tests/cli.ts";

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const miniDev = arg("--mini-dev");
const damo = arg("--damo");
if (miniDev === undefined || damo === undefined) {
  console.error("pass --mini-dev DIR (bird-bench/mini_dev) and --damo DIR (DAMO-ConvAI)");
  process.exit(2);
}
const root = arg("--root");
const [cmd, ...pre] = root === undefined
  ? cliCommand()
  : [process.execPath, "run", "-A", "--quiet", join(root, "cli.ts")];

const data = new URL("../tests/data/", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "bird-official-"));
const python = "python3";

function copyOut(repo: string, file: string, to: string): void {
  const text = existsSync(join(repo, file))
    ? readFileSync(join(repo, file), "utf8")
    : execFileSync("git", ["--git-dir", repo, "show", `HEAD:${file}`], { encoding: "utf8" });
  writeFileSync(to, text);
}

const FUNC_TIMEOUT = `
class FunctionTimedOut(Exception):
    pass

def func_timeout(timeout, func, args=(), kwargs=None):
    return func(*args, **(kwargs or {}))
`;

const MINI_DEV_DRIVER = `
import sys
import evaluation_ex as ex
pred, gold, db_root = sys.argv[1:4]
p, _ = ex.package_sqls(pred, db_root, mode="pred")
g, dbs = ex.package_sqls(gold, db_root, mode="gt")
print("".join(str(ex.execute_model(a, b, dbs[i], i, 30.0, "SQLite")["res"]) for i, (a, b) in enumerate(zip(p, g))))
`;

const DAMO_DRIVER = `
import sys
import evaluation as ev
pred_dir, gold_dir, db_root = sys.argv[1:4]
p, dbs = ev.package_sqls(pred_dir, db_root, mode="gpt", data_mode="dev")
g, _ = ev.package_sqls(gold_dir, db_root, mode="gt", data_mode="dev")
print("".join(str(ev.execute_model(a, b, dbs[i], i, 30.0)["res"]) for i, (a, b) in enumerate(zip(p, g))))
`;

function py(cwd: string, argv: readonly string[]): string {
  const r = spawnSync(python, argv, { cwd, encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr.slice(-2000)}`);
  return r.stdout;
}

try {
  // The benchmark, BIRD-shaped.
  const dbRoot = join(work, "dev_databases");
  cpSync(join(data, "spider/database"), dbRoot, { recursive: true });
  const gold = readFileSync(join(data, "spider/dev_gold.sql"), "utf8").split("\n")
    .filter((l) => l.trim() !== "").map((l) => l.trim().split("\t") as [string, string]);
  const questions = readFileSync(join(data, "spider/questions.jsonl"), "utf8").split("\n")
    .filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as { question: string | null });
  const levels = ["simple", "moderate", "challenging"];
  const dev = gold.map(([sql, db], i) => ({
    question_id: i,
    db_id: db,
    question: questions[i]?.question ?? `Spider dev question ${i}`,
    evidence: "",
    SQL: sql,
    difficulty: levels[i % 3],
  }));
  writeFileSync(join(work, "dev.json"), JSON.stringify(dev));
  writeFileSync(join(work, "dev.jsonl"), dev.map((d) => JSON.stringify(d)).join("\n") + "\n");
  writeFileSync(join(work, "dev_gold.sql"), gold.map(([s, d]) => `${s}\t${d}`).join("\n") + "\n");
  const emptyGold: number[] = [];
  for (const [i, [sql, db]] of gold.entries()) {
    if (emptyGold.length === 10) break;
    const conn = new DatabaseSync(join(dbRoot, db, `${db}.sqlite`), { readOnly: true });
    try {
      if (conn.prepare(sql).all().length === 0) emptyGold.push(i);
    } catch {
      // not SQLite's to run as written: not an empty gold
    } finally {
      conn.close();
    }
  }
  const model = readFileSync(join(data, "spider_scores/pred_model.txt"), "utf8").split("\n")
    .filter((l) => l.trim() !== "");
  const unanswered = new Set([...gold.keys()].filter((i) => i % 20 === 7).concat(emptyGold));
  const predictions = Object.fromEntries(
    gold.map(([, db], i) => [
      String(i),
      unanswered.has(i) ? 0 : `${model[i]!.split("\t")[0]}\t----- bird -----\t${db}`,
    ]),
  );
  mkdirSync(join(work, "pred"));
  const predFile = join(work, "pred", "predict_dev.json");
  writeFileSync(predFile, JSON.stringify(predictions));

  // The official scripts, copied out, and the func_timeout stand-in.
  const md = join(work, "mini_dev");
  const dm = join(work, "damo");
  mkdirSync(md);
  mkdirSync(dm);
  for (const f of ["evaluation_ex.py", "evaluation_utils.py"]) {
    copyOut(miniDev, `evaluation/${f}`, join(md, f));
  }
  copyOut(damo, "bird/llm/src/evaluation.py", join(dm, "evaluation.py"));
  for (const d of [md, dm]) writeFileSync(join(d, "func_timeout.py"), FUNC_TIMEOUT);
  writeFileSync(join(md, "_verdicts.py"), MINI_DEV_DRIVER);
  writeFileSync(join(dm, "_verdicts.py"), DAMO_DRIVER);
  // evaluation_utils imports psycopg2 and pymysql for its other dialects.
  for (const m of ["psycopg2", "pymysql"]) writeFileSync(join(md, `${m}.py`), "");

  const miniDevVerdicts = py(md, [
    "_verdicts.py",
    predFile,
    join(work, "dev_gold.sql"),
    `${dbRoot}/`,
  ]).trim();
  const damoVerdicts = py(dm, ["_verdicts.py", `${work}/pred/`, `${work}/`, `${dbRoot}/`]).trim();
  const miniDevTotal = py(md, [
    "evaluation_ex.py",
    "--db_root_path",
    `${dbRoot}/`,
    "--predicted_sql_path",
    predFile,
    "--ground_truth_path",
    join(work, "dev_gold.sql"),
    "--diff_json_path",
    join(work, "dev.jsonl"),
    "--output_log_path",
    join(work, "mini_dev.log"),
    "--num_cpus",
    "1",
  ]);
  const damoTotal = py(dm, [
    "evaluation.py",
    "--db_root_path",
    `${dbRoot}/`,
    "--predicted_sql_path",
    `${work}/pred/`,
    "--ground_truth_path",
    `${work}/`,
    "--data_mode",
    "dev",
    "--diff_json_path",
    join(work, "dev.json"),
    "--num_cpus",
    "1",
  ]);

  // Ours: the run file's verdicts, and bird-ex's where it disagrees.
  const out = join(work, "run.json");
  const r = spawnSync(cmd!, [
    ...pre,
    "run",
    join(work, "dev.json"),
    "--predictions",
    predFile,
    "--db-dir",
    dbRoot,
    "--score",
    "bird-ex",
    "--json",
    out,
  ], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`ours: ${r.stderr}`);
  const run = JSON.parse(readFileSync(out, "utf8")) as {
    cases: { verdict: string; checks: { detail?: string }[] }[];
    scores: { no_verdict: number; disagreements: { id: string; official: boolean }[] }[];
  };
  const score = run.scores[0]!;
  const flipped = new Map(score.disagreements.map((d) => [d.id, d.official]));
  const ours = run.cases.map((c, i) => (flipped.get(String(i)) ?? c.verdict === "PASS") ? "1" : "0")
    .join("");
  const unansweredFails = [...unanswered].filter((i) => run.cases[i]!.verdict === "FAIL").length;

  const right = (s: string) => [...s].filter((v) => v === "1").length;
  const differ = (a: string, b: string) =>
    [...a].flatMap((v, i) => v === b[i] ? [] : [`${i}${unanswered.has(i) ? " (unanswered)" : ""}`]);
  console.log(
    `questions: ${gold.length}, unanswered (0 in the predictions): ${unanswered.size}, of which the gold has no rows: ${emptyGold.length}`,
  );
  console.log(`our verdict: ${unansweredFails} of the ${unanswered.size} unanswered are FAIL`);
  console.log(`${r.stderr.trim()}`);
  for (
    const [name, verdicts] of [
      ["mini_dev evaluation_ex.py", miniDevVerdicts],
      ["DAMO-ConvAI evaluation.py", damoVerdicts],
    ] as const
  ) {
    const d = differ(verdicts, ours);
    console.log(
      `${name}: ${right(verdicts)}/${verdicts.length}; --score bird-ex ${
        right(ours)
      }/${ours.length}; verdicts differ on ${d.length}${d.length > 0 ? `: ${d.join(", ")}` : ""}`,
    );
  }
  // Their last line of figures: simple, moderate, challenging, total.
  const total = (s: string) => /^(?:accuracy|EX) +[\d.]+ +[\d.]+ +[\d.]+ +([\d.]+)/m.exec(s)?.[1];
  console.log(
    `their own totals: evaluation_ex.py ${total(miniDevTotal)}, evaluation.py ${
      total(damoTotal)
    }; ours ${(100 * right(ours) / ours.length).toFixed(2)}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
