import { after, describe, it } from "node:test";
import assert from "node:assert/strict";

import { tempDir } from "../../tests/fixtures.ts";
import { pgliteStart } from "./_pglite_start.ts";
import { folderBytes, HostStopped, startPgliteHost } from "./pglite_process.ts";

const dir = tempDir("dbagenteval-pglite-process-");
after(() => dir.cleanup());
const MB = 1024 * 1024;

/** A PGlite data directory on disk, from the empty database the code carries (no initdb). */
async function dataDir(name: string): Promise<string> {
  const data = dir.file(name);
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite({ dataDir: data, ...await pgliteStart(true) });
  await db.exec("CREATE TABLE t (x INT); INSERT INTO t VALUES (1), (2), (3);");
  await db.close();
  return data;
}

describe("startPgliteHost()", () => {
  it("kills the host when a statement writes past the data directory's allowance", {
    timeout: 120_000,
  }, async () => {
    const data = await dataDir("growth");
    const before = folderBytes(data);
    const host = await startPgliteHost({ kind: "dir", path: data }, {
      tempFileBytes: 64 * MB,
      memoryBytes: 1024 * MB,
      resultBytes: 64 * MB,
      watchDir: { path: data, growthBytes: 2 * MB },
    });
    try {
      // PGlite runs as its superuser: COPY to a file in its data directory is allowed there.
      const copy =
        "COPY (SELECT repeat('x', 1000) FROM generate_series(1, 2000000)) TO '/pglite/data/junk'";
      await assert.rejects(host.request("exec", copy, 60_000), (e: unknown) => {
        assert.ok(e instanceof HostStopped, String(e));
        assert.match(e.message, /wrote more than 2 MB into the data directory's copy/);
        return true;
      });
      assert.equal(host.alive, false);
      // Killed long before the 2 GB were written (the folder is looked at
      // twice a second: under Bun, a few hundred MB may be written by then).
      assert.ok(folderBytes(data) - before < 1000 * MB);
    } finally {
      await host.close();
    }
  });

  it("gives a statement that fails its error and stays up; kills it at a statement's deadline", {
    timeout: 120_000,
  }, async () => {
    const host = await startPgliteHost({ kind: "empty" }, {
      tempFileBytes: 64 * MB,
      memoryBytes: 1024 * MB,
      resultBytes: 64 * MB,
    });
    try {
      await assert.rejects(host.request("query", "SELECT * FROM nope", 10_000), (e: Error) => {
        assert.equal((e.cause as { code?: string }).code, "42P01");
        return true;
      });
      assert.deepEqual((await host.request("query", "SELECT 2::bigint AS n", 10_000))["rows"], [
        [2n],
      ]);
      const started = performance.now();
      await assert.rejects(host.request("exec", "SELECT pg_sleep(60)", 500), (e: unknown) => {
        assert.ok(e instanceof HostStopped, String(e));
        assert.equal(e.message, "the statement did not finish within 0.5 s");
        return true;
      });
      assert.ok(performance.now() - started < 10_000);
      assert.equal(host.alive, false);
    } finally {
      await host.close();
    }
  });
});
