import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { makeDb, snapshotDir, tempDir } from "../../tests/fixtures.ts";
import { copyAgentDb } from "../eval/agent_db.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";

const dir = tempDir();
after(() => dir.cleanup());

// Enough rows for several pages, so the page scan has something to skip.
const BASE = `CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 20000)
  INSERT INTO t SELECT i, 'value ' || i FROM s;`;

describe("a database reached through a symlink", () => {
  const before = makeDb(dir.file("before.db"), BASE, { journal: "wal" });
  // The after side is a byte copy of before whose only change is still in
  // its -wal file, so page skipping sees identical files unless it looks at
  // the -wal.
  const real = dir.file("real.db");
  const scratch = tempDir();
  after(() => scratch.cleanup());
  const writing = scratch.file("w.db");
  fs.copyFileSync(before, writing);
  const writer = new DatabaseSync(writing);
  writer.exec("PRAGMA wal_autocheckpoint=0; UPDATE t SET v = 'new' WHERE id = 15000;");
  fs.copyFileSync(writing, real);
  fs.copyFileSync(`${writing}-wal`, `${real}-wal`);
  writer.close();
  const link = dir.file("link.db");
  fs.symlinkSync(real, link);

  it("diffSqliteDatabases() reads the -wal beside the real file, not beside the link", async () => {
    const untouched = snapshotDir(dir.path);
    const diff = structuredClone(await diffSqliteDatabases(before, link));
    const t = diff.databases[0]?.tables.find((x) => x.name === "t");
    assert.equal(t?.counts.changed, 1);
    assert.deepEqual(t?.rows.changed[0]?.after, { id: 15000, v: "new" });
    assert.deepEqual(snapshotDir(dir.path), untouched);
  });

  it("copyAgentDb() copies the -wal beside the real file", async () => {
    const copy = copyAgentDb(link);
    try {
      const diff = await diffSqliteDatabases(before, copy.dbPath);
      assert.equal(diff.databases[0]?.tables.find((x) => x.name === "t")?.counts.changed, 1);
    } finally {
      copy.dispose();
    }
  });
});
