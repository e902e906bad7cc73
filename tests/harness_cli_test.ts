/**
 * End to end: `validate`, `run` and `diff` as a user runs them, with agent
 * modules that import nothing (plain objects), so the same tests check the
 * compiled binary from a folder without node_modules (DBAGENTEVAL_BIN).
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { makeDb, tempDir } from "./fixtures.ts";
import { ROOT, runCli } from "./cli.ts";

const dir = tempDir("dbagenteval-harness-cli-");
after(() => dir.cleanup());

const AGENTS = `
const ANSWERS = {
  "How many apples?": 2,
  "How many pears?": 3,
};
// Right for apples, wrong for pears (says 4).
export function agent(question) {
  const n = ANSWERS[question] === 3 ? 4 : ANSWERS[question];
  return { sql: "SELECT " + n + " AS total", rows: [{ total: n }], answer: "There are " + n + "." };
}
export function right_agent(question) {
  const n = ANSWERS[question];
  return { sql: "SELECT " + n + " AS total", rows: [{ total: n }], answer: "There are " + n + "." };
}
export const rightAgentAsync = async (question) => right_agent(question);
export function throws() { throw new Error("the model is down"); }
export function hangs() { return new Promise((resolve) => setTimeout(resolve, 60_000)); }
export function returnsNumber() { return 42; }
export function tupleRows() { return { sql: "SELECT 2", rows: [[2]] }; }
export function runSql(sql) {
  const m = /SELECT (\\d+)/i.exec(sql);
  return [{ value: Number(m ? m[1] : 0) }];
}
export function judge(prompt) { return "PASS\\nlooks right"; }
export function grumpyJudge(prompt) { return "FAIL\\nI do not like it"; }
export const NOT_A_FUNCTION = 3;
export const NOT_CHECKS = [{ name: "x" }];
export const ALWAYS_FAIL = [{
  name: "always_fail",
  run: () => ({ name: "always_fail", stage: "generate", status: "FAIL", detail: "never good" }),
}];
`;
fs.writeFileSync(dir.file("agents.js"), AGENTS);
fs.mkdirSync(dir.file("pkg"));
fs.writeFileSync(
  dir.file("pkg/shop.ts"),
  "export const myAgent = (q: string): string => `2 ${q}`;\n",
);
fs.writeFileSync(dir.file("broken.js"), "export const = ;\n");

const CASES = `- id: apples
  question: How many apples?
  tags: [fruit, easy]
  expect:
    rows: [{total: 2}]
- id: pears
  question: How many pears?
  tags: [fruit]
  expect:
    rows: [{total: 3}]
`;
fs.writeFileSync(dir.file("cases.yaml"), CASES);
fs.writeFileSync(
  dir.file("ref.yaml"),
  `- id: apples
  question: How many apples?
  reference_sql: SELECT 2
`,
);
fs.writeFileSync(dir.file("bad.yaml"), "- question: How many?\n  expects:\n    rows: []\n");
fs.writeFileSync(
  dir.file("fruit.jsonl"),
  '{"question": "How many apples?", "reference_sql": "SELECT n FROM fruit WHERE name = \'apple\'"}\n',
);
makeDb(
  dir.file("fruit.db"),
  "CREATE TABLE fruit (name TEXT, n INTEGER); INSERT INTO fruit VALUES ('apple', 2), ('pear', 3);",
);
fs.writeFileSync(dir.file("not_a_db.db"), "hello, I am text\n");

const run = (args: string[]) => runCli(args, { cwd: dir.path });

describe("dbagenteval validate", () => {
  it("validate prints the number of cases and exits 0 for a good file", () => {
    const r = run(["validate", "cases.yaml"]);
    assert.equal(r.stdout, "cases.yaml: 2 case(s) OK\n");
    assert.equal(r.code, 0, r.stderr);
  });

  it("validate names the file and line of an unknown field and exits 2", () => {
    const r = run(["validate", "bad.yaml"]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^error: bad\.yaml:2: unknown field\(s\) \[["']expects["']\]; did you mean "expect"\? allowed: counterexample, db, evidence, expect, id, ordered, precision, question, reference_sql, strict_columns, tags, tenant\n$/,
    );
  });

  it("validate exits 2 for a missing file", () => {
    const r = run(["validate", "missing.yaml"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /missing\.yaml/);
  });
});

// [name, arguments, exit code, stdout pattern, stderr pattern]
const runCases: [string, string[], number, RegExp, RegExp][] = [
  [
    "exits 0 when every case passes",
    ["run", "cases.yaml", "--agent", "agents.js:right_agent"],
    0,
    /^PASS {2}apples\nPASS {2}pears\n\n2 of 2 passed \(100%\), 0 failed, 0 errors\n/,
    /^$/,
  ],
  [
    "exits 1 when a case fails, and shows the failing check",
    ["run", "cases.yaml", "--agent", "agents.js:agent"],
    1,
    /PASS {2}apples\nFAIL {2}pears\n +execute \/ rows_match: [^\n]+\n\n1 of 2 passed \(50%\), 1 failed, 0 errors\n {2}first failing stage execute: 1/,
    /^$/,
  ],
  [
    "runs an async agent, and finds a camelCase export from its snake_case name",
    ["run", "cases.yaml", "--agent", "agents.js:right_agent_async"],
    0,
    /2 of 2 passed/,
    /^$/,
  ],
  [
    "runs only the cases with one of --tags",
    ["run", "cases.yaml", "--agent", "agents.js:agent", "--tags", "easy"],
    0,
    /^PASS {2}apples\n\n1 of 1 passed/,
    /^$/,
  ],
  [
    "runs the cases one at a time with --concurrency 1",
    ["run", "cases.yaml", "--agent", "agents.js:agent", "--concurrency", "1"],
    1,
    /1 of 2 passed/,
    /^$/,
  ],
  [
    "turns an agent that throws into an ERROR",
    ["run", "cases.yaml", "--agent", "agents.js:throws"],
    1,
    /ERROR +apples[\s\S]*the model is down[\s\S]*0 of 2 passed \(0%\), 0 failed, 2 errors/,
    /^$/,
  ],
  [
    "turns an agent that hangs past --timeout into an ERROR",
    ["run", "cases.yaml", "--agent", "agents.js:hangs", "--timeout", "0.2"],
    1,
    /ERROR +apples[\s\S]*2 errors/,
    /^$/,
  ],
  [
    "turns an agent that returns a number into an ERROR",
    ["run", "cases.yaml", "--agent", "agents.js:returnsNumber"],
    1,
    /ERROR +apples[\s\S]*2 errors/,
    /^$/,
  ],
  [
    "turns tuple rows into an ERROR that says rows must be a list of objects",
    ["run", "cases.yaml", "--agent", "agents.js:tupleRows"],
    1,
    /rows must be a list of/,
    /^$/,
  ],
  [
    "runs reference SQL with --execute",
    ["run", "ref.yaml", "--agent", "agents.js:agent", "--execute", "agents.js:run_sql"],
    0,
    /^PASS {2}apples\n/,
    /^$/,
  ],
  [
    "runs reference SQL read-only on a SQLite file with --db",
    ["run", "fruit.jsonl", "--agent", "agents.js:agent", "--db", "fruit.db"],
    0,
    /1 of 1 passed/,
    /^$/,
  ],
  [
    "applies the checks of --rules",
    ["run", "cases.yaml", "--agent", "agents.js:right_agent", "--rules", "agents.js:ALWAYS_FAIL"],
    1,
    /generate \/ always_fail: never good[\s\S]*first failing stage generate: 2/,
    /^$/,
  ],
  [
    "finds shop.ts from shop:myAgent, relative to the current folder",
    ["run", "cases.yaml", "--agent", "pkg/shop:myAgent"],
    1,
    /apples/,
    /^$/,
  ],
  [
    "loads a dotted module name as a path",
    ["run", "cases.yaml", "--agent", "pkg.shop:myAgent"],
    1,
    /apples/,
    /^$/,
  ],
  [
    "adds the judge checks with --judge",
    ["run", "cases.yaml", "--agent", "agents.js:right_agent", "--judge", "agents.js:judge"],
    0,
    /2 of 2 passed/,
    /^$/,
  ],
  [
    "fails a case the judge rejects",
    ["run", "cases.yaml", "--agent", "agents.js:right_agent", "--judge", "agents.js:grumpyJudge"],
    1,
    /I do not like it/,
    /^$/,
  ],
  ["exits 2 when --agent is missing", ["run", "cases.yaml"], 2, /^$/, /--agent/],
  [
    "exits 2 with the guide's words when the module is not there",
    ["run", "cases.yaml", "--agent", "shop:my_agent"],
    2,
    /^$/,
    /^error: cannot import 'shop': no shop\.ts, shop\.js, shop\.mts or shop\.mjs in .+; run the command from the folder that has the file, and check the spelling of the file name\n$/,
  ],
  [
    "exits 2 when the module does not load",
    ["run", "cases.yaml", "--agent", "broken.js:agent"],
    2,
    /^$/,
    /^error: cannot import 'broken\.js': .+\n$/,
  ],
  [
    "exits 2 when the export is not there, naming the exports",
    ["run", "cases.yaml", "--agent", "agents.js:nope"],
    2,
    /^$/,
    /^error: --agent agents\.js:nope: agents\.js has no export 'nope'; it exports ALWAYS_FAIL, .*agent.*\n$/,
  ],
  [
    "exits 2 when the agent is not a function",
    ["run", "cases.yaml", "--agent", "agents.js:NOT_A_FUNCTION"],
    2,
    /^$/,
    /^error: --agent agents\.js:NOT_A_FUNCTION is a number, not a function\n$/,
  ],
  [
    "exits 2 when --agent is not file:export",
    ["run", "cases.yaml", "--agent", "agents.js"],
    2,
    /^$/,
    /expected file:export, for example shop\.ts:myAgent/,
  ],
  [
    "exits 2 when --rules is not a list of checks",
    ["run", "cases.yaml", "--agent", "agents.js:agent", "--rules", "agents.js:NOT_CHECKS"],
    2,
    /^$/,
    /item 1 is not a check/,
  ],
  [
    "exits 2 with the guide's words when cases have reference_sql and no executor",
    ["run", "ref.yaml", "--agent", "agents.js:agent"],
    2,
    /^$/,
    /^error: some cases have reference_sql; pass --execute file:function, or --db FILE for a SQLite database \(or --db postgres:\/\/\.\.\. or --db pglite:FILE\.sql for PostgreSQL\)\n$/,
  ],
  [
    "exits 2 when --db is not a SQLite file",
    ["run", "fruit.jsonl", "--agent", "agents.js:agent", "--db", "not_a_db.db"],
    2,
    /^$/,
    /not a SQLite database/,
  ],
  [
    "exits 2 when both --execute and --db are given",
    [
      "run",
      "ref.yaml",
      "--agent",
      "agents.js:agent",
      "--db",
      "fruit.db",
      "--execute",
      "agents.js:run_sql",
    ],
    2,
    /^$/,
    /not both/,
  ],
  [
    "exits 2 for --judge-url without --judge-model",
    ["run", "cases.yaml", "--agent", "agents.js:agent", "--judge-url", "http://127.0.0.1:9/v1"],
    2,
    /^$/,
    /--judge-model/,
  ],
  [
    "exits 2 for an --agent-db file that does not exist",
    ["run", "cases.yaml", "--agent", "agents.js:agent", "--agent-db", "missing.db"],
    2,
    /^$/,
    /^error: Cannot open "missing\.db": no such file; check the path\n$/,
  ],
  [
    "exits 2 for a bad --timeout",
    ["run", "cases.yaml", "--agent", "agents.js:agent", "--timeout", "soon"],
    2,
    /^$/,
    /--timeout/,
  ],
  [
    "exits 2 when --tags selects no case, naming the tags there are",
    ["run", "cases.yaml", "--agent", "agents.js:agent", "--tags", "nope"],
    2,
    /^$/,
    /^error: --tags nope: no case has any of these tags; the cases' tags are easy, fruit\n$/,
  ],
  [
    "exits 2 before any case runs when the --json folder is a file",
    ["run", "cases.yaml", "--agent", "agents.js:agent", "--json", "cases.yaml/out.json"],
    2,
    /^$/,
    /^error: --json cases\.yaml\/out\.json: cannot create its folder \(cases\.yaml is not a folder\)\n$/,
  ],
  [
    "exits 2 before any case runs when --md names a folder",
    ["run", "cases.yaml", "--agent", "agents.js:agent", "--md", "pkg"],
    2,
    /^$/,
    /^error: --md pkg: it is a folder; give a file name, e\.g\. pkg.report\.md\n$/,
  ],
  [
    "exits 2 for a mistake in the cases file",
    ["run", "bad.yaml", "--agent", "agents.js:agent"],
    2,
    /^$/,
    /^error: bad\.yaml:2: unknown field/,
  ],
];

describe("dbagenteval run", () => {
  for (const [name, args, code, stdout, stderr] of runCases) {
    it(`run ${name}`, () => {
      const r = run(args);
      assert.match(r.stdout, stdout, `stdout of ${args.join(" ")}\n${r.stderr}`);
      assert.match(r.stderr, stderr, `stderr of ${args.join(" ")}`);
      assert.equal(r.code, code, r.stderr);
    });
  }

  it("run --json and --md save the run and a report", () => {
    const r = run([
      "run",
      "cases.yaml",
      "--agent",
      "agents.js:agent",
      "--json",
      "out.json",
      "--md",
      "out.md",
    ]);
    assert.equal(r.code, 1, r.stderr);
    const saved = JSON.parse(fs.readFileSync(dir.file("out.json"), "utf8"));
    assert.equal(typeof saved.version, "number");
    assert.match(fs.readFileSync(dir.file("out.md"), "utf8"), /pears/);
  });
});

describe("dbagenteval diff", () => {
  const save = (agent: string, file: string) => {
    const r = run(["run", "cases.yaml", "--agent", `agents.js:${agent}`, "--json", file]);
    assert.notEqual(r.code, 2, r.stderr);
  };

  it("diff lists a fix and exits 0 when nothing got worse", () => {
    save("agent", "before.json");
    save("right_agent", "after.json");
    const r = run(["diff", "before.json", "after.json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\*\*0 regressions, 1 fixes, 0 added, 0 removed\*\*/);
    assert.match(r.stdout, /- pears \(FAIL -> PASS\)/);
  });

  it("diff lists a regression and exits 1", () => {
    const r = run(["diff", "after.json", "before.json"]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /\*\*1 regressions, 0 fixes, 0 added, 0 removed\*\*/);
    assert.match(r.stdout, /- pears \(PASS -> FAIL\)/);
  });

  it("diff exits 2 when a file is not a run file", () => {
    const r = run(["diff", "cases.yaml", path.join(dir.path, "after.json")]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^error: .*cases\.yaml/);
  });
});

describe("agent modules that import the package", () => {
  // A rule in the user's module that checks the trace the CLI hands it is an
  // instance of the Trace class the module imported: one library, not two.
  const module = (from: string) =>
    `import { Check, FAIL, PASS, Trace } from ${JSON.stringify(from)};
export const agent = (q: string) => Trace.simple(q, { answer: "2" });
class SameLibrary extends Check {
  readonly name = "same_library";
  run(trace: unknown) {
    const same = trace instanceof Trace;
    return this.result("answer", same ? PASS : FAIL, same ? "one library" : "two copies of the library");
  }
}
export const RULES = [new SameLibrary()];
`;
  fs.writeFileSync(dir.file("one.yaml"), "- id: same\n  question: How many?\n");
  const runsUnderBun = process.env["DBAGENTEVAL_BIN"] !== undefined ||
    typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
  const cases: [string, string, boolean][] = [
    ["by the path of the package's mod.ts", pathToFileURL(path.join(ROOT, "mod.ts")).href, true],
    // Deno resolves bare names through the user's import map, which this folder lacks.
    ["by the package's name", "dbagenteval", runsUnderBun],
  ];
  for (const [name, from, supported] of cases) {
    it(`run gives a module that imports the package ${name} the CLI's own classes`, {
      skip: supported
        ? false
        : "bare package names resolve through the user's import map under Deno",
    }, () => {
      const file = `pkg_${cases.findIndex((c) => c[0] === name)}.ts`;
      fs.writeFileSync(dir.file(file), module(from));
      const r = run(["run", "one.yaml", "--agent", `${file}:agent`, "--rules", `${file}:RULES`]);
      assert.match(r.stdout, /^PASS {2}same\n/, r.stderr + r.stdout);
      assert.equal(r.code, 0);
    });
  }
});

describe("the repository's examples", () => {
  const atRoot = (args: string[]) => runCli(args, { cwd: ROOT });
  const toy = [
    "run",
    "examples/cases.yaml",
    "--agent",
    "examples.toy_agent:agent",
    "--rules",
    "examples.toy_agent:RULES",
    "--execute",
    "examples.toy_agent:run_sql",
  ];

  it("the toy agent fails one case of five on purpose, at its tenant filter", () => {
    const r = atRoot(toy);
    assert.equal(
      r.stdout,
      fs.readFileSync(path.join(ROOT, "tests/golden/toy_agent.txt"), "utf8"),
      r.stderr,
    );
    assert.equal(r.code, 1);
  });

  it("the toy agent's unsafe query passes without rules: its number is right", () => {
    const r = atRoot(toy.slice(0, 4).concat(["--execute", "examples/toy_agent.ts:runSql"]));
    assert.match(r.stdout, /5 of 5 passed/, r.stderr);
    assert.equal(r.code, 0);
  });

  it("deno task demo's command shows every kind of mistake on Chinook", () => {
    const r = atRoot([
      "run",
      "examples/chinook/cases.yaml",
      "--agent",
      "examples/chinook/agent.ts:agent",
      "--db",
      "examples/chinook/Chinook_Sqlite.sqlite",
      "--rules",
      "examples/chinook/rules.ts:RULES",
    ]);
    assert.equal(
      r.stdout,
      fs.readFileSync(path.join(ROOT, "tests/golden/chinook.txt"), "utf8"),
      r.stderr,
    );
    assert.equal(r.code, 1);
  });
});

describe("run --strict-columns", () => {
  // An agent that returns one column more than the cases expect.
  fs.writeFileSync(
    dir.file("wide.js"),
    'export const agent = () => ({ sql: "SELECT 2", rows: [{ total: 2, store: "s1" }] });\n',
  );
  fs.writeFileSync(
    dir.file("wide.yaml"),
    `- id: plain
  question: Q1
  expect: {rows: [{total: 2}]}
- id: strict
  question: Q2
  strict_columns: true
  expect: {rows: [{total: 2}]}
- id: loose
  question: Q3
  strict_columns: false
  expect: {rows: [{total: 2}]}
`,
  );
  const verdicts = (r: { stdout: string }) =>
    [...r.stdout.matchAll(/^(PASS|FAIL) {2}(\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
  const cases: [string, string[], string[]][] = [
    ["off by default: only a case's strict_columns: true fails an extra column", [], [
      "PASS plain",
      "FAIL strict",
      "PASS loose",
    ]],
    ["--strict-columns fails it in every case that does not say otherwise", ["--strict-columns"], [
      "FAIL plain",
      "FAIL strict",
      "PASS loose",
    ]],
  ];
  for (const [name, flags, expected] of cases) {
    it(name, () => {
      const r = run(["run", "wide.yaml", "--agent", "wide.js:agent", ...flags]);
      assert.deepEqual(verdicts(r), expected, r.stderr);
    });
  }

  it("takes strict_columns: true in the config file", () => {
    fs.writeFileSync(dir.file("strict.yaml"), "strict_columns: true\n");
    const r = run(["run", "wide.yaml", "--agent", "wide.js:agent", "--config", "strict.yaml"]);
    assert.deepEqual(verdicts(r), ["FAIL plain", "FAIL strict", "PASS loose"], r.stderr);
  });
});
