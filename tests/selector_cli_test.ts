import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";

const dir = tempDir();
after(() => dir.cleanup());

const BEFORE = makeDb(
  dir.file("before.db"),
  `CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, role TEXT);
   INSERT INTO users VALUES (10, 'bob', 'manager'), (11, 'al', 'user');`,
);
const AFTER = makeDb(
  dir.file("after.db"),
  `CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, role TEXT);
   INSERT INTO users VALUES (10, 'bob', 'editor'), (11, 'al', 'admin');`,
);
const DIFF_JSON = dir.file("diff.json");
fs.writeFileSync(dir.file("select.yaml"), "selector:\n  rows:\n    changed: role\n");

const ADMIN = '{"rows": {"changed": {"where": [{"role": {"$in": ["admin", "root"]}}]}}}';
const ROOT = '{"rows": {"changed": {"where": [{"role": "root"}]}}}';

describe("dbagenteval db diff --select", () => {
  it("prints the match and exits 0 when the selector matches", () => {
    const r = runCli(["db", "diff", BEFORE, AFTER, "--select", ADMIN]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `match\n  after.db > users > changed id=11: role "user" -> "admin"\n`);
  });

  it("prints why not, with the nearest row, and exits 1 when it does not match", () => {
    const r = runCli(["db", "diff", BEFORE, AFTER, "--select", ROOT]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(
      r.stdout,
      `no match\n  after.db > users: no changed row has role = "root"; nearest: id=10: role "manager" -> "editor"\n`,
    );
  });

  it("exits 2 with the JSON path and a suggestion for a bad selector", () => {
    const r = runCli([
      "db",
      "diff",
      BEFORE,
      AFTER,
      "--select",
      '{"rows": {"changed": {"where": [{"role": {"$inn": ["a"]}}]}}}',
    ]);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      `error: rows.changed.where[0].role: unknown operator "$inn"; did you mean "$in"?\n`,
    );
  });
});

// The logs table lost all 10,000 rows; the diff keeps 1,000 removed rows by default.
const LOGS_BEFORE = makeDb(
  dir.file("logs_before.db"),
  `CREATE TABLE logs (id INTEGER PRIMARY KEY, line TEXT);
   WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
   INSERT INTO logs SELECT i, 'line ' || i FROM n;`,
);
const LOGS_AFTER = makeDb(
  dir.file("logs_after.db"),
  "CREATE TABLE logs (id INTEGER PRIMARY KEY, line TEXT);",
);
const ID_9999 = '{"tables":{"name":"logs"},"rows":{"removed":{"where":{"id":9999}}}}';

describe("db diff --select sees every row, not only the kept ones", () => {
  it("finds a removed row past --max-rows (it said no match before)", () => {
    const r = runCli(["db", "diff", LOGS_BEFORE, LOGS_AFTER, "--select", ID_9999]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.stdout, `match\n  logs_after.db > logs > removed id=9999: line "line 9999"\n`);
  });

  it("says no match for its $not (it said match, exit 0, before)", () => {
    const r = runCli(["db", "diff", LOGS_BEFORE, LOGS_AFTER, "--select", `{"$not": ${ID_9999}}`]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^no match\n {2}\$not: the inner selector matches\n/);
  });

  it("counts every row that passes a where, with --max-rows 0", () => {
    const r = runCli([
      "db",
      "diff",
      LOGS_BEFORE,
      LOGS_AFTER,
      "--max-rows",
      "0",
      "--select",
      '{"rows":{"removed":{"where":{"id":{"$gt":9000}},"$count":1000}}}',
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(
      r.stdout,
      `match\n  logs_after.db > logs > 1000 removed rows with id > 9000 (count = 1000)\n`,
    );
  });

  it("sees every row of folders too", () => {
    const a = dir.file("logs_a");
    const b = dir.file("logs_b");
    fs.mkdirSync(a);
    fs.mkdirSync(b);
    fs.copyFileSync(LOGS_BEFORE, `${a}/logs.db`);
    fs.copyFileSync(LOGS_AFTER, `${b}/logs.db`);
    const r = runCli(["db", "diff", a, b, "--select", ID_9999]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^match\n {2}logs\.db > logs > removed id=9999/);
  });
});

describe("db match on a saved diff whose rows were cut", () => {
  const saved = dir.file("logs.json");
  it("says cannot tell and exits 2, for the selector and for its $not", () => {
    const w = runCli(["db", "diff", LOGS_BEFORE, LOGS_AFTER, "--json", saved]);
    assert.equal(w.code, 0, w.stderr);
    for (const selector of [ID_9999, `{"$not": ${ID_9999}}`]) {
      const r = runCli(["db", "match", saved, selector]);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(
        r.stdout,
        /^cannot tell: the answer depends on row changes the diff counted but did not keep\n/,
      );
      assert.match(
        r.stdout,
        /logs_after\.db > logs: none of the 1000 of 10000 removed rows the diff kept has id = 9999\n/,
      );
    }
  });

  it("still answers what the kept rows prove", () => {
    const r = runCli(["db", "match", saved, '{"rows":{"removed":{"where":{"id":5}}}}']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const counted = runCli(["db", "match", saved, '{"rows":{"removed":{"$count":10000}}}']);
    assert.equal(counted.code, 0, counted.stdout + counted.stderr);
  });
});

describe("dbagenteval db match", () => {
  it("matches a saved diff against a selector file and exits 0", () => {
    const saved = runCli(["db", "diff", BEFORE, AFTER, "--json", DIFF_JSON]);
    assert.equal(saved.code, 0, saved.stderr);
    const r = runCli(["db", "match", DIFF_JSON, dir.file("select.yaml")]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^match\n/);
  });

  it("exits 1 when the saved diff does not match", () => {
    runCli(["db", "diff", BEFORE, AFTER, "--json", DIFF_JSON]);
    const r = runCli(["db", "match", DIFF_JSON, '{"tables": {"removed": "users"}}']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^no match\n {2}after\.db: the removed tables do not include "users"/);
  });

  const bad: [string, () => string[], RegExp][] = [
    ["a missing diff file", () => ["db", "match", dir.file("none.json"), "{}"], /no such file/],
    ["a file that is not a diff document", () => {
      fs.writeFileSync(dir.file("not.json"), '{"hello": 1}');
      return ["db", "match", dir.file("not.json"), "{}"];
    }, /not a dbagenteval diff/],
    [
      "a bad selector",
      () => ["db", "match", DIFF_JSON, '{"target": "scheme"}'],
      /target: unknown target "scheme"; did you mean "schema"\?/,
    ],
    [
      "a selector that is neither a file nor JSON or YAML",
      () => ["db", "match", DIFF_JSON, "sel.jsn"],
      /neither a file nor an inline selector/,
    ],
  ];
  for (const [name, args, message] of bad) {
    it(`exits 2 with one line for ${name}`, () => {
      runCli(["db", "diff", BEFORE, AFTER, "--json", DIFF_JSON]);
      const r = runCli(args());
      assert.equal(r.code, 2, r.stdout);
      assert.match(r.stderr, /^error: /);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split("\n").length, 1);
    });
  }
});
