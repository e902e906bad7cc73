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
