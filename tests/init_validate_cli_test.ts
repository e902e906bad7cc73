/**
 * End to end: `init` writes a project that `run` passes at once, and
 * `validate --db` runs each reference query and names the ones that fail.
 */
import { after, describe, it } from "node:test";
import process from "node:process";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { makeDb, snapshotDir, tempDir } from "./fixtures.ts";
import { cliCommand, type CliResult, runCli } from "./cli.ts";
import { needs } from "./system_packages.ts";

/** runCli without blocking the event loop (the test's own server must answer meanwhile). */
function runCliAsync(args: string[], options: { cwd: string }): Promise<CliResult> {
  const [cmd, ...pre] = cliCommand();
  const child = spawn(cmd!, [...pre, ...args], {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: "1" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => stdout += String(c));
  child.stderr.on("data", (c: Buffer) => stderr += String(c));
  return new Promise((resolve) =>
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }))
  );
}

const dir = tempDir("dbagenteval-init-cli-");
after(() => dir.cleanup());

describe("dbagenteval init", () => {
  it("writes a config, cases, a database and a TypeScript agent that run passes", () => {
    const project = dir.file("ts");
    const init = runCli(["init", "--dir", project]);
    assert.equal(init.code, 0, init.stderr);
    assert.deepEqual(fs.readdirSync(project).sort(), [
      "agent.ts",
      "cases.yaml",
      "dbagenteval.yaml",
      "shop.db",
    ]);
    const config = fs.readFileSync(dir.file("ts/dbagenteval.yaml"), "utf8");
    assert.match(config, /^# dbagenteval\.yaml/);
    assert.match(config, /^agent: agent\.ts:agent$/m);
    assert.match(config, /^db: shop\.db$/m);
    const run = runCli(["run"], { cwd: project });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^PASS {2}delivered-orders$/m);
    assert.match(run.stdout, /2 of 2 passed \(100%\)/);
  });

  it("writes a Python agent (agent_cmd) that run passes", { skip: needs("python3") }, () => {
    const project = dir.file("python");
    const init = runCli(["init", "--agent", "python", "--dir", project]);
    assert.equal(init.code, 0, init.stderr);
    assert.deepEqual(fs.readdirSync(project).sort(), [
      "agent.py",
      "cases.yaml",
      "dbagenteval.yaml",
      "shop.db",
    ]);
    assert.match(
      fs.readFileSync(dir.file("python/dbagenteval.yaml"), "utf8"),
      /^agent_cmd: python3 agent\.py$/m,
    );
    const run = runCli(["run"], { cwd: project });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /2 of 2 passed \(100%\)/);
  });

  it(
    "runs agent_cmd in the config file's folder: run --config py/dbagenteval.yaml from elsewhere passes",
    { skip: needs("python3") },
    () => {
      const init = runCli(["init", "--agent", "python", "--dir", "py"], { cwd: dir.path });
      assert.equal(init.code, 0, init.stderr);
      const run = runCli(["run", "--config", "py/dbagenteval.yaml"], { cwd: dir.path });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /2 of 2 passed \(100%\)/);
    },
  );

  it("checks agent_cmd's script once, before any case: one line naming the key, exit 2", () => {
    const project = dir.file("py-moved");
    assert.equal(runCli(["init", "--agent", "python", "--dir", project]).code, 0);
    fs.renameSync(dir.file("py-moved/agent.py"), dir.file("py-moved/main.py"));
    const run = runCli(["run", "--config", "py-moved/dbagenteval.yaml"], { cwd: dir.path });
    assert.equal(run.code, 2, run.stdout);
    assert.equal(run.stdout, "");
    assert.match(
      run.stderr,
      /^error: py-moved\/dbagenteval\.yaml:\d+: agent_cmd: agent\.py: no such file in .*py-moved; check the path \(the command runs in the config file's folder\)\n$/,
    );
    // The same command as a flag runs in the current folder, and is checked there.
    const flag = runCli([
      "run",
      "--config",
      "py-moved/dbagenteval.yaml",
      "--agent-cmd",
      "python3 agent.py",
    ], {
      cwd: dir.path,
    });
    assert.equal(flag.code, 2, flag.stdout);
    assert.match(
      flag.stderr,
      /^error: --agent-cmd "python3 agent\.py": agent\.py: no such file in .+; check the path \(the command runs in that folder\)\n$/,
    );
  });

  it("writes an HTTP agent (agent_url) that run passes once its server is up", {
    skip: needs("python3"),
  }, async () => {
    const project = dir.file("http");
    const init = runCli(["init", "--agent", "http", "--dir", project]);
    assert.equal(init.code, 0, init.stderr);
    assert.match(
      fs.readFileSync(dir.file("http/dbagenteval.yaml"), "utf8"),
      /^agent_url: http:\/\/127\.0\.0\.1:8000\/answer$/m,
    );
    // Port 0: a free port, printed on the first line (8000 may be taken here).
    const server = spawn("python3", ["server.py", "--port", "0"], { cwd: project });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        server.stdout.on("data", (chunk: Buffer) => {
          const m = /listening on (\S+)/.exec(String(chunk));
          if (m) resolve(m[1]!);
        });
        server.on("exit", (code) => reject(new Error(`server.py exited with ${code}`)));
      });
      const run = await runCliAsync(["run", "--agent-url", url], { cwd: project });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /2 of 2 passed \(100%\)/);
    } finally {
      server.kill();
    }
  });

  it("writes nothing when a file would be overwritten, and says so", () => {
    const project = dir.file("taken");
    fs.mkdirSync(project);
    fs.writeFileSync(dir.file("taken/cases.yaml"), "- question: mine\n");
    const r = runCli(["init", "--dir", project]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^error: init: cases\.yaml already exist\(s\) in .*pass --force/);
    assert.deepEqual(fs.readdirSync(project), ["cases.yaml"]);
    assert.equal(fs.readFileSync(dir.file("taken/cases.yaml"), "utf8"), "- question: mine\n");
  });

  it("refuses an agent kind it does not know", () => {
    const r = runCli(["init", "--dir", dir.file("x"), "--agent", "cobol"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /argument 'cobol' is invalid/);
  });
});

describe("dbagenteval validate --db", () => {
  const db = makeDb(
    dir.file("shop.db"),
    "CREATE TABLE orders (id INTEGER PRIMARY KEY, amount INTEGER); INSERT INTO orders VALUES (1, 5);",
  );
  fs.writeFileSync(
    dir.file("cases.yaml"),
    `- id: total
  question: What is the total?
  reference_sql: SELECT SUM(amount) AS total FROM orders
- id: artists
  question: How many artists?
  reference_sql: SELECT COUNT(*) FROM Artists
- id: no-sql
  question: Hello?
- id: typo
  question: Count?
  reference_sql: SELEC COUNT(*) FROM orders
`,
  );

  it("names each reference query that fails, with its line, and exits 2", () => {
    const before = snapshotDir(dir.path);
    const r = runCli(["validate", "cases.yaml", "--db", db], { cwd: dir.path });
    assert.equal(r.code, 2, r.stdout);
    const lines = r.stderr.trimEnd().split("\n");
    assert.match(
      lines[0]!,
      /^error: cases\.yaml:6: case artists: reference_sql fails on .*shop\.db: no such table: Artists$/,
    );
    assert.match(
      lines[1]!,
      /^error: cases\.yaml:11: case typo: reference_sql fails on .*: near "SELEC"/,
    );
    assert.equal(lines[2], "2 of 3 reference queries failed");
    assert.deepEqual(snapshotDir(dir.path), before);
  });

  it("passes when every reference query runs", () => {
    fs.writeFileSync(
      dir.file("good.yaml"),
      "- question: Total?\n  reference_sql: SELECT SUM(amount) FROM orders\n",
    );
    const r = runCli(["validate", "good.yaml", "--db", db], { cwd: dir.path });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^good\.yaml: 1 case\(s\) OK; 1 reference query runs on /);
  });

  it("refuses a database that does not exist, exit 2", () => {
    const r = runCli(["validate", "cases.yaml", "--db", "nope.db"], { cwd: dir.path });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^error: .*nope\.db/);
  });
});
