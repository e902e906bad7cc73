import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";

const dir = tempDir();
after(() => dir.cleanup());

const SCHEMA = "CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT, role TEXT);";
const before = makeDb(
  dir.file("before.db"),
  `${SCHEMA} INSERT INTO users VALUES (1,'ann','user'),(2,'bob','user'),(3,'cy','user');`,
);
const afterDb = makeDb(
  dir.file("after.db"),
  `${SCHEMA} INSERT INTO users VALUES (1,'ann','admin'),(2,'bob','user'),(4,'di','user');
   ALTER TABLE users ADD COLUMN email TEXT; CREATE TABLE logs(msg);
   INSERT INTO logs VALUES ('a'),('b'),('c');`,
);

describe("dbagenteval db diff", () => {
  it("prints a summary per table with schema changes, then row changes as SQL literals", () => {
    const r = runCli(["db", "diff", before, afterDb]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      [
        "after.db: changed",
        "  logs: added; rows: 0 changed, 3 added, 0 removed",
        "  users: changed; rows: 1 changed, 1 added, 1 removed",
        "    + column email TEXT",
        "",
        "Row changes:",
        "after.db: + table logs (3 rows)",
        "after.db users:",
        "  ~ id=1: role 'user' -> 'admin'",
        "  + id=4, name='di', role='user', email=NULL",
        "  - id=3, name='cy', role='user'",
        "",
      ].join("\n"),
    );
  });

  it("caps row output at --max-rows with '... and N more'", () => {
    const r = runCli([
      "db",
      "diff",
      before,
      afterDb,
      "--max-rows",
      "1",
      "--table",
      "logs",
      "--table-rows",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\+ msg='a'\n {2}\.\.\. and 2 more\n/);
    assert.doesNotMatch(r.stdout, /users/);
  });

  it("shows only the schema plane with --target schema", () => {
    const r = runCli(["db", "diff", before, afterDb, "--target", "schema"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      "after.db: changed\n  logs: added\n  users: changed\n    + column email TEXT\n",
    );
  });

  it("writes the JSON document to stdout with --json -", () => {
    const r = runCli(["db", "diff", before, afterDb, "--json", "-"]);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.version, 1);
    assert.deepEqual(doc.databases[0].tables.map((t: { name: string }) => t.name), [
      "logs",
      "users",
    ]);
  });

  it("writes the JSON document to a file with --json FILE and still prints the summary", () => {
    const out = dir.file("diff.json");
    const r = runCli(["db", "diff", before, afterDb, "--json", out]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^after\.db: changed/);
    assert.equal(JSON.parse(fs.readFileSync(out, "utf8")).databases[0].status, "changed");
  });

  it("diffs two folders, with --pattern", () => {
    const a = dir.file("fa");
    const b = dir.file("fb");
    fs.mkdirSync(a);
    fs.mkdirSync(`${b}/sub`, { recursive: true });
    makeDb(`${a}/x.data`, "CREATE TABLE t(a);");
    makeDb(`${b}/sub/x.data`, "CREATE TABLE t(a);");
    makeDb(`${b}/ignored.db`, "CREATE TABLE t(a);");
    const r = runCli(["db", "diff", a, b, "--pattern", "*.data"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^sub\/x\.data: added\n {2}t: added\nx\.data: removed\n {2}t: removed\n$/,
    );
  });

  describe("a folder holding a file that is not a database, named like one", () => {
    const a = dir.file("notes-a");
    const b = dir.file("notes-b");
    fs.mkdirSync(a);
    fs.mkdirSync(b);
    makeDb(`${a}/app.db`, "CREATE TABLE t(a); INSERT INTO t VALUES (1);");
    makeDb(`${b}/app.db`, "CREATE TABLE t(a); INSERT INTO t VALUES (2);");
    fs.writeFileSync(`${b}/notes.db`, "remember the milk\n");
    const line =
      /^error: Cannot open ".*notes\.db": file is not a SQLite database \(header is "remember the mil"\); the diff of the folders lacks it: choose the database files with --pattern\n$/;
    // [name, extra arguments, what stdout holds]
    const cases: [string, string[], RegExp][] = [
      ["the text", [], /^app\.db: changed\n[\s\S]*notes\.db: added \(Cannot open /m],
      ["--json -", ["--json", "-"], /"error": "Cannot open \\".*notes\.db\\": file is not/],
      ["--summary", ["--summary"], /^notes\.db: added \(Cannot open /m],
      ["--quiet", ["--quiet"], /^$/],
      ["--select", ["--select", '{"databases": {"name": "app.db"}}'], /^match\n/],
    ];
    for (const [name, extra, out] of cases) {
      it(`${name}: lists the other databases, names the file on stderr and exits 2 (it exited 0)`, () => {
        const r = runCli(["db", "diff", a, b, ...extra]);
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stdout, out);
        assert.match(r.stderr, line);
      });
    }
    it("--pattern that leaves it out exits 0", () => {
      const r = runCli(["db", "diff", a, b, "--pattern", "app.db"]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, "");
    });
  });

  const bad: [string, string[], RegExp][] = [
    ["both paths missing", [dir.file("no1.db"), dir.file("no2.db")], /Neither .* exists/],
    [
      "a file that is not SQLite",
      [before, import.meta.filename ?? "cli.ts"],
      /not a SQLite database/,
    ],
    ["a folder against a file", [dir.path, before], /Cannot diff a folder with a file/],
    ["a bad --max-rows", [before, afterDb, "--max-rows", "-1"], /expected a whole number/],
  ];
  for (const [name, args, message] of bad) {
    it(`exits 2 with one line on ${name}`, () => {
      const r = runCli(["db", "diff", ...args]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, "");
    });
  }

  it("hands --select to the selector and returns its exit code", () => {
    const selector = JSON.stringify({ tables: { name: "logs", status: "added" } });
    const r = runCli(["db", "diff", before, afterDb, "--select", selector]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^match\n/);
    const miss = runCli(["db", "diff", before, afterDb, "--select", '{"tables":{"name":"nope"}}']);
    assert.equal(miss.code, 1, miss.stderr);
  });
});
