/**
 * The hostile-SQL matrix: every statement of table.ts through every path
 * that runs SQL we did not write (Spider predictions with --score, BIRD
 * predictions over --db-dir, an agent's SQL-only answers and reference SQL
 * with --counterexamples, `validate --db`, `counterexample`), on every
 * engine the table names, each run followed by the canaries. Each run
 * must: give every hostile case its verdict and message, keep every
 * canary's verdict, end within `--timeout` + 10 s, peak under 1 GB for
 * the whole process tree, and leave no file outside its outputs (its
 * temporary folder is a fresh TMPDIR, empty again at the end). SIGTERM in
 * the middle of a run ends it within 5 s, exit 143, with a run file that
 * `--resume` finishes. Run against cli.ts, or the binary with
 * DBAGENTEVAL_BIN (tests/cli.ts).
 *
 * @module
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { makeDb, snapshotDir, tempDir } from "../fixtures.ts";
import { needs } from "../system_packages.ts";
import { CANARIES, CANARY_ROWS, type Engine, FIXTURE_SQL, HOSTILE } from "./table.ts";
import {
  type Finished,
  OVERLOAD,
  readRun,
  type RunCase,
  runWatched as watched,
  said,
  yamlCases,
} from "./_watch.ts";

// 1 s is enough on a quiet machine; 3 s keeps the canaries steady on a
// loaded one (a statement's time is wall time, and a starved thread's too).
// On an overloaded one (load 10-20 on 2 cores) a statement that must reach
// the result's size limit (32 MB of rows built), or wait for a worker
// thread to start beside three runaways, needs more: there it is 12 s.
const TIMEOUT_S = OVERLOAD > 1 ? 12 : 3;
/** The acceptance's bound on a whole run: --timeout + 10 s (tripled on an overloaded machine). */
const RUN_LIMIT_MS = (TIMEOUT_S + 10) * 1000 * OVERLOAD;
const PEAK_LIMIT = 1024 * 2 ** 20;

const dir = tempDir("dbagenteval-hostile-");
after(() => dir.cleanup());

/** A run of the CLI, killed at twice the acceptance's bound (a hang is the failure). */
const runWatched = (
  args: readonly string[],
  cwd: string,
  tmp: string,
  options: { readonly signalAfter?: { readonly file: string; readonly ms: number } } = {},
): Promise<Finished> => watched(args, cwd, tmp, { ...options, killAfterMs: RUN_LIMIT_MS * 2 });

/** The statements and canaries one engine runs. */
function forEngine(engine: Engine) {
  return {
    hostile: HOSTILE.flatMap((h) =>
      h.sql[engine] === undefined ? [] : [{ ...h, text: h.sql[engine]! }]
    ),
    canaries: CANARIES.flatMap((c) =>
      c.reference[engine] === undefined ? [] : [{
        ...c,
        referenceText: c.reference[engine]!,
        agentText: (c.agent ?? c.reference)[engine]!,
      }]
    ),
  };
}

/** What the search says when no database it built ran both queries. */
const NOTHING_COMPARED = /no database the search built could run both queries/;

/** A harmless reference query the hostile agent cases are checked against. */
const HARMLESS = "SELECT count(*) AS n FROM t";

/** A fresh folder for one run: inputs, the fixture, an empty TMPDIR and an out folder. */
function workspace(name: string) {
  const root = path.join(dir.path, name);
  fs.mkdirSync(path.join(root, "in", "db", "fixture"), { recursive: true });
  fs.mkdirSync(path.join(root, "tmp"));
  fs.mkdirSync(path.join(root, "out"));
  makeDb(path.join(root, "in", "db", "fixture", "fixture.sqlite"), FIXTURE_SQL);
  const input = (file: string, text: string) => fs.writeFileSync(path.join(root, "in", file), text);
  return {
    root,
    in: path.join(root, "in"),
    tmp: path.join(root, "tmp"),
    out: path.join(root, "out"),
    db: path.join("db", "fixture", "fixture.sqlite"),
    input,
  };
}

/** What every run must hold: time, memory, no stray files, inputs untouched. */
function assertContained(
  r: Finished,
  w: ReturnType<typeof workspace>,
  before: ReturnType<typeof snapshotDir>,
): void {
  assert.ok(r.ms < RUN_LIMIT_MS, `the run took ${Math.round(r.ms)} ms\n${r.stderr}`);
  assert.ok(r.peakBytes < PEAK_LIMIT, `the process tree peaked at ${r.peakBytes} bytes`);
  assert.deepEqual(fs.readdirSync(w.tmp), [], "the run left files in its TMPDIR");
  assert.deepEqual(snapshotDir(w.in), before, "the run changed its inputs");
  assert.doesNotMatch(r.stderr, /\n\s+at |RuntimeError|internal error/, "no stack trace");
}

function assertCanaries(cases: Map<string, RunCase>, ids: (id: string) => string): void {
  for (const c of CANARIES) {
    const got = cases.get(ids(c.id));
    assert.equal(got?.verdict, c.verdict, `canary ${c.id}: ${got === undefined ? "" : said(got)}`);
  }
}

for (const engine of ["sqlite"] as const) {
  const { hostile, canaries } = forEngine(engine);
  const agentVerdict = (_h: (typeof hostile)[number]) => "FAIL";

  describe(`hostile SQL on ${engine}`, { concurrency: 1 }, () => {
    it("predictions (Spider lines, --score spider,bird): each hostile one FAILs, canaries hold", async () => {
      const w = workspace("spider");
      const cases = [
        ...hostile.map((h) => ({ id: h.id, question: `${h.id}?`, sql: HARMLESS })),
        ...canaries.map((c) => ({ id: c.id, question: c.question, sql: c.referenceText })),
      ];
      w.input("cases.yaml", yamlCases(cases));
      w.input(
        "pred.sql",
        [...hostile.map((h) => h.text), ...canaries.map((c) => c.agentText)].join("\n") + "\n",
      );
      const before = snapshotDir(w.in);
      const run = path.join(w.out, "run.json");
      const r = await runWatched(
        [
          "run",
          "cases.yaml",
          "--predictions",
          "pred.sql",
          "--db",
          w.db,
          "--timeout",
          `${TIMEOUT_S}`,
          "--score",
          "spider,bird",
          "--json",
          run,
        ],
        w.in,
        w.tmp,
      );
      assert.equal(r.code, 1, r.stderr);
      const got = readRun(run);
      for (const h of hostile) {
        const c = got.get(h.id)!;
        assert.equal(c.verdict, agentVerdict(h), `${h.id}: ${said(c)}`);
        if (h.says !== null) assert.match(said(c), h.says, h.id);
        if (h.shows !== undefined) assert.match(r.stdout, h.shows, h.id);
      }
      assertCanaries(got, (id) => id);
      // The official evaluators score a query past their time limit 0: so do the scores.
      const share = `${(100 * 3 / (hostile.length + canaries.length)).toFixed(1)}%`;
      for (const score of ["spider", "bird-ex"]) {
        assert.match(
          r.stdout,
          new RegExp(
            `^${score}: ${share} over ${
              hostile.length + canaries.length
            } questions .*; 0 disagree$`,
            "m",
          ),
        );
      }
      assert.match(r.stdout, /had a query that timed out/, "the scores say how many timed out");
      assertContained(r, w, before);
    });

    it("BIRD predictions over --db-dir: each hostile one FAILs, canaries hold", async () => {
      const w = workspace("bird");
      const all = [
        ...hostile.map((h) => ({ q: `${h.id}?`, gold: HARMLESS, pred: h.text })),
        ...canaries.map((c) => ({ q: c.question, gold: c.referenceText, pred: c.agentText })),
      ];
      w.input(
        "dev.json",
        JSON.stringify(all.map((a, i) => ({
          question_id: i,
          db_id: "fixture",
          question: a.q,
          evidence: "",
          SQL: a.gold,
          difficulty: "simple",
        }))),
      );
      w.input(
        "predict_dev.json",
        JSON.stringify(
          Object.fromEntries(all.map((a, i) => [`${i}`, `${a.pred}\t----- bird -----\tfixture`])),
        ),
      );
      const before = snapshotDir(w.in);
      const run = path.join(w.out, "run.json");
      const r = await runWatched(
        [
          "run",
          "dev.json",
          "--predictions",
          "predict_dev.json",
          "--db-dir",
          "db",
          "--timeout",
          `${TIMEOUT_S}`,
          "--json",
          run,
        ],
        w.in,
        w.tmp,
      );
      assert.equal(r.code, 1, r.stderr);
      const got = readRun(run);
      hostile.forEach((h, i) => {
        const c = got.get(`${i}`)!;
        assert.equal(c.verdict, agentVerdict(h), `${h.id}: ${said(c)}`);
        if (h.says !== null) assert.match(said(c), h.says, h.id);
      });
      const at = new Map(canaries.map((c, i) => [c.id, `${hostile.length + i}`]));
      assertCanaries(got, (id) => at.get(id)!);
      assertContained(r, w, before);
    });

    for (const role of ["agent", "reference"] as const) {
      it(
        role === "agent"
          ? "an agent's SQL-only answers (--agent-cmd, --counterexamples): each hostile one FAILs, canaries hold"
          : "reference SQL: each hostile one is the case's ERROR (FAIL when it gives rows), canaries hold",
        { skip: needs("python3") },
        async () => {
          const w = workspace(role);
          // The hostile statement is the agent's answer, or the case's reference.
          const cases = [
            ...hostile.map((h) => ({
              id: h.id,
              question: `${h.id}?`,
              sql: role === "agent" ? HARMLESS : h.text,
            })),
            ...canaries.map((c) => ({ id: c.id, question: c.question, sql: c.referenceText })),
          ];
          const answers: Record<string, string> = {
            ...Object.fromEntries(
              hostile.map((h) => [`${h.id}?`, role === "agent" ? h.text : HARMLESS]),
            ),
            ...Object.fromEntries(canaries.map((c) => [c.question, c.agentText])),
          };
          w.input("cases.yaml", yamlCases(cases));
          // An agent over --agent-cmd that answers with SQL only: the harness runs it.
          w.input(
            "agent.py",
            `import json, sys\nSQL = json.loads(${JSON.stringify(JSON.stringify(answers))})\n` +
              `for line in sys.stdin:\n    r = json.loads(line)\n` +
              `    print(json.dumps({"id": r["id"], "sql": SQL[r["question"]]}), flush=True)\n`,
          );
          const before = snapshotDir(w.in);
          const run = path.join(w.out, "run.json");
          const r = await runWatched(
            [
              "run",
              "cases.yaml",
              "--agent-cmd",
              "python3 agent.py",
              "--db",
              w.db,
              "--timeout",
              `${TIMEOUT_S}`,
              ...(role === "agent" ? ["--counterexamples"] : []),
              "--json",
              run,
            ],
            w.in,
            w.tmp,
          );
          assert.equal(r.code, 1, r.stderr);
          const got = readRun(run);
          for (const h of hostile) {
            const c = got.get(h.id)!;
            const verdict = role === "agent" || h.says === null ? "FAIL" : "ERROR";
            assert.equal(c.verdict, verdict, `${h.id}: ${said(c)}`);
            if (h.says !== null) {
              assert.match(said(c), h.says, `${h.id}: ${said(c)}`);
              // The agent answered: a runaway reference is the reference's, not the agent's.
              assert.doesNotMatch(said(c), /the agent did not finish/, h.id);
            }
          }
          assertCanaries(got, (id) => id);
          assertContained(r, w, before);
        },
      );
    }

    it("validate --db: names every hostile reference query, exit 2, within the limit", async () => {
      const w = workspace("validate");
      const cases = [
        ...hostile.map((h) => ({ id: h.id, question: `${h.id}?`, sql: h.text })),
        ...canaries.map((c) => ({ id: c.id, question: c.question, sql: c.referenceText })),
      ];
      w.input("cases.yaml", yamlCases(cases));
      const before = snapshotDir(w.in);
      const r = await runWatched(
        ["validate", "cases.yaml", "--db", w.db, "--timeout", `${TIMEOUT_S}`],
        w.in,
        w.tmp,
      );
      assert.equal(r.code, 2, r.stderr);
      for (const h of hostile) {
        if (h.says === null) continue;
        const line = r.stderr.split("\n").find((l) => l.includes(`case ${h.id}:`));
        assert.ok(line !== undefined, `validate names ${h.id}:\n${r.stderr}`);
        assert.match(line, h.says, h.id);
      }
      for (const c of canaries) assert.doesNotMatch(r.stderr, new RegExp(`case ${c.id}:`));
      assertContained(r, w, before);
    });

    for (const h of hostile) {
      it(`counterexample --candidate ${h.id}: ends with one clear answer`, async () => {
        const w = workspace(`cx_${h.id}`);
        const before = snapshotDir(w.in);
        const r = await runWatched(
          [
            "counterexample",
            "--db",
            w.db,
            "--reference",
            HARMLESS,
            "--candidate",
            h.text,
            "--time-limit",
            `${TIMEOUT_S}`,
          ],
          w.in,
          w.tmp,
        );
        // Found (1), or the candidate cannot be searched (2): never "agree" (0).
        assert.ok(r.code === 1 || r.code === 2, `exit ${r.code}: ${r.stdout}${r.stderr}`);
        assert.doesNotMatch(r.stdout, /evidence, not proof, that the queries agree/);
        if (r.code === 2) {
          assert.match(r.stderr, /^error: [^\n]+\n$/, h.id);
          if (h.says !== null) {
            assert.match(
              r.stderr,
              new RegExp(`${h.says.source}|${NOTHING_COMPARED.source}`),
              `${h.id}: ${r.stderr}`,
            );
          }
        }
        assertContained(r, w, before);
      });
    }

    it("counterexample canaries: a near miss is caught, an equivalent rewrite is not", async () => {
      const w = workspace("cx_canaries");
      const before = snapshotDir(w.in);
      const caught = await runWatched(
        [
          "counterexample",
          "--db",
          w.db,
          "--reference",
          "SELECT count(*) AS n FROM city WHERE id > 20",
          "--candidate",
          "SELECT count(*) AS n FROM city WHERE id >= 20",
        ],
        w.in,
        w.tmp,
      );
      assert.equal(caught.code, 1, caught.stdout + caught.stderr);
      const same = await runWatched(
        [
          "counterexample",
          "--db",
          w.db,
          "--reference",
          "SELECT count(*) AS n FROM city WHERE id > 20",
          "--candidate",
          "SELECT count(*) AS n FROM city WHERE id >= 21",
          "--time-limit",
          "2",
        ],
        w.in,
        w.tmp,
      );
      assert.equal(same.code, 0, same.stdout + same.stderr);
      assertContained(same, w, before);
    });

    it("SIGTERM in the middle of a run ends it within 5 s (exit 143) and --resume finishes it", async () => {
      const w = workspace("sigterm");
      const cases = [
        ...hostile.map((h) => ({ id: h.id, question: `${h.id}?`, sql: HARMLESS })),
        ...canaries.map((c) => ({ id: c.id, question: c.question, sql: c.referenceText })),
      ];
      w.input("cases.yaml", yamlCases(cases));
      w.input(
        "pred.sql",
        [...hostile.map((h) => h.text), ...canaries.map((c) => c.agentText)].join("\n") + "\n",
      );
      const run = path.join(w.out, "run.json");
      const args = ["run", "cases.yaml", "--predictions", "pred.sql", "--db", w.db];
      // Runaways with a long --timeout: the run is surely in the middle of them.
      const stopped = await runWatched(
        [...args, "--timeout", "30", "--concurrency", "2", "--json", run],
        w.in,
        w.tmp,
        { signalAfter: { file: run, ms: 1000 } },
      );
      assert.equal(stopped.code, 143, stopped.stderr);
      assert.ok(
        stopped.signalledMsAgo! < 5000,
        `SIGTERM took ${Math.round(stopped.signalledMsAgo!)} ms`,
      );
      assert.match(
        stopped.stderr,
        /interrupted by SIGTERM after \d+ of \d+ case\(s\).*\n {2}dbagenteval run .*--resume /,
      );
      assert.deepEqual(fs.readdirSync(w.tmp), []);
      const resumed = await runWatched(
        [...args, "--timeout", `${TIMEOUT_S}`, "--resume", run],
        w.in,
        w.tmp,
      );
      assert.equal(resumed.code, 1, resumed.stderr);
      const got = readRun(run);
      assert.equal(got.size, cases.length);
      assertCanaries(got, (id) => id);
    });
  });
}

// The canaries' answers are the fixture's: a test that cannot fail would prove nothing.
describe("the hostile-SQL fixture", () => {
  it("gives the canaries' known rows", async () => {
    const { sqliteExecutor } = await import("../../lib/sqlite/executor.ts");
    const w = workspace("fixture");
    const execute = sqliteExecutor(path.join(w.in, w.db));
    for (const c of CANARIES) {
      assert.deepEqual(await execute(c.reference.sqlite!), CANARY_ROWS[c.id], c.id);
    }
    execute.close();
  });
});
