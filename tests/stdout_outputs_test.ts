/**
 * End to end: `-` means stdout for every output, and then the text for a
 * person goes to stderr, so that stdout holds only the machine-readable one.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT, runCli } from "./cli.ts";

const TOY = [
  "run",
  "examples/cases.yaml",
  "--agent",
  "examples.toy_agent:agent",
  "--rules",
  "examples.toy_agent:RULES",
  "--execute",
  "examples.toy_agent:run_sql",
];
const GOLDEN = fs.readFileSync(path.join(ROOT, "tests/golden/toy_agent.txt"), "utf8");
const CHINOOK = "examples/chinook/Chinook_Sqlite.sqlite";

describe("- as an output path", () => {
  it("run --json - writes the run file on stdout and the results on stderr", () => {
    const r = runCli([...TOY, "--json", "-"]);
    assert.equal(r.code, 1, r.stderr);
    const run = JSON.parse(r.stdout);
    assert.equal(run.format, "dbagenteval-run");
    assert.equal(run.totals.total, 5);
    assert.equal(r.stderr, GOLDEN);
    assert.ok(!fs.existsSync(path.join(ROOT, "-")), "wrote a file named -");
  });

  it("run --md - writes the Markdown report on stdout", () => {
    const r = runCli([...TOY, "--md", "-"]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^# /);
    assert.equal(r.stderr, GOLDEN);
  });

  it("run refuses two outputs on stdout before any case runs", () => {
    const r = runCli([...TOY, "--json", "-", "--md", "-"]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, "");
    assert.equal(
      r.stderr,
      "error: --json and --md both write to stdout (-); send all but one to a file\n",
    );
  });

  it("db diff --json - --select keeps stdout JSON and explains the match on stderr", () => {
    const r = runCli([
      "db",
      "diff",
      CHINOOK,
      CHINOOK,
      "--json",
      "-",
      "--select",
      '{"rows": {"changed": {"$count": 0}}}',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(typeof JSON.parse(r.stdout), "object");
    assert.match(r.stderr, /^match/);
  });
});
