/**
 * Every output file a command writes gets its folder created when missing
 * (`--json out/run.json` on a fresh checkout), for every command that
 * writes files; a path whose folder is a file is refused before any work.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";

const dir = tempDir("dbagenteval-output-folders-");
after(() => dir.cleanup());

const before = makeDb(dir.file("before.db"), "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);");
const afterDb = makeDb(
  dir.file("after.db"),
  "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'x');",
);

describe("output files in folders that do not exist yet", () => {
  const cases: [string, string[], number, string][] = [
    [
      "db diff --json",
      ["db", "diff", before, afterDb, "--json", "d1/a/diff.json"],
      0,
      "d1/a/diff.json",
    ],
    [
      "db diff --sql",
      ["db", "diff", before, afterDb, "--sql", "d2/a/patch.sql"],
      0,
      "d2/a/patch.sql",
    ],
    [
      "db diff --changeset",
      ["db", "diff", before, afterDb, "--changeset", "d3/a/c.bin"],
      0,
      "d3/a/c.bin",
    ],
    [
      "counterexample --json",
      [
        "counterexample",
        "--db",
        afterDb,
        "--reference",
        "SELECT count(*) AS n FROM t WHERE id > 1",
        "--candidate",
        "SELECT count(*) AS n FROM t WHERE id >= 1",
        "--json",
        "d4/a/ce.json",
      ],
      1,
      "d4/a/ce.json",
    ],
  ];
  for (const [name, args, code, file] of cases) {
    it(`${name} creates the folders of its file`, { timeout: 120_000 }, () => {
      const r = runCli(args, { cwd: dir.path });
      assert.equal(r.code, code, r.stderr);
      assert.ok(fs.statSync(dir.file(file)).size > 0, `${file} was not written`);
    });
  }

  it("db diff --json refuses a folder that is a file, naming it, exit 2", () => {
    const r = runCli(["db", "diff", before, afterDb, "--json", "before.db/x.json"], {
      cwd: dir.path,
    });
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      "error: --json before.db/x.json: cannot create its folder (before.db is not a folder)\n",
    );
  });
});
