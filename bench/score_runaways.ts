/**
 * `--score bird-ex` and `--score spider` on predictions with runaway
 * queries added, against the official evaluators run on the same files.
 *
 * The benchmark is BIRD-shaped, made from what this repository holds (the
 * first `--questions N` Spider dev questions, default 100, on their
 * databases, as bench/bird_unanswered.ts builds it); the predictions are a
 * real model's (tests/data/spider_scores/pred_model.txt) with every 25th
 * replaced by a query that never ends (a recursive count without a stop).
 *
 * - BIRD: Mini-Dev's `evaluation/evaluation_ex.py` (bird-bench/mini_dev,
 *   `--mini-dev DIR`), its own `package_sqls` and `execute_model` per
 *   question, with `--timeout` as its `meta_time_out`. Its `func_timeout`
 *   package (not in Debian) is replaced by the same behaviour in a few
 *   lines: the call runs in a daemon thread, and the caller gets
 *   `FunctionTimedOut` when it has not returned in time (the thread, which
 *   no Python code can stop inside sqlite3, is left behind, as
 *   func_timeout leaves it).
 * - Spider: test-suite-sql-eval's `evaluation.py --etype exec`
 *   (`--spider DIR`), whose per-query limit (`asyncio.wait_for` around a
 *   blocking `cursor.execute`) cannot stop a query: it is run with a kill
 *   after `--kill-after` seconds, to show it does not end; ours ends.
 *
 * Ours: `run dev.json --predictions ... --db-dir ... --timeout T --score`,
 * the per-question verdict read from the run file (ours, flipped where the
 * score disagrees).
 *
 *   deno run -A bench/score_runaways.ts --mini-dev DIR [--spider DIR] [--questions N] [--timeout S]
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
import { cliCommand } from "../tests/cli.ts";

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const miniDev = arg("--mini-dev");
if (miniDev === undefined) {
  console.error(
    "pass --mini-dev DIR (bird-bench/mini_dev), and --spider DIR (test-suite-sql-eval) for Spider",
  );
  process.exit(2);
}
const spider = arg("--spider");
const N = Number(arg("--questions") ?? 100);
const TIMEOUT = Number(arg("--timeout") ?? 3);
const KILL_AFTER = Number(arg("--kill-after") ?? 120);
const RUNAWAY =
  "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
const [cmd, ...pre] = cliCommand();
const data = new URL("../tests/data/", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "score-runaways-"));

function copyOut(repo: string, file: string, to: string): void {
  const text = existsSync(join(repo, file))
    ? readFileSync(join(repo, file), "utf8")
    : execFileSync("git", ["--git-dir", repo, "show", `HEAD:${file}`], { encoding: "utf8" });
  writeFileSync(to, text);
}

const FUNC_TIMEOUT = `
import threading

class FunctionTimedOut(Exception):
    pass

def func_timeout(timeout, func, args=(), kwargs=None):
    out = {}
    def call():
        try:
            out["value"] = func(*args, **(kwargs or {}))
        except BaseException as e:
            out["error"] = e
    t = threading.Thread(target=call, daemon=True)
    t.start()
    t.join(timeout)
    if t.is_alive():
        raise FunctionTimedOut()
    if "error" in out:
        raise out["error"]
    return out["value"]
`;

const DRIVER = `
import sys
import evaluation_ex as ex
pred, gold, db_root, timeout = sys.argv[1:5]
p, _ = ex.package_sqls(pred, db_root, mode="pred")
g, dbs = ex.package_sqls(gold, db_root, mode="gt")
print("".join(str(ex.execute_model(a, b, dbs[i], i, float(timeout), "SQLite")["res"]) for i, (a, b) in enumerate(zip(p, g))), flush=True)
`;

try {
  const dbRoot = join(work, "dev_databases");
  cpSync(join(data, "spider/database"), dbRoot, { recursive: true });
  const gold = readFileSync(join(data, "spider/dev_gold.sql"), "utf8").split("\n")
    .filter((l) => l.trim() !== "").map((l) => l.trim().split("\t") as [string, string])
    .slice(0, N);
  const model = readFileSync(join(data, "spider_scores/pred_model.txt"), "utf8").split("\n")
    .filter((l) => l.trim() !== "");
  const runaway = new Set([...gold.keys()].filter((i) => i % 25 === 3));
  const predicted = gold.map((_, i) => runaway.has(i) ? RUNAWAY : model[i]!.split("\t")[0]!);
  const dev = gold.map(([sql, db], i) => ({
    question_id: i,
    db_id: db,
    question: `Spider dev question ${i}`,
    evidence: "",
    SQL: sql,
    difficulty: "simple",
  }));
  writeFileSync(join(work, "dev.json"), JSON.stringify(dev));
  writeFileSync(join(work, "dev_gold.sql"), gold.map(([s, d]) => `${s}\t${d}`).join("\n") + "\n");
  const predFile = join(work, "predict_dev.json");
  writeFileSync(
    predFile,
    JSON.stringify(
      Object.fromEntries(
        gold.map(([, db], i) => [String(i), `${predicted[i]}\t----- bird -----\t${db}`]),
      ),
    ),
  );
  writeFileSync(join(work, "pred.sql"), predicted.join("\n") + "\n");

  // BIRD's evaluator, per question.
  const md = join(work, "mini_dev");
  mkdirSync(md);
  for (const f of ["evaluation_ex.py", "evaluation_utils.py"]) {
    copyOut(miniDev, `evaluation/${f}`, join(md, f));
  }
  writeFileSync(join(md, "func_timeout.py"), FUNC_TIMEOUT);
  writeFileSync(join(md, "_verdicts.py"), DRIVER);
  for (const m of ["psycopg2", "pymysql"]) writeFileSync(join(md, `${m}.py`), "");
  let t = performance.now();
  const b = spawnSync("python3", [
    "_verdicts.py",
    predFile,
    join(work, "dev_gold.sql"),
    `${dbRoot}/`,
    `${TIMEOUT}`,
  ], {
    cwd: md,
    encoding: "utf8",
    timeout: KILL_AFTER * 1000,
    killSignal: "SIGKILL",
  });
  const birdSeconds = (performance.now() - t) / 1000;
  if (b.status !== 0) throw new Error(`evaluation_ex.py: ${b.stderr.slice(-1000)}`);
  const official = b.stdout.trim().split("\n").pop()!;

  // Ours.
  const ours = (score: string): { verdicts: string; seconds: number; lines: string } => {
    const out = join(work, `run-${score}.json`);
    const started = performance.now();
    const r = spawnSync(cmd!, [
      ...pre,
      "run",
      join(work, "dev.json"),
      "--predictions",
      predFile,
      "--db-dir",
      dbRoot,
      "--timeout",
      `${TIMEOUT}`,
      "--score",
      score,
      "--json",
      out,
    ], { encoding: "utf8", maxBuffer: 1 << 26, timeout: KILL_AFTER * 1000, killSignal: "SIGKILL" });
    const seconds = (performance.now() - started) / 1000;
    if (r.status !== 0 && r.status !== 1) throw new Error(`ours: ${r.stderr}`);
    const run = JSON.parse(readFileSync(out, "utf8")) as {
      cases: { verdict: string }[];
      scores: { disagreements: { id: string; official: boolean }[] }[];
    };
    const flipped = new Map(run.scores[0]!.disagreements.map((d) => [d.id, d.official]));
    return {
      verdicts: run.cases.map((c, i) =>
        (flipped.get(String(i)) ?? c.verdict === "PASS") ? "1" : "0"
      ).join(""),
      seconds,
      lines: r.stdout.split("\n").filter((l) => /^(bird-ex|spider|--score)/.test(l)).join("\n  "),
    };
  };
  const bird = ours("bird-ex");
  const differ = [...official].flatMap((v, i) => v === bird.verdicts[i] ? [] : [i]);
  console.log(
    `questions: ${gold.length}, runaway predictions: ${runaway.size}, --timeout ${TIMEOUT} s`,
  );
  console.log(
    `BIRD evaluation_ex.py (meta_time_out ${TIMEOUT}): ${
      [...official].filter((v) => v === "1").length
    }/${official.length} in ${birdSeconds.toFixed(1)} s; ` +
      `runaways scored ${[...runaway].map((i) => official[i]).join("")}`,
  );
  console.log(
    `--score bird-ex: ${
      [...bird.verdicts].filter((v) => v === "1").length
    }/${bird.verdicts.length} in ${bird.seconds.toFixed(1)} s (the whole run); ` +
      `verdicts differ on ${differ.length}${
        differ.length > 0 ? `: ${differ.join(", ")}` : ""
      }\n  ${bird.lines}`,
  );

  if (spider !== undefined) {
    const s = ours("spider");
    console.log(
      `--score spider: ${[...s.verdicts].filter((v) => v === "1").length}/${s.verdicts.length} in ${
        s.seconds.toFixed(1)
      } s; runaways ${[...runaway].map((i) => s.verdicts[i]).join("")}\n  ${s.lines}`,
    );
    const sp = join(work, "spider");
    mkdirSync(sp);
    for (const f of ["evaluation.py", "exec_eval.py", "process_sql.py", "parse.py"]) {
      try {
        copyOut(spider, f, join(sp, f));
      } catch {
        // not every checkout has every helper
      }
    }
    t = performance.now();
    const o = spawnSync("python3", [
      "evaluation.py",
      "--gold",
      join(work, "dev_gold.sql"),
      "--pred",
      join(work, "pred.sql"),
      "--db",
      dbRoot,
      "--etype",
      "exec",
      "--plug_value",
    ], {
      cwd: sp,
      encoding: "utf8",
      timeout: KILL_AFTER * 1000,
      killSignal: "SIGKILL",
      maxBuffer: 1 << 26,
    });
    console.log(
      `test-suite-sql-eval evaluation.py --etype exec: ${
        o.signal === "SIGKILL"
          ? `did not finish, killed after ${KILL_AFTER} s`
          : `ended in ${((performance.now() - t) / 1000).toFixed(1)} s (exit ${o.status})`
      }`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
