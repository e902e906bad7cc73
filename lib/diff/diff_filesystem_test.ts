import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import * as fs from "node:fs";
import { makeDb, snapshotDir, tempDir } from "../../tests/fixtures.ts";
import { UsageError } from "../errors.ts";
import { diffFilesystemDatabases } from "./diff_filesystem.ts";
import { globMatcher } from "./_glob.ts";

const dir = tempDir();
after(() => dir.cleanup());

function tree(root: string, files: Record<string, string | null>): string {
  for (const [rel, sql] of Object.entries(files)) {
    const full = `${root}/${rel}`;
    fs.mkdirSync(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    if (sql === null) fs.writeFileSync(full, "this is not a database, just text");
    else makeDb(full, sql);
  }
  return root;
}

describe("globMatcher()", () => {
  const cases: [string, string, boolean][] = [
    ["*.db", "a.db", true],
    ["*.db", "deep/in/a.db", true],
    ["*.db", "a.db-wal", false],
    ["*.sqlite3", "x.sqlite", false],
    ["**/data/*.db", "data/a.db", true],
    ["**/data/*.db", "x/y/data/a.db", true],
    ["**/data/*.db", "x/a.db", false],
    ["app?.db", "app1.db", true],
    ["[ab].db", "c.db", false],
  ];
  for (const [glob, path, expected] of cases) {
    it(`${glob} ${expected ? "matches" : "does not match"} ${path}`, () => {
      assert.equal(globMatcher(glob)(path), expected);
    });
  }
});

describe("diffFilesystemDatabases()", () => {
  const before = tree(`${dir.path}/before`, {
    "app.db": "CREATE TABLE t(a); INSERT INTO t VALUES (1);",
    "nested/old.sqlite": "CREATE TABLE t(a);",
    "same.db": "CREATE TABLE t(a);",
    "broken.db": null,
    "notes.txt": null,
  });
  const afterDir = tree(`${dir.path}/after`, {
    "app.db": "CREATE TABLE t(a); INSERT INTO t VALUES (1),(2);",
    "nested/new.sqlite3": "CREATE TABLE n(b);",
    "same.db": "CREATE TABLE t(a);",
    "broken.db": null,
    "notes.txt": null,
  });

  it("diffs every database by relative path, in path order", async () => {
    const snapBefore = snapshotDir(before);
    const diff = await diffFilesystemDatabases(before, afterDir);
    assert.deepEqual(
      diff.databases.map((d) => [d.name, d.status, d.exists_before, d.exists_after]),
      [
        ["app.db", "changed", true, true],
        ["broken.db", "unchanged", true, true],
        ["nested/new.sqlite3", "added", false, true],
        ["nested/old.sqlite", "removed", true, false],
        ["same.db", "unchanged", true, true],
      ],
    );
    assert.equal(diff.databases[0]?.tables[0]?.counts.added, 1);
    assert.deepEqual(snapshotDir(before), snapBefore);
  });

  it("reports a matching file that is not SQLite instead of failing", async () => {
    const diff = await diffFilesystemDatabases(before, afterDir);
    const broken = diff.databases.find((d) => d.name === "broken.db");
    assert.match(broken?.error ?? "", /not a SQLite database/);
  });

  it("compares files that are not SQLite chunk by chunk, to their last byte", async () => {
    // Past one chunk (1 MiB): equal, a last byte apart, a byte shorter.
    const text = Buffer.alloc(1024 * 1024 + 5, "not a database ");
    const other = Buffer.from(text);
    other[other.length - 1] = 0x21;
    const files: Record<string, Buffer> = {
      same: text,
      last: other,
      short: text.subarray(0, text.length - 1),
    };
    for (const [name, bytes] of Object.entries(files)) {
      fs.writeFileSync(`${dir.path}/${name}_a.db`, text);
      fs.writeFileSync(`${dir.path}/${name}_b.db`, bytes);
    }
    const diff = await diffFilesystemDatabases(
      Object.fromEntries(Object.keys(files).map((n) => [n, `${dir.path}/${n}_a.db`])),
      Object.fromEntries(Object.keys(files).map((n) => [n, `${dir.path}/${n}_b.db`])),
    );
    assert.deepEqual(diff.databases.map((d) => [d.name, d.status]), [
      ["last", "changed"],
      ["same", "unchanged"],
      ["short", "changed"],
    ]);
  });

  it("uses dbPatterns, **/ globs included", async () => {
    const diff = await diffFilesystemDatabases(before, afterDir, {
      dbPatterns: ["**/nested/*"],
    });
    assert.deepEqual(diff.databases.map((d) => d.name), [
      "nested/new.sqlite3",
      "nested/old.sqlite",
    ]);
  });

  it("accepts maps of relative path to file", async () => {
    const diff = await diffFilesystemDatabases(
      { "x.db": `${before}/app.db` },
      { "x.db": `${afterDir}/app.db` },
    );
    assert.deepEqual(diff.databases.map((d) => [d.name, d.status]), [["x.db", "changed"]]);
  });

  it("rejects a side that is not a folder", async () => {
    await assert.rejects(
      diffFilesystemDatabases(`${before}/app.db`, afterDir),
      (e: unknown) => e instanceof UsageError && /is not a folder/.test(e.message),
    );
  });
});
