/**
 * The guide's tutorial, step by step, with examples/tutorial/: every printed
 * output must be the guide's (tests/golden/, copied from the guide, Python
 * value syntax turned into JSON). The commands are the guide's own, run from
 * the folder that has shop.ts, with `shop:my_agent` and `shop:run_sql`.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { ROOT, runCli } from "./cli.ts";
import { tempDir } from "./fixtures.ts";

const TUTORIAL = path.join(ROOT, "examples", "tutorial");
const golden = (name: string): string =>
  fs.readFileSync(path.join(ROOT, "tests", "golden", name), "utf8");
const inTutorial = (args: string[]) => runCli(args, { cwd: TUTORIAL });

/** Runs a TypeScript script with the current runtime, as `python first_check.py` does. */
function runScript(file: string, args: string[]): { code: number; stdout: string; stderr: string } {
  const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
  const pre = isBun ? [] : ["run", "--allow-all", "--quiet"];
  const r = spawnSync(process.execPath, [...pre, file, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

const dir = tempDir("dbagenteval-tutorial-");
after(() => dir.cleanup());

describe("the guide's tutorial", () => {
  it("first_check.ts prints the guide's PASS scorecard (Your first check, step 2)", () => {
    const r = runScript("examples/tutorial/first_check.ts", []);
    assert.equal(r.stdout, golden("first_check_step2.txt"), r.stderr);
    assert.equal(r.code, 0);
  });

  it("first_check.ts 3 finds the missing store filter (Your first check, step 3)", () => {
    const r = runScript("examples/tutorial/first_check.ts", ["3"]);
    assert.equal(r.stdout, golden("first_check_step3.txt"), r.stderr);
    assert.equal(r.code, 0);
  });

  it("validate cases.yaml prints the guide's line and exits 0", () => {
    const r = inTutorial(["validate", "cases.yaml"]);
    assert.equal(r.stdout, golden("validate.txt"), r.stderr);
    assert.equal(r.code, 0);
  });

  it("validate bad.yaml prints the guide's unknown field line and exits 2", () => {
    fs.writeFileSync(
      dir.file("bad.yaml"),
      '- expects:\n    rows: [{total: 2}]\n  question: "How many orders are delivered?"\n',
    );
    const r = runCli(["validate", "bad.yaml"], { cwd: dir.path });
    assert.equal(r.stderr, golden("validate_bad.txt"));
    assert.equal(r.code, 2);
  });

  it("run prints the guide's results and exits 1 for the failing case", () => {
    const r = inTutorial([
      "run",
      "cases.yaml",
      "--agent",
      "shop:my_agent",
      "--execute",
      "shop:run_sql",
    ]);
    assert.equal(r.stdout, golden("run.txt"), r.stderr);
    assert.equal(r.code, 1);
  });

  it(
    "run --rules names the missing tenant filter at generate",
    () => {
      const r = inTutorial([
        "run",
        "cases.yaml",
        "--agent",
        "shop:my_agent",
        "--execute",
        "shop:run_sql",
        "--rules",
        "shop:RULES",
      ]);
      assert.equal(r.stdout, golden("run_rules.txt"), r.stderr);
      assert.equal(r.code, 1);
    },
  );

  it("diff before.json after.json shows the fix after adding the store filter", () => {
    // The user's own folder: shop.ts and cases.yaml side by side; shop.ts
    // imports the library by its absolute URL instead of ../../mod.ts.
    const mod = pathToFileURL(path.join(ROOT, "mod.ts")).href;
    const shop = fs.readFileSync(path.join(TUTORIAL, "shop.ts"), "utf8").replace(
      '"../../mod.ts"',
      JSON.stringify(mod),
    );
    fs.writeFileSync(dir.file("shop.ts"), shop);
    fs.copyFileSync(path.join(TUTORIAL, "cases.yaml"), dir.file("cases.yaml"));
    const run = (out: string) =>
      runCli(
        [
          "run",
          "cases.yaml",
          "--agent",
          "shop:my_agent",
          "--execute",
          "shop:run_sql",
          "--json",
          out,
        ],
        { cwd: dir.path },
      );
    assert.equal(run("before.json").code, 1);

    const buggy = "SELECT SUM(amount) AS total FROM orders WHERE status = 'DELIVERED'";
    const fixed =
      "SELECT SUM(amount) AS total FROM orders WHERE store_id = 's1' AND status = 'DELIVERED'";
    assert.ok(shop.includes(buggy), "shop.ts has the guide's buggy query");
    fs.writeFileSync(dir.file("shop.ts"), shop.replace(buggy, fixed));
    const r1 = run("after.json");
    assert.equal(r1.code, 0, r1.stdout + r1.stderr);

    const r = runCli(["diff", "before.json", "after.json"], { cwd: dir.path });
    assert.equal(r.stdout, golden("diff.txt"), r.stderr);
    assert.equal(r.code, 0);
  });
});

describe("examples/reference_check.ts", () => {
  it("reference_check.ts prints the scorecards of four agents against one reference SQL", () => {
    const r = runScript("examples/reference_check.ts", []);
    assert.equal(r.stdout, golden("reference_check.txt"), r.stderr);
    assert.deepEqual(
      [...r.stdout.matchAll(/VERDICT +(\w+)/g)].map((m) => m[1]),
      ["PASS", "FAIL", "PASS", "FAIL"],
    );
    assert.equal(r.code, 0);
  });
});

describe("examples/library.ts", () => {
  it("diffs, matches a selector and runs the Chinook cases", () => {
    const r = runScript("examples/library.ts", []);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      'match\n  users.db > users > changed id=1: role "manager" -> "admin"\n11 of 14 Chinook cases passed\n',
    );
  });
});
