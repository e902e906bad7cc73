import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { openDatabase } from "../sqlite/database.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import { readSchema } from "./schema.ts";

const dir = tempDir();
after(() => dir.cleanup());
let n = 0;

describe("readSchema()", () => {
  const cases: [string, string, string, string[]][] = [
    ["an INTEGER PRIMARY KEY is the rowid", "CREATE TABLE t(id INTEGER PRIMARY KEY, x)", "rowid", [
      "id",
    ]],
    [
      "an INTEGER PRIMARY KEY ASC is the rowid",
      "CREATE TABLE t(id INTEGER PRIMARY KEY ASC, x)",
      "rowid",
      ["id"],
    ],
    [
      "an INTEGER PRIMARY KEY DESC is not the rowid",
      "CREATE TABLE t(id INTEGER PRIMARY KEY DESC, x)",
      "primary_key",
      ["id"],
    ],
    [
      "an INT PRIMARY KEY is not the rowid",
      "CREATE TABLE t(id INT PRIMARY KEY, x)",
      "primary_key",
      ["id"],
    ],
    [
      "a WITHOUT ROWID INTEGER key is a primary key",
      "CREATE TABLE t(id INTEGER PRIMARY KEY, x) WITHOUT ROWID",
      "primary_key",
      ["id"],
    ],
    ["a table without a key has none", "CREATE TABLE t(a, b)", "none", []],
  ];
  for (const [name, sql, kind, key] of cases) {
    it(`readSchema() says ${name}`, async () => {
      const file = makeDb(dir.file(`s${++n}.db`), sql);
      const db = await openDatabase(file);
      try {
        const t = readSchema(db, "main").tables.get("t")!;
        assert.deepEqual([t.keyKind, t.key], [kind, key]);
      } finally {
        db.close();
      }
    });
  }
});

describe("diffSqliteDatabases() with an INTEGER PRIMARY KEY DESC", () => {
  it("diffSqliteDatabases() finds a change in a large table whose ids are not its rowids", async () => {
    const a = dir.file(`desc${++n}.db`);
    const b = dir.file(`desc${n}-after.db`);
    const db = new DatabaseSync(a);
    db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY DESC, v TEXT)");
    const ins = db.prepare("INSERT INTO t(id, v) VALUES (?, ?)");
    db.exec("BEGIN");
    for (let i = 0; i < 5000; i++) ins.run(5000 - i, "x".repeat(50));
    db.exec("COMMIT");
    db.close();
    // A byte copy changed in place: only the page holding rowid 10 differs.
    fs.copyFileSync(a, b);
    const after = new DatabaseSync(b);
    after.exec("UPDATE t SET v = 'changed' WHERE rowid = 10");
    after.close();
    const t = structuredClone(await diffSqliteDatabases(a, b)).databases[0]!.tables[0]!;
    assert.deepEqual(t.counts, { added: 0, removed: 0, changed: 1, changed_cells: 1 });
    assert.deepEqual(t.rows.changed[0]?.key, { id: 4991 });
    assert.deepEqual(t.rows.changed[0]?.after, { id: 4991, v: "changed" });
  });
});
