import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import { childDiff } from "./_test_util.ts";

const dir = tempDir();
after(() => dir.cleanup());

const SCHEMA = `
  CREATE TABLE plain(id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'x', score REAL);
  CREATE TABLE desc_key(id integer PRIMARY KEY DESC, v);
  CREATE TABLE composite(k TEXT, n INT, v, PRIMARY KEY (n, k));
  CREATE TABLE nokey(a, b BLOB);
  CREATE TABLE wr(k TEXT PRIMARY KEY, v ANY) WITHOUT ROWID;
  CREATE TABLE gen(a INT, b INT GENERATED ALWAYS AS (a * 2) STORED, c AS (a + 1));
  CREATE TABLE auto(id INTEGER PRIMARY KEY AUTOINCREMENT, v);
  CREATE TABLE "odd ""name"""([a b] TEXT, "c""d" INT, PRIMARY KEY([a b]));
  ANALYZE;
  CREATE INDEX plain_name ON plain(name);
  CREATE VIEW v AS SELECT id FROM plain;
  CREATE TRIGGER tr AFTER INSERT ON plain BEGIN SELECT 1; END;
  INSERT INTO plain(name, score) VALUES ('a', 1.5), ('b', NULL);
  INSERT INTO auto(v) VALUES (1), (2);
  INSERT INTO gen(a) VALUES (1);
  INSERT INTO wr VALUES ('k', 1);
`;

function copy(file: string, name: string): string {
  const to = dir.file(name);
  fs.copyFileSync(file, to);
  return to;
}

describe("diffSqliteDatabases() on files that are page for page the same", () => {
  const a = makeDb(dir.file("a.db"), SCHEMA);
  const b = copy(a, "b.db");
  const za = makeDb(dir.file("za.db"), `${SCHEMA} CREATE TABLE zz(v); INSERT INTO zz VALUES (1);`);
  const zb = makeDb(dir.file("zb.db"), `${SCHEMA} CREATE TABLE zz(v); INSERT INTO zz VALUES (2);`);

  it("does not start the WebAssembly engine", () => {
    assert.deepEqual(childDiff(a, b), { status: "unchanged", started: false });
  });

  it("reports every table as SQLite reads it (key, key kind, columns, skips)", async () => {
    for (const pairBy of ["primary_key", "rowid"] as const) {
      const fast = (await diffSqliteDatabases(a, b, { pairBy })).databases[0]!;
      // The same tables beside one whose rows changed, named with --table: the
      // engine starts and reads their schema.
      const names = fast.tables.map((t) => t.name).concat(fast.skipped.map((s) => s.name));
      const slow = (await diffSqliteDatabases(za, zb, { pairBy, tables: [...names, "zz"] }))
        .databases[0]!;
      assert.equal(fast.status, "unchanged");
      assert.deepEqual(
        structuredClone(fast.tables),
        structuredClone(slow.tables.filter((t) => t.name !== "zz")),
      );
      assert.equal(slow.tables.find((t) => t.name === "zz")?.status, "changed");
      assert.deepEqual(fast.skipped, slow.skipped);
      assert.deepEqual(fast.objects, []);
      assert.ok(fast.tables.length >= 8);
    }
  });

  it("still sees a schema change that only touched page 1", async () => {
    const before = makeDb(dir.file("p1a.db"), "CREATE TABLE t(a INTEGER PRIMARY KEY, b);");
    const after = makeDb(
      dir.file("p1b.db"),
      "CREATE TABLE t(a INTEGER PRIMARY KEY, b); CREATE VIEW w AS SELECT a FROM t;",
    );
    const diff = (await diffSqliteDatabases(before, after)).databases[0]!;
    assert.equal(diff.status, "changed");
    assert.deepEqual(diff.objects.map((o) => [o.name, o.status]), [["w", "added"]]);
  });

  it("asks SQLite for a virtual table's columns", () => {
    const fts = makeDb(dir.file("fts.db"), "CREATE VIRTUAL TABLE f USING fts5(body);");
    assert.deepEqual(childDiff(fts, copy(fts, "fts2.db")), { status: "unchanged", started: true });
  });
});
