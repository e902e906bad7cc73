import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { makeDb, tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";
import { needs } from "./system_packages.ts";

const dir = tempDir();
after(() => dir.cleanup());

const SCHEMA = "CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT, role TEXT);" +
  "CREATE TABLE logs(msg); CREATE TABLE quiet(x);";
const before = makeDb(
  dir.file("before.db"),
  `${SCHEMA} INSERT INTO users VALUES (1,'ann','user'),(2,'bob','user'),(3,'cy','user');
   INSERT INTO logs VALUES ('a');`,
);
const afterDb = makeDb(
  dir.file("after.db"),
  `${SCHEMA} INSERT INTO users VALUES (1,'ann','admin'),(2,'bob','user'),(4,'di','user');
   INSERT INTO logs VALUES ('a'), ('b'); ALTER TABLE users ADD COLUMN email TEXT;
   CREATE INDEX users_role ON users(role);`,
);

describe("dbagenteval db diff outputs", () => {
  it("--summary prints one line per changed table with its counts", { timeout: 120_000 }, () => {
    const r = runCli(["db", "diff", before, afterDb, "--summary"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      [
        "after.db: changed",
        "  logs: 0 changed, 1 added, 0 removed",
        "  users: schema changed; 1 changed (1 cell), 1 added, 1 removed",
        "  index users_role: added",
        "  1 table unchanged",
        "",
      ].join("\n"),
    );
  });

  const codes: [string, string[], string, number, string][] = [
    ["--exit-code exits 1 when the files differ", ["--exit-code"], "after", 1, "users: changed"],
    ["--exit-code exits 0 when they do not", ["--exit-code"], "before", 0, "unchanged"],
    ["--quiet prints nothing and exits 1 when they differ", ["--quiet"], "after", 1, ""],
    ["-q prints nothing and exits 0 when they do not", ["-q"], "before", 0, ""],
    [
      "--summary --exit-code exits 1 when they differ",
      ["--summary", "--exit-code"],
      "after",
      1,
      "logs:",
    ],
  ];
  for (const [name, flags, other, code, out] of codes) {
    it(name, { timeout: 120_000 }, () => {
      const r = runCli(["db", "diff", before, other === "after" ? afterDb : before, ...flags]);
      assert.equal(r.code, code, r.stderr);
      if (out === "") assert.equal(r.stdout, "");
      else assert.match(r.stdout, new RegExp(out));
    });
  }

  it("an unknown --table is an error with the nearest name, exit 2", { timeout: 120_000 }, () => {
    const r = runCli(["db", "diff", before, afterDb, "--table", "user"]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /Unknown table "user" \(--table\).*did you mean "users"\?/);
    assert.equal(r.stderr.trim().split("\n").length, 1);
  });

  it("--table takes a name in another ASCII case", { timeout: 120_000 }, () => {
    const r = runCli(["db", "diff", before, afterDb, "--table", "USERS", "--summary"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /users: schema changed/);
    assert.doesNotMatch(r.stdout, /logs/);
  });

  it("--sql writes SQL that the sqlite3 shell applies to a copy of before to give after", {
    skip: needs("sqlite3", "sqldiff"),
    timeout: 120_000,
  }, () => {
    const r = runCli(["db", "diff", before, afterDb, "--sql"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^-- dbagenteval db diff --sql/);
    assert.match(r.stdout, /UPDATE "users" SET "role" = 'admin' WHERE "id" = 1;/);
    const copy = dir.file("copy.db");
    fs.copyFileSync(before, copy);
    const apply = spawnSync("sqlite3", ["-bail", copy], { input: r.stdout, encoding: "utf8" });
    assert.equal(apply.status, 0, apply.stderr);
    const check = runCli(["db", "diff", copy, afterDb, "--quiet"]);
    assert.equal(check.code, 0, check.stdout);
    const sqldiff = spawnSync("sqldiff", ["--primarykey", copy, afterDb], { encoding: "utf8" });
    assert.equal(sqldiff.stdout, "");
  });

  it("--sql FILE writes the file and the text on stdout, as every FILE output", {
    timeout: 120_000,
  }, () => {
    const file = dir.file("d.sql");
    const r = runCli(["db", "diff", before, afterDb, "--sql", file]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, runCli(["db", "diff", before, afterDb]).stdout);
    assert.match(fs.readFileSync(file, "utf8"), /COMMIT;\n$/);
  });

  it("--sql refuses two folders, exit 2", { timeout: 120_000 }, () => {
    const a = dir.file("fa");
    const b = dir.file("fb");
    fs.mkdirSync(a);
    fs.mkdirSync(b);
    const r = runCli(["db", "diff", a, b, "--sql"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--sql turns one database into another; pass two files/);
  });
});

describe("dbagenteval db diff --rowid", () => {
  const schema = "CREATE TABLE t(k TEXT PRIMARY KEY, v); CREATE TABLE m(a, b);";
  const a = makeDb(
    dir.file("ra.db"),
    `${schema} INSERT INTO t VALUES ('x', 1), ('y', 2); INSERT INTO m VALUES (1, 2), (3, 4);`,
  );
  const b = makeDb(
    dir.file("rb.db"),
    `${schema} INSERT INTO t VALUES ('y', 2), ('x', 1); INSERT INTO m VALUES (3, 4), (1, 2);`,
  );

  it("pairs rows by rowid like plain sqldiff, and by key with --primary-key (the default)", {
    skip: needs("sqlite3", "sqldiff"),
    timeout: 120_000,
  }, () => {
    const byKey = runCli(["db", "diff", a, b, "--summary", "--primary-key"]);
    assert.equal(byKey.code, 0, byKey.stderr);
    assert.match(byKey.stdout, /2 tables unchanged/);
    const byRowid = runCli(["db", "diff", a, b, "--summary", "--rowid"]);
    assert.equal(byRowid.code, 0, byRowid.stderr);
    assert.match(
      byRowid.stdout,
      / {2}m: 2 changed \(4 cells\), 0 added, 0 removed\n {2}t: 2 changed \(4 cells\), 0 added, 0 removed/,
    );
    const sqldiff = spawnSync("sqldiff", ["--summary", a, b], { encoding: "utf8" });
    assert.match(sqldiff.stdout, /m: 2 changes, 0 inserts, 0 deletes/);
    assert.match(sqldiff.stdout, /t: 2 changes, 0 inserts, 0 deletes/);
  });

  it("--sql with --rowid writes rowids, so the patched copy pairs by rowid too", {
    skip: needs("sqlite3", "sqldiff"),
    timeout: 120_000,
  }, () => {
    // Not a swap of unique keys between rowids: no UPDATE order can apply that.
    const b2 = makeDb(
      dir.file("rb2.db"),
      `${schema} INSERT INTO t VALUES ('p', 1), ('x', 5); INSERT INTO m VALUES (3, 4), (1, 2);`,
    );
    const r = runCli(["db", "diff", a, b2, "--sql", "--rowid"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /UPDATE "t" SET "k" = 'p' WHERE "rowid" = 1;/);
    const copy = dir.file("rcopy.db");
    fs.copyFileSync(a, copy);
    const apply = spawnSync("sqlite3", ["-bail", copy], { input: r.stdout, encoding: "utf8" });
    assert.equal(apply.status, 0, apply.stderr);
    assert.equal(runCli(["db", "diff", copy, b2, "--rowid", "--quiet"]).code, 0);
    assert.equal(spawnSync("sqldiff", [copy, b2], { encoding: "utf8" }).stdout, "");
  });

  it("refuses --rowid with --primary-key, exit 2", { timeout: 120_000 }, () => {
    const r = runCli(["db", "diff", a, b, "--rowid", "--primary-key"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--rowid and --primary-key choose how rows pair/);
  });
});
