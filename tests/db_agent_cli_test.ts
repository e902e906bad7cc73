/**
 * The db_agent example end to end: an agent that writes to its own copy of
 * a SQLite file, checked with db_change, db_unchanged and db_no_change.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT, runCli } from "./cli.ts";
import { snapshotDir, tempDir } from "./fixtures.ts";

const dir = tempDir("dbagenteval-db-agent-");
after(() => dir.cleanup());
const EXAMPLE = path.join(ROOT, "examples", "db_agent");
const golden = fs.readFileSync(path.join(ROOT, "tests", "golden", "db_agent.txt"), "utf8");

describe("dbagenteval run --agent-db", () => {
  it("prints the example's verdicts, saves each case's diff, and leaves the file untouched", () => {
    const db = path.join(dir.path, "users.db");
    fs.copyFileSync(path.join(EXAMPLE, "users.db"), db);
    const before = snapshotDir(dir.path);
    const json = dir.file("run.json");
    const r = runCli([
      "run",
      path.join(EXAMPLE, "cases.yaml"),
      "--agent",
      `${path.join(EXAMPLE, "agent.ts")}:agent`,
      "--agent-db",
      db,
      "--json",
      json,
    ]);
    assert.equal(r.stdout, golden, r.stderr);
    assert.equal(r.code, 1);
    assert.deepEqual(snapshotDir(dir.path), {
      ...before,
      "run.json": snapshotDir(dir.path)["run.json"]!,
    });
    const run = JSON.parse(fs.readFileSync(json, "utf8"));
    const promote = run.cases.find((c: { id: string }) => c.id === "promote-alice");
    const users = promote.db_diff.databases[0].tables.find((t: { name: string }) =>
      t.name === "users"
    );
    assert.deepEqual(users.rows.changed[0].changed_columns, ["role"]);
    assert.equal(promote.db_diff.databases[0].path, db);
  });

  it("aims the --agent-db diff with agent_db_ignore and agent_db_key from the config file", () => {
    const db = path.join(dir.path, "aimed.db");
    fs.copyFileSync(path.join(EXAMPLE, "users.db"), db);
    const config = dir.file("aimed.yaml");
    fs.writeFileSync(config, "agent_db_ignore: [role]\nagent_db_key: [users=email]\n");
    const json = dir.file("aimed.json");
    const r = runCli([
      "run",
      path.join(EXAMPLE, "cases.yaml"),
      "--config",
      config,
      "--agent",
      `${path.join(EXAMPLE, "agent.ts")}:agent`,
      "--agent-db",
      db,
      "--json",
      json,
    ]);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    const run = JSON.parse(fs.readFileSync(json, "utf8"));
    const promote = run.cases.find((c: { id: string }) => c.id === "promote-alice");
    const diff = promote.db_diff;
    assert.deepEqual([diff.settings.ignore, diff.settings.keys], [["role"], { users: ["email"] }]);
    const users = diff.databases[0].tables.find((t: { name: string }) => t.name === "users");
    // The role change is left out, so the db_change check that expects it fails.
    assert.deepEqual([users.key, users.ignored_columns, users.counts.changed], [
      ["email"],
      ["role"],
      0,
    ]);
    assert.equal(
      promote.checks.find((c: { name: string }) => c.name === "db_change")?.status,
      "FAIL",
    );
  });

  it("exits 2 when cases expect database changes and --agent-db is missing", () => {
    const r = runCli([
      "run",
      path.join(EXAMPLE, "cases.yaml"),
      "--agent",
      `${path.join(EXAMPLE, "agent.ts")}:agent`,
    ]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /some cases expect database changes .*; pass --agent-db/);
  });

  it("validate finds a mistake inside a db_change selector, with its line", () => {
    const bad = dir.file("bad.yaml");
    fs.writeFileSync(
      bad,
      "- question: Promote alice\n  expect:\n    db_change:\n      rows:\n        changed:\n          where:\n            - role: {$inn: [admin]}\n",
    );
    const r = runCli(["validate", bad]);
    assert.equal(r.code, 2);
    assert.equal(
      r.stdout + r.stderr,
      `error: ${bad}:7: expect.db_change.rows.changed.where[0].role: unknown operator "$inn"; did you mean "$in"?\n`,
    );
  });
});
