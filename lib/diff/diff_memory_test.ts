/**
 * The diff's memory stays flat: a diff of files whose every leaf changed
 * runs in a child process whose JavaScript heap is capped far below what
 * holding the file's rows, leaves or changes would take. The cap is a V8
 * flag, so the child is Deno (under Bun too, when `deno` is installed).
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { denoPath, ROOT } from "../../tests/cli.ts";

/** The heap cap, MB: the CLI needs about 16 to diff anything. */
const HEAP_MB = 24;
const ROWS = 200_000;

const dir = tempDir();
after(() => dir.cleanup());

function capped(deno: string, args: readonly string[]): { code: number; stderr: string } {
  const r = spawnSync(
    deno,
    [
      "run",
      "--allow-all",
      "--quiet",
      `--v8-flags=--max-old-space-size=${HEAP_MB}`,
      path.join(ROOT, "cli.ts"),
      ...args,
    ],
    { encoding: "utf8", timeout: 180_000, env: { ...process.env, NO_COLOR: "1" } },
  );
  return { code: r.status ?? -1, stderr: r.stderr ?? "" };
}

describe(`db diff under a ${HEAP_MB} MB JavaScript heap`, () => {
  const deno = denoPath();
  const make = `CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);
    WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${ROWS})
    INSERT INTO t SELECT i, printf('row %06d of the table, some text', i) FROM c;`;
  const files = deno === null ? null : {
    a: makeDb(dir.file("a.db"), make),
    // Every row changed: every leaf differs, and 200k changes are found.
    b: makeDb(dir.file("b.db"), `${make} UPDATE t SET v = v || '!';`),
  };

  it(
    "writes the JSON document of 200k changed rows",
    { skip: deno === null && "needs deno" },
    () => {
      const out = dir.file("diff.json");
      const r = capped(deno!, ["db", "diff", files!.a, files!.b, "--json", out]);
      assert.equal(r.code, 0, r.stderr.slice(-500));
      const doc = JSON.parse(fs.readFileSync(out, "utf8"));
      assert.deepEqual(doc.databases[0].tables[0].counts, {
        added: 0,
        removed: 0,
        changed: ROWS,
        changed_cells: ROWS,
      });
    },
  );

  it("streams 200k UPDATE statements with --sql", { skip: deno === null && "needs deno" }, () => {
    const out = dir.file("patch.sql");
    const r = capped(deno!, ["db", "diff", files!.a, files!.b, "--sql", out]);
    assert.equal(r.code, 0, r.stderr.slice(-500));
    const updates = fs.readFileSync(out, "utf8").split("\n").filter((l) => l.startsWith("UPDATE"));
    assert.equal(updates.length, ROWS);
  });

  it("is a cap that bites: keeping every changed row runs out of it", {
    skip: deno === null && "needs deno",
  }, () => {
    const r = capped(deno!, [
      "db",
      "diff",
      files!.a,
      files!.b,
      "--json",
      dir.file("all.json"),
      "--max-rows",
      String(ROWS),
      "--max-bytes",
      "1G",
    ]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /out of memory/i);
  });
});
