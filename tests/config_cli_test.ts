/**
 * End to end: `run` from a dbagenteval.yaml config file, built-in rules by
 * name, flags over the file, and the config's mistakes on one line with
 * file, line and a did-you-mean.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { makeDb, tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";

const dir = tempDir("dbagenteval-config-cli-");
after(() => dir.cleanup());

makeDb(
  dir.file("shop.db"),
  `CREATE TABLE orders (id INTEGER PRIMARY KEY, store_id TEXT, amount INTEGER);
   INSERT INTO orders (store_id, amount) VALUES ('s1', 10), ('s1', 20), ('s2', 5);`,
);
// Right for "total", but without the store filter; "count" is right and
// filtered; "clear" deletes.
fs.writeFileSync(
  dir.file("agent.js"),
  `const SQL = {
  "What did store s1 sell?": "SELECT SUM(amount) AS total FROM orders",
  "How many orders has store s1?": "SELECT COUNT(*) AS n FROM orders WHERE store_id = 's1'",
  "Clear the orders of store s1": "DELETE FROM orders WHERE store_id = 's1'",
};
const ROWS = {
  "What did store s1 sell?": [{ total: 30 }],
  "How many orders has store s1?": [{ n: 2 }],
  "Clear the orders of store s1": [],
};
export function agent(question) {
  return { sql: SQL[question], rows: ROWS[question], answer: "done" };
}
`,
);
fs.writeFileSync(
  dir.file("cases.yaml"),
  `- id: total
  question: What did store s1 sell?
  reference_sql: SELECT SUM(amount) AS total FROM orders WHERE store_id = 's1'
  tags: [money]
- id: count
  question: How many orders has store s1?
  reference_sql: SELECT COUNT(*) AS n FROM orders WHERE store_id = 's1'
- id: clear
  question: Clear the orders of store s1
  tags: [money]
`,
);

const CONFIG = `# what run takes, as YAML
cases: cases.yaml
agent: agent.js:agent
db: shop.db
rules:
  - read_only
  - tenant_filter: {column: store_id, value: s1}
concurrency: 2
json: from-config.json
`;

/** The run file without what differs between two runs (times). */
function runFile(file: string): unknown {
  const doc = JSON.parse(fs.readFileSync(file, "utf8"));
  return JSON.parse(
    JSON.stringify(doc, (key, value) => key === "created_at" || key === "duration_ms" ? 0 : value),
  );
}

describe("dbagenteval run with dbagenteval.yaml", () => {
  fs.writeFileSync(dir.file("dbagenteval.yaml"), CONFIG);

  it("gives the same run as the same options given as flags", () => {
    const byConfig = runCli(["run"], { cwd: dir.path });
    const byFlags = runCli([
      "run",
      "cases.yaml",
      "--config",
      "/dev/null",
      "--agent",
      "agent.js:agent",
      "--db",
      "shop.db",
      "--rule",
      "read_only",
      "--rule",
      "tenant_filter: {column: store_id, value: s1}",
      "--concurrency",
      "2",
      "--json",
      "from-flags.json",
    ], { cwd: dir.path });
    assert.equal(byConfig.code, 1, byConfig.stderr);
    assert.equal(byFlags.code, 1, byFlags.stderr);
    assert.equal(byConfig.stdout, byFlags.stdout);
    assert.deepEqual(runFile(dir.file("from-config.json")), runFile(dir.file("from-flags.json")));
  });

  it("runs the built-in rules named in the file, with their options", () => {
    const r = runCli(["run"], { cwd: dir.path });
    assert.match(
      r.stdout,
      /FAIL {2}total\n {6}generate \/ tenant_filter: no store_id filter on \['orders'\]/,
    );
    assert.match(r.stdout, /PASS {2}count/);
    assert.match(r.stdout, /FAIL {2}clear\n {6}generate \/ read_only: .*DELETE/);
  });

  it("lets a flag win over the file (--tags, --json) and --rule replace its rules", () => {
    const r = runCli(["run", "--tags", "money", "--json", "flag.json", "--rule", "read_only"], {
      cwd: dir.path,
    });
    assert.equal(r.code, 1, r.stderr);
    const run = runFile(dir.file("flag.json")) as {
      cases: { id: string; checks: { name: string }[] }[];
    };
    assert.deepEqual(run.cases.map((c) => c.id), ["total", "clear"]);
    const names = new Set(run.cases.flatMap((c) => c.checks.map((k) => k.name)));
    assert.ok(names.has("read_only") && !names.has("tenant_filter"), [...names].join(", "));
  });

  it("checks a case's own tenant (tenant: in the case) over the rule's value", () => {
    fs.writeFileSync(
      dir.file("tenants.yaml"),
      `- id: as-s1
  question: How many orders has store s1?
- id: as-s2
  question: How many orders has store s1?
  tenant: s2
`,
    );
    const r = runCli(["run", "tenants.yaml", "--json", "tenants.json"], { cwd: dir.path });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^PASS {2}as-s1$/m);
    assert.match(r.stdout, /^FAIL {2}as-s2\n {6}generate \/ tenant_filter: /m);
  });

  it("reads --config FILE from another folder, its paths relative to that file", () => {
    const other = dir.file("elsewhere");
    fs.mkdirSync(other, { recursive: true });
    const r = runCli([
      "run",
      "--config",
      path.join(dir.path, "dbagenteval.yaml"),
      "--json",
      "x.json",
    ], {
      cwd: other,
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /1 of 3 passed/);
    assert.ok(fs.existsSync(path.join(other, "x.json")));
  });

  it("creates the folders of the file's outputs, relative to the file (json: out/run.json)", () => {
    const project = dir.file("outputs");
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(
      path.join(project, "dbagenteval.yaml"),
      `cases: ../cases.yaml\nagent: ../agent.js:agent\ndb: ../shop.db\njson: out/run.json\nmd: out/deep/report.md\n`,
    );
    const r = runCli(["run", "--config", "outputs/dbagenteval.yaml", "--junit", "flag/j.xml"], {
      cwd: dir.path,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(fs.statSync(dir.file("flag/j.xml")).isFile(), "a flag's folder is created too");
    assert.ok(fs.statSync(path.join(project, "out", "run.json")).isFile());
    assert.ok(fs.statSync(path.join(project, "out", "deep", "report.md")).isFile());
  });

  it("says where it looked for a file of another folder's config", () => {
    fs.writeFileSync(dir.file("outputs/dbagenteval.yaml"), "cases: cases.yaml\n");
    const r = runCli(["run", "--config", "outputs/dbagenteval.yaml"], { cwd: dir.path });
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      `error: outputs/dbagenteval.yaml:1: cases: cases.yaml: no such file (looked for ${
        path.join("outputs", "cases.yaml")
      }: paths are relative to the config file's folder); check the path\n`,
    );
  });

  const bad: [string, string, RegExp][] = [
    [
      "names an unknown key with its line and a did-you-mean",
      "cases: cases.yaml\nagnet: agent.js:agent\n",
      /^error: bad\.yaml:2: unknown key "agnet"; did you mean "agent"\?\n$/,
    ],
    [
      "suggests the snake_case key for a flag's spelling",
      "cases: cases.yaml\nagent: agent.js:agent\nagent-db: shop.db\n",
      /^error: bad\.yaml:3: unknown key "agent-db"; did you mean "agent_db"\?\n$/,
    ],
    [
      "checks a value with its flag's own parser",
      "cases: cases.yaml\nagent: agent.js:agent\nconcurrency: 0\n",
      /^error: bad\.yaml:3: concurrency: expected a whole number of at least 1, got "0"\n$/,
    ],
    [
      "refuses a value of the wrong type",
      "cases: cases.yaml\nagent: agent.js:agent\ntimeout: soon\n",
      /^error: bad\.yaml:3: timeout must be a number, not string "soon"\n$/,
    ],
    [
      "names an unknown rule on its line with a did-you-mean",
      "cases: cases.yaml\nagent: agent.js:agent\nrules:\n  - read_only\n  - read_onyl\n",
      /^error: bad\.yaml:5: rules: unknown rule "read_onyl"; did you mean "read_only"\?/,
    ],
    [
      "names an unknown rule option on its line",
      "cases: cases.yaml\nagent: agent.js:agent\nrules:\n  - tenant_filter:\n      colum: store_id\n",
      /^error: bad\.yaml:5: rules: tenant_filter: unknown option "colum"; did you mean "column"\?\n$/,
    ],
    [
      "names a missing rule option",
      "cases: cases.yaml\nagent: agent.js:agent\nrules: [{tenant_filter: {value: s1}}]\n",
      /^error: bad\.yaml:3: rules: tenant_filter: missing option "column"\n$/,
    ],
    [
      "says to quote a value that holds ': '",
      "cases: cases.yaml\nagent: agent.js:agent\njudge_model: gpt: mini\n",
      /^error: bad\.yaml:3: not valid YAML: the value holds ": " .*judge_model: "gpt: mini"\n$/,
    ],
    [
      "names the key, not a flag, for a cases file that is not there",
      "cases: nope.yaml\nagent: agent.js:agent\n",
      /^error: bad\.yaml:1: cases: nope\.yaml: no such file; check the path\n$/,
    ],
    [
      "names the key for a database file that is not there",
      "cases: cases.yaml\nagent: agent.js:agent\ndb: nope.db\n",
      /^error: bad\.yaml:3: db: nope\.db: no such file; check the path\n$/,
    ],
    [
      "names the key for an agent module that is not there",
      "cases: cases.yaml\nagent: nope.js:agent\n",
      /^error: bad\.yaml:2: agent: nope\.js: no such file; check the path\n$/,
    ],
    [
      "names the key for an output whose folder is a file",
      "cases: cases.yaml\nagent: agent.js:agent\nmd: shop.db/report.md\n",
      /^error: bad\.yaml:3: md: shop\.db\/report\.md: cannot create its folder \(.*shop\.db is not a folder\)\n$/,
    ],
    [
      "refuses a list where settings belong",
      "- question: How many?\n",
      /^error: bad\.yaml:1: expected a mapping of settings/,
    ],
  ];
  for (const [name, text, expected] of bad) {
    it(`${name}, exit 2`, () => {
      fs.writeFileSync(dir.file("bad.yaml"), text);
      const r = runCli(["run", "--config", "bad.yaml"], { cwd: dir.path });
      assert.equal(r.code, 2, r.stdout);
      assert.match(r.stderr, expected);
    });
  }

  it("says where the cases go when neither the argument nor the file names them", () => {
    fs.writeFileSync(dir.file("nocases.yaml"), "agent: agent.js:agent\n");
    const r = runCli(["run", "--config", "nocases.yaml"], { cwd: dir.path });
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      "error: give a cases file: dbagenteval run cases.yaml, or cases: in dbagenteval.yaml\n",
    );
  });

  it("refuses a --config file that does not exist", () => {
    const r = runCli(["run", "--config", "nope.yaml"], { cwd: dir.path });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^error: nope\.yaml: no such file; check the path/);
  });

  it("refuses a --rule with an unknown name, with a did-you-mean", () => {
    const r = runCli(["run", "--rule", "tenant_filtr"], { cwd: dir.path });
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^error: --rule "tenant_filtr": unknown rule "tenant_filtr"; did you mean "tenant_filter"\?/,
    );
  });
});
