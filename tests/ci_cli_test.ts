/**
 * End to end: what a CI job runs. JUnit and GitHub output, choosing cases,
 * shards and merge, repeats, the judge cache, diff --json and
 * --max-regressions, with agent modules that import nothing, so the same
 * tests check the compiled binary (DBAGENTEVAL_BIN).
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";
import { findAll, parseXml } from "./xml.ts";

const dir = tempDir("dbagenteval-ci-cli-");
after(() => dir.cleanup());

fs.writeFileSync(
  dir.file("agents.js"),
  `
// Right unless the number is a multiple of 4; raises for 7.
export function agent(question) {
  const n = Number(/\\d+/.exec(question)[0]);
  if (n === 7) throw new Error("the model is down");
  const got = n % 4 === 0 ? -1 : n;
  return { sql: "SELECT " + got + " AS n", rows: [{ n: got }], answer: "It is " + got + "\\u0001." };
}
export function right(question) {
  const n = Number(/\\d+/.exec(question)[0]);
  return { sql: "SELECT " + n + " AS n", rows: [{ n }], answer: "It is " + n + "." };
}
// mulberry32, one seeded stream per question: right with probability n / 10.
const streams = new Map();
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export function random(question) {
  const n = Number(/\\d+/.exec(question)[0]);
  if (!streams.has(n)) streams.set(n, seeded(1000 + n));
  const ok = streams.get(n)() < n / 10;
  return { rows: [{ n: ok ? n : -1 }], answer: "It is " + n + "." };
}
let judged = 0;
export function judge(prompt) { return "PASS\\nfine " + (++judged); }
`,
);

const N = 12;
let yaml = "# cases for the CI tests\n";
const lines: Record<string, number> = {};
for (let i = 1; i <= N; i++) {
  lines[`q${i}`] = yaml.split("\n").length;
  yaml += `- id: q${i}\n  question: What is ${i}?\n  tags: [${
    i % 2 ? "odd" : "even"
  }]\n  expect:\n    rows: [{n: ${i}}]\n`;
}
fs.writeFileSync(dir.file("cases.yaml"), yaml);
fs.writeFileSync(
  dir.file("judged.yaml"),
  "- id: j1\n  question: What is 1?\n- id: j2\n  question: What is 2?\n",
);

const run = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { cwd: dir.path, env });
const readJson = (file: string) => JSON.parse(fs.readFileSync(dir.file(file), "utf8"));
const failing = ["q4", "q7", "q8", "q12"];

describe("run --junit and GitHub output", () => {
  it("run --junit writes JUnit XML whose counts equal the run's totals", () => {
    const r = run([
      "run",
      "cases.yaml",
      "--agent",
      "agents.js:agent",
      "--json",
      "all.json",
      "--junit",
      "junit.xml",
    ]);
    assert.equal(r.code, 1, r.stderr);
    const totals = readJson("all.json").totals;
    assert.deepEqual(totals, { total: 12, passed: 8, failed: 3, errors: 1, skipped: 0 });
    const root = parseXml(fs.readFileSync(dir.file("junit.xml"), "utf8"));
    const suite = findAll(root, "testsuite")[0]!;
    assert.equal(suite.attributes["name"], "cases.yaml");
    assert.equal(Number(suite.attributes["tests"]), totals.total);
    assert.equal(Number(suite.attributes["failures"]), totals.failed);
    assert.equal(Number(suite.attributes["errors"]), totals.errors);
    assert.equal(findAll(root, "testcase").length, totals.total);
    assert.equal(findAll(root, "failure").length, totals.failed);
    const q4 = findAll(root, "testcase").find((t) => t.attributes["name"] === "q4")!;
    assert.equal(q4.attributes["line"], String(lines["q4"]));
  });

  it("GITHUB_ACTIONS=true annotates each failing case at its line and appends the job summary", () => {
    const summary = dir.file("summary.md");
    fs.writeFileSync(summary, "earlier step\n");
    const r = run(["run", "cases.yaml", "--agent", "agents.js:agent"], {
      GITHUB_ACTIONS: "true",
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_WORKSPACE: dir.path,
    });
    assert.equal(r.code, 1, r.stderr);
    const annotations = r.stdout.split("\n").filter((l) => l.startsWith("::"));
    assert.deepEqual(
      annotations.map((l) =>
        /^::error file=cases\.yaml,line=(\d+),title=(FAIL|ERROR) (q\d+)::/.exec(l)?.slice(1)
      ),
      failing.map((id) => [String(lines[id]), id === "q7" ? "ERROR" : "FAIL", id]),
    );
    const text = fs.readFileSync(summary, "utf8");
    assert.match(text, /^earlier step\n# dbagenteval report\n/);
    assert.match(text, /\| FAIL \| q4 \| execute \|/);
  });

  it("run without GITHUB_ACTIONS or --github prints no annotation", () => {
    const r = run(["run", "cases.yaml", "--agent", "agents.js:agent"]);
    assert.doesNotMatch(r.stdout, /^::/m);
  });

  it("run --verbose prints each case's time, every check and the slowest cases", () => {
    const r = run([
      "run",
      "cases.yaml",
      "--agent",
      "agents.js:agent",
      "--verbose",
      "--case",
      "q1",
      "--case",
      "q4",
    ]);
    assert.match(r.stdout, /^PASS {2}q1 {2}\(\d+\.\d s\)\n {6}PASS {2}generate \/ no_error\n/);
    assert.match(r.stdout, /\nFAIL {2}q4 {2}\(\d+\.\d s\)\n/);
    assert.match(r.stdout, /\n1 of 2 passed \(50%\), 1 failed, 0 errors\n/);
    assert.match(r.stdout, /\nSlowest 2 cases:\n +\d+\.\d s {2}q[14]\n/);
  });
});

describe("choosing cases", () => {
  const table: [string, string[], number, string[]][] = [
    ["--case takes globs and repeats", ["--case", "q1*", "--case", "q3"], 1, [
      "q1",
      "q3",
      "q10",
      "q11",
      "q12",
    ]],
    ["--case and --tags both hold", ["--case", "q1*", "--tags", "even"], 1, ["q10", "q12"]],
    ["--rerun-failed runs the cases that did not pass", ["--rerun-failed", "all.json"], 1, failing],
    ["--fail-fast stops after the first failure", ["--fail-fast", "--concurrency", "1"], 1, [
      "q1",
      "q2",
      "q3",
      "q4",
    ]],
  ];
  for (const [name, args, code, ids] of table) {
    it(`run ${name}`, () => {
      const r = run([
        "run",
        "cases.yaml",
        "--agent",
        "agents.js:agent",
        "--json",
        "chosen.json",
        ...args,
      ]);
      assert.equal(r.code, code, r.stderr);
      assert.deepEqual(readJson("chosen.json").cases.map((c: { id: string }) => c.id), ids);
    });
  }

  it("run --case that matches no case exits 2 with one line", () => {
    const r = run(["run", "cases.yaml", "--agent", "agents.js:agent", "--case", "nope"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^error: --case nope: no case has this id; ids look like q1, q2/);
    assert.equal(r.stderr.trim().split("\n").length, 1);
  });

  it("the two selections that may rightly be empty run no case and exit 0 (docs/ci.md)", () => {
    const base = ["run", "cases.yaml", "--agent", "agents.js:agent"];
    assert.equal(run([...base, "--case", "q1", "--json", "green.json"]).code, 0);
    const rerun = run([...base, "--rerun-failed", "green.json"]);
    assert.deepEqual([rerun.code, rerun.stderr], [
      0,
      "green.json: no case failed there; nothing to rerun\n",
    ]);
    const shard = run([...base, "--shard", "13/13"]);
    assert.equal(shard.code, 0, shard.stderr);
    assert.match(shard.stdout, /^shard 13\/13: 0 of the 12 cases;/m);
  });
});

describe("shards and merge", () => {
  it("three shards merged give the same verdicts as one unsharded run, and merge writes JUnit", () => {
    for (const i of [1, 2, 3]) {
      const r = run([
        "run",
        "cases.yaml",
        "--agent",
        "agents.js:agent",
        "--shard",
        `${i}/3`,
        "--json",
        `s${i}.json`,
      ]);
      assert.ok(r.code === 0 || r.code === 1, r.stderr);
      assert.match(
        r.stdout,
        new RegExp(
          `\nshard ${i}/3: 4 of the 12 cases; dbagenteval merge joins the shards' run files\n$`,
        ),
      );
    }
    const sizes = [1, 2, 3].map((i) => readJson(`s${i}.json`).cases.length);
    assert.deepEqual(sizes, [4, 4, 4]);
    const m = run([
      "merge",
      "s3.json",
      "s1.json",
      "s2.json",
      "--json",
      "merged.json",
      "--junit",
      "merged.xml",
    ]);
    assert.equal(m.code, 1, m.stderr);
    // The cases that did not pass, with why, as the unsharded run prints them.
    const unsharded = run(["run", "cases.yaml", "--agent", "agents.js:agent"]).stdout;
    const notPassed = unsharded.replace(/^PASS {2}\S+\n/gm, "");
    assert.match(notPassed, /^FAIL {2}q\d+\n {6}\S/);
    assert.equal(m.stdout, notPassed);
    assert.match(m.stdout, /\n8 of 12 passed \(67%\), 3 failed, 1 error\n/);
    const merged = readJson("merged.json");
    const whole = readJson("all.json");
    const verdicts = (r: { cases: { id: string; verdict: string }[] }) =>
      r.cases.map((c) => [c.id, c.verdict]);
    assert.deepEqual(verdicts(merged), verdicts(whole));
    assert.deepEqual(merged.totals, whole.totals);
    const xml = parseXml(fs.readFileSync(dir.file("merged.xml"), "utf8"));
    assert.equal(findAll(xml, "testcase").length, 12);
    const d = run(["diff", "all.json", "merged.json"]);
    assert.equal(d.code, 0, d.stdout);
    assert.match(d.stdout, /\*\*0 regressions, 0 fixes, 0 added, 0 removed\*\*/);
  });

  it("shards balanced by a previous run's durations still cover every case once", () => {
    const ids = [1, 2].flatMap((i) => {
      const r = run([
        "run",
        "cases.yaml",
        "--agent",
        "agents.js:agent",
        "--shard",
        `${i}/2`,
        "--shard-durations",
        "all.json",
        "--json",
        `d${i}.json`,
      ]);
      assert.ok(r.code <= 1, r.stderr);
      return readJson(`d${i}.json`).cases.map((c: { id: string }) => c.id);
    });
    assert.deepEqual(ids.sort(), Object.keys(lines).sort());
  });

  const refusals: [string, string[], RegExp][] = [
    [
      "a shard given twice",
      ["s1.json", "s1.json", "s2.json", "s3.json"],
      /^error: merge: s1\.json and s1\.json are both shard 1\/3/,
    ],
    ["a missing shard", ["s1.json", "s2.json"], /^error: merge: shard 3\/3 missing/],
    [
      "an unsharded run",
      ["s1.json", "all.json"],
      /^error: merge: all\.json is not a shard's run file/,
    ],
  ];
  for (const [name, files, message] of refusals) {
    it(`merge refuses ${name} with exit 2 and one line`, () => {
      const r = run(["merge", ...files, "--json", "bad.json"]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split("\n").length, 1);
    });
  }

  it("report writes JUnit and Markdown from a saved run file", () => {
    const r = run(["report", "all.json", "--junit", "again.xml", "--md", "again.md"]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(
      findAll(parseXml(fs.readFileSync(dir.file("again.xml"), "utf8")), "testcase").length,
      12,
    );
    assert.match(fs.readFileSync(dir.file("again.md"), "utf8"), /^# dbagenteval report/);
  });
});

describe("diff --json and --max-regressions", () => {
  it("diff --json - prints the comparison as JSON, and --max-regressions tolerates that many", () => {
    run(["run", "cases.yaml", "--agent", "agents.js:right", "--json", "right.json"]);
    const d = run(["diff", "right.json", "all.json", "--json", "-"]);
    assert.equal(d.code, 1);
    const json = JSON.parse(d.stdout);
    assert.equal(json.counts.regressions, 4);
    assert.deepEqual(json.regressions.map((r: { id: string }) => r.id), failing);
    assert.equal(run(["diff", "right.json", "all.json", "--max-regressions", "4"]).code, 0);
    assert.equal(run(["diff", "right.json", "all.json", "--max-regressions", "3"]).code, 1);
    const saved = run(["diff", "right.json", "all.json", "--json", "d.json"]);
    assert.match(saved.stdout, /^# dbagenteval diff/);
    assert.equal(readJson("d.json").counts.regressions, 4);
  });
});

describe("run --repeat", () => {
  it("run --repeat 5 keeps every attempt and decides by --min-pass-rate", () => {
    const r = run([
      "run",
      "cases.yaml",
      "--agent",
      "agents.js:random",
      "--repeat",
      "5",
      "--min-pass-rate",
      "0.6",
      "--pass-k",
      "2",
      "--json",
      "rep.json",
      "--case",
      "q2",
      "--case",
      "q5",
      "--case",
      "q9",
    ]);
    const saved = readJson("rep.json");
    assert.equal(saved.repeat, 5);
    assert.equal(saved.min_pass_rate, 0.6);
    for (const c of saved.cases) {
      assert.equal(c.attempts.length, 5);
      const passes = c.attempts.filter((a: { verdict: string }) => a.verdict === "PASS").length;
      assert.equal(c.passes, passes);
      assert.equal(c.verdict, passes >= 3 ? "PASS" : "FAIL");
      assert.match(
        r.stdout,
        new RegExp(
          `${c.id} .*\\n +passed ${passes} of 5, pass@2 \\d\\.\\d\\d, pass\\^2 \\d\\.\\d\\d`,
        ),
      );
    }
    assert.equal(
      r.code,
      saved.cases.every((c: { verdict: string }) => c.verdict === "PASS") ? 0 : 1,
    );
  });
});

describe("run --cache", () => {
  it("run --cache answers the judge from the folder on the second run; --no-cache asks again", () => {
    const args = [
      "run",
      "judged.yaml",
      "--agent",
      "agents.js:right",
      "--judge",
      "agents.js:judge",
      "--verbose",
    ];
    const first = run([...args, "--cache", "judge-cache"]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /judge cache hits: 0\n/);
    const second = run([...args, "--cache", "judge-cache"]);
    assert.match(second.stderr, /judge cache hits: 4\n/);
    const none = run([...args, "--no-cache"]);
    assert.doesNotMatch(none.stderr, /cache hits/);
    assert.equal(fs.readdirSync(dir.file("judge-cache")).length, 4);
  });
});

describe("the config file", () => {
  it("dbagenteval.yaml takes the CI options as keys (case, shard, junit)", () => {
    fs.mkdirSync(dir.file("conf"), { recursive: true });
    fs.writeFileSync(
      dir.file("conf/dbagenteval.yaml"),
      "cases: ../cases.yaml\nagent: ../agents.js:agent\ncase: [q1, q2, q3, q4]\nshard: 1/2\njunit: out.xml\njson: out.json\n",
    );
    const r = runCli(["run"], { cwd: dir.file("conf") });
    assert.ok(r.code <= 1, r.stderr);
    const saved = JSON.parse(fs.readFileSync(dir.file("conf/out.json"), "utf8"));
    assert.equal(saved.shard.of, 4);
    assert.equal(saved.cases.length, 2);
    const xml = parseXml(fs.readFileSync(dir.file("conf/out.xml"), "utf8"));
    assert.equal(findAll(xml, "testcase").length, 2);
  });
});
