/**
 * `db diff --table` reads only what the named tables need (issue 20), and
 * an error met while comparing one table names it.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { Buffer } from "node:buffer";
import { spawnSync } from "node:child_process";
import { DatabaseSync } from "node:sqlite";
import { firstLeaf, makeDb, tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";
import { needs } from "./system_packages.ts";

const dir = tempDir();
after(() => dir.cleanup());

const ROWS = "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 3000)";

/** Page `p` of `file` (4096-byte pages) overwritten with `byte`. */
function damage(file: string, p: number, byte: number): void {
  const fd = fs.openSync(file, "r+");
  fs.writeSync(fd, Buffer.alloc(4096, byte), 0, 4096, (p - 1) * 4096);
  fs.closeSync(fd);
}

describe("db diff --table", () => {
  it("diffs the named table while another table's pages are damaged in both files", {
    timeout: 120_000,
  }, () => {
    const fill = "CREATE TABLE o(id INTEGER PRIMARY KEY, v TEXT); CREATE TABLE t(id INTEGER " +
      `PRIMARY KEY, v TEXT); ${ROWS} INSERT INTO o SELECT i, 'o' || i FROM s; ` +
      "INSERT INTO t VALUES (1, 'a'), (2, 'b');";
    const a = makeDb(dir.file("damaged_a.db"), fill);
    const b = dir.file("damaged_b.db");
    fs.copyFileSync(a, b);
    const db = new DatabaseSync(b);
    db.exec("UPDATE t SET v = 'B' WHERE id = 2");
    db.close();
    const leaf = firstLeaf(a, "o");
    damage(a, leaf, 0xee);
    damage(b, leaf, 0x77);
    const r = runCli(["db", "diff", a, b, "--table", "t"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /t: changed; rows: 1 changed, 0 added, 0 removed/);
    assert.match(r.stdout, /~ id=2: v 'b' -> 'B'/);
    const all = runCli(["db", "diff", a, b]);
    assert.equal(all.code, 2);
    assert.match(all.stderr, /damaged_a\.db.*damaged/);
    assert.equal(all.stderr.trim().split("\n").length, 1);
  });
});

/**
 * A file whose tables declare a collation this SQLite does not have, the
 * way Android databases declare `COLLATE LOCALIZED`: written with NOCASE,
 * then the schema's text rewritten by the sqlite3 shell.
 */
function localized(name: string, sql: string): string {
  const file = makeDb(dir.file(name), sql);
  const r = spawnSync("sqlite3", [
    file,
    "PRAGMA writable_schema = ON; " +
    "UPDATE sqlite_schema SET sql = replace(sql, 'COLLATE NOCASE', 'COLLATE LOCALIZED');",
  ], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return file;
}

describe("db diff on a table with a collation SQLite lacks", { skip: needs("sqlite3") }, () => {
  const schema = "CREATE TABLE contacts(name TEXT COLLATE NOCASE PRIMARY KEY, phone TEXT) " +
    "WITHOUT ROWID; CREATE TABLE people(name TEXT COLLATE NOCASE PRIMARY KEY, phone TEXT); " +
    "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT COLLATE NOCASE);";
  const rows = (phone: string) =>
    `INSERT INTO contacts VALUES ('ann', '1'), ('Bob', '${phone}'); ` +
    `INSERT INTO people VALUES ('ann', '1'), ('Bob', '${phone}'); ` +
    `INSERT INTO notes VALUES (1, 'x'), (2, '${phone}');`;
  const a = localized("coll_a.db", `${schema} ${rows("2")}`);
  const b = localized("coll_b.db", `${schema} ${rows("9")}`);

  it("fails in one line naming the table, the collation and what to do, exit 2", {
    timeout: 120_000,
  }, () => {
    const cases: [string, string[], RegExp][] = [
      [
        "WITHOUT ROWID",
        ["--table", "contacts"],
        /^error: table "contacts": its key \(name\) needs collation "LOCALIZED", .*no rowid.*--table$/m,
      ],
      [
        "rowid table",
        ["--table", "people"],
        /^error: table "people": its key \(name\) needs collation "LOCALIZED", .*--rowid/,
      ],
    ];
    for (const [what, flags, message] of cases) {
      const r = runCli(["db", "diff", a, b, ...flags]);
      assert.equal(r.code, 2, `${what}: ${r.stdout}`);
      assert.match(r.stderr, message, what);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    }
  });

  it("compares a non-key column with that collation, and a rowid table by rowid", {
    timeout: 120_000,
  }, () => {
    const r = runCli(["db", "diff", a, b, "--table", "notes", "--table", "people", "--rowid"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /~ id=2: body '2' -> '9'/);
    assert.match(r.stdout, /~ rowid=2: phone '2' -> '9'/);
  });
});
