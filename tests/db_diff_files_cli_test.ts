/**
 * db diff's FILE outputs follow one rule (the text stays on stdout, `-` takes
 * stdout instead), and a table added or removed whole is one line of text.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, tempDir } from "./fixtures.ts";
import { cliCommand, runCli } from "./cli.ts";
import { spawnSync } from "node:child_process";
import { Buffer } from "node:buffer";
import process from "node:process";

const dir = tempDir();
after(() => dir.cleanup());

const before = makeDb(
  dir.file("before.db"),
  `CREATE TABLE users(id INTEGER PRIMARY KEY, role TEXT);
   INSERT INTO users VALUES (1, 'manager'), (2, 'user');
   CREATE TABLE logs(id INTEGER PRIMARY KEY, line TEXT);
   WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
   INSERT INTO logs SELECT i, 'line ' || i FROM n;`,
);
const afterDb = makeDb(
  dir.file("after.db"),
  `CREATE TABLE users(id INTEGER PRIMARY KEY, role TEXT);
   INSERT INTO users VALUES (1, 'admin'), (2, 'user');
   CREATE TABLE audit(id INTEGER PRIMARY KEY, what TEXT);
   INSERT INTO audit VALUES (1, 'promoted 1');`,
);

const TEXT = [
  "after.db: changed",
  "  audit: added; rows: 0 changed, 1 added, 0 removed",
  "  logs: removed; rows: 0 changed, 0 added, 10000 removed",
  "  users: changed; rows: 1 changed, 0 added, 0 removed",
  "",
  "Row changes:",
  "after.db: + table audit (1 row)",
  "after.db: - table logs (10000 rows)",
  "after.db users:",
  "  ~ id=1: role 'manager' -> 'admin'",
  "",
].join("\n");

describe("db diff prints a table added or removed whole as one line", () => {
  it("prints the count, not 1,000 rows and '... and 9000 more'", () => {
    const r = runCli(["db", "diff", before, afterDb]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, TEXT);
  });

  it("lists the rows with --table-rows", () => {
    const r = runCli(["db", "diff", before, afterDb, "--table-rows", "--max-rows", "2"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /\nafter\.db logs:\n {2}- id=1, line='line 1'\n {2}- id=2, line='line 2'\n {2}\.\.\. and 9998 more\n/,
    );
    assert.match(r.stdout, /\nafter\.db audit:\n {2}\+ id=1, what='promoted 1'\n/);
  });
});

describe("db diff FILE outputs: the file, and the text on stdout", () => {
  const outputs: [string, (file: string) => string[], (file: string) => void][] = [
    ["--json FILE", (f) => ["--json", f], (f) => {
      assert.equal(JSON.parse(fs.readFileSync(f, "utf8")).databases[0].status, "changed");
    }],
    ["--sql FILE", (f) => ["--sql", f], (f) => {
      assert.match(fs.readFileSync(f, "utf8"), /\nDROP TABLE IF EXISTS "logs";\n[\s\S]*COMMIT;\n$/);
    }],
    ["--changeset FILE", (f) => ["--changeset", f], (f) => {
      assert.ok(fs.statSync(f).size > 0);
    }],
  ];
  for (const [name, flags, check] of outputs) {
    it(`${name} writes the file and prints the text (--sql and --changeset printed nothing)`, () => {
      const file = dir.file(`out-${name.split(" ")[0]!.slice(2)}`);
      const r = runCli(["db", "diff", before, afterDb, ...flags(file)]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, TEXT);
      check(file);
    });
  }

  it("--json and --sql together diff once and write both", () => {
    const json = dir.file("both.json");
    const sql = dir.file("both.sql");
    const r = runCli(["db", "diff", before, afterDb, "--json", json, "--sql", sql, "--summary"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^after\.db: changed\n {2}audit:/);
    assert.equal(JSON.parse(fs.readFileSync(json, "utf8")).databases[0].tables.length, 3);
    assert.match(fs.readFileSync(sql, "utf8"), /COMMIT;\n$/);
  });

  it("--sql - writes SQL to stdout (it wrote a file named -)", () => {
    const cwd = dir.file("cwd");
    fs.mkdirSync(cwd);
    const r = runCli(["db", "diff", before, afterDb, "--sql", "-"], { cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^-- dbagenteval db diff --sql: turns the before database into the after one\n/,
    );
    assert.match(r.stdout, /COMMIT;\n$/);
    assert.deepEqual(fs.readdirSync(cwd), []);
  });

  it("--changeset - writes the changeset to stdout, and the text nowhere", () => {
    const file = dir.file("cs.bin");
    runCli(["db", "diff", before, afterDb, "--changeset", file]);
    const [cmd, ...pre] = cliCommand();
    const r = spawnSync(cmd!, [...pre, "db", "diff", before, afterDb, "--changeset", "-"], {
      env: { ...process.env, NO_COLOR: "1" },
    });
    assert.equal(r.status, 0, String(r.stderr));
    assert.ok(r.stdout.length > 0);
    assert.ok(Buffer.from(r.stdout).equals(fs.readFileSync(file)));
  });

  it("--select's answer goes to stderr when an output takes stdout", () => {
    const r = runCli([
      "db",
      "diff",
      before,
      afterDb,
      "--json",
      "-",
      "--select",
      '{"rows": {"removed": {"where": {"id": 9999}}}}',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).version, 1);
    assert.equal(r.stderr, 'match\n  after.db > logs > removed id=9999: line "line 9999"\n');
  });

  const refused: [string, string[], RegExp][] = [
    [
      "two outputs on stdout",
      ["--json", "-", "--sql", "-"],
      /--json and --sql both write to stdout/,
    ],
    [
      "--sql alone with --json -",
      ["--json", "-", "--sql"],
      /--json and --sql both write to stdout/,
    ],
  ];
  for (const [name, flags, message] of refused) {
    it(`refuses ${name} before diffing, exit 2`, () => {
      const r = runCli(["db", "diff", before, afterDb, ...flags], { cwd: dir.path });
      assert.equal(r.code, 2);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, message);
    });
  }
});
