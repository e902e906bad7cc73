import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, snapshotDir, tempDir } from "../../tests/fixtures.ts";
import { tempFileStats } from "../sqlite/_temp_files.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import { rowSummary, table } from "./_test_util.ts";

/** A keyless table of `n` rows; rows repeat every 1000 values of `a` so duplicates count. */
const keyless = (n: number): string =>
  `CREATE TABLE t(a INTEGER, b TEXT);
   WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${n})
   INSERT INTO t SELECT i % 1000, printf('row %08d of a table without a key', i) FROM c;`;

describe("diffSqliteDatabases() on a keyless table rebuilt by VACUUM (every rowid moved)", () => {
  it("spills its sort to scratch files in the temp folder, removes them, and finds the 1 removed row", async () => {
    const inputs = tempDir();
    const scratch = tempDir("dbagenteval-scratch-");
    const saved = process.env["TMPDIR"];
    try {
      // 80k rows of ~45 bytes: more than the 2 MB page cache the sorter may hold.
      const a = makeDb(inputs.file("a.db"), keyless(80_000));
      const b = makeDb(inputs.file("b.db"), keyless(80_000) + "DELETE FROM t WHERE rowid = 5;");
      makeDb(b, "VACUUM");
      const before = snapshotDir(inputs.path);
      process.env["TMPDIR"] = scratch.path;
      const created = tempFileStats().created;
      const diff = await diffSqliteDatabases(a, b, {});
      const stats = tempFileStats();
      process.env["TMPDIR"] = saved;
      const t = table(diff.databases[0]!, "t");
      assert.deepEqual(t.counts, { added: 0, removed: 1, changed: 0 });
      assert.deepEqual(structuredClone(rowSummary(t)).removed, [{
        a: 5,
        b: "row 00000005 of a table without a key",
      }]);
      assert.equal(stats.dir, scratch.path);
      assert.ok(stats.created > created, "the sorter spilled to scratch files");
      assert.equal(stats.open, 0);
      assert.deepEqual(fs.readdirSync(scratch.path), [], "scratch files removed");
      assert.deepEqual(snapshotDir(inputs.path), before, "inputs untouched, nothing beside them");
    } finally {
      if (saved === undefined) delete process.env["TMPDIR"];
      else process.env["TMPDIR"] = saved;
      inputs.cleanup();
      scratch.cleanup();
    }
  });
});
