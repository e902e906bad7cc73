/**
 * The round trip of `db diff --sql` and `--changeset` on seeded pairs
 * (tests/_diff_pairs.ts with `roundTrip`: text with NUL and CR LF,
 * generated columns that show 1 against 1.0, AUTOINCREMENT keys updated,
 * FTS5 tables, keyless tables rebuilt with other column types, every
 * second pair in UTF-16 but for those with an FTS5 table, on top of
 * every shape the differential test has). Each pair's --sql is applied to a
 * copy of the before file with the sqlite3 shell, its --changeset with
 * `sqlite3changeset_apply`, and each result diffed against the after file:
 * nothing may differ (schema, sqlite_sequence, indexes, views and triggers
 * included; for the changeset, the tables it names as left out and the
 * schema objects it cannot carry aside).
 *
 * DBAGENTEVAL_ROUNDTRIP_PAIRS=500 runs more pairs (default 60);
 * bench/roundtrip.ts runs fresh seeds.
 *
 * @module
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import process from "node:process";
import { tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";
import { buildPair } from "./diff_pairs.ts";
import {
  applyChangeset,
  applySqlWithShell,
  changesetPatch,
  differences,
  sqlPatch,
} from "./apply_patch.ts";
import { needs } from "./system_packages.ts";

const PAIRS = Number(process.env["DBAGENTEVAL_ROUNDTRIP_PAIRS"] ?? 60);
const SEED = 27_100;
/** The first pairs go through the CLI (or the binary); the rest through the library. */
const THROUGH_CLI = 3;

const dir = tempDir("dbagenteval-roundtrip-");
after(() => dir.cleanup());

describe(`db diff --sql and --changeset round trip (${PAIRS} seeded pairs, seed ${SEED})`, {
  skip: needs("sqlite3"),
}, () => {
  it("every pair patched with the shell and with sqlite3changeset_apply diffs unchanged", {
    timeout: 600_000,
  }, async () => {
    const problems: string[] = [];
    for (let n = 0; n < PAIRS; n++) {
      const a = dir.file(`a${n}.db`);
      const b = dir.file(`b${n}.db`);
      buildPair(n, SEED + n, a, b, true, true);
      let sql: string;
      let changeset: { bytes: Uint8Array; omitted: string[] };
      if (n < THROUGH_CLI) {
        const sqlFile = dir.file(`d${n}.sql`);
        const csFile = dir.file(`d${n}.changeset`);
        const r = runCli(["db", "diff", a, b, "--sql", sqlFile]);
        assert.equal(r.code, 0, r.stderr);
        const c = runCli(["db", "diff", a, b, "--changeset", csFile]);
        assert.equal(c.code, 0, c.stderr);
        sql = fs.readFileSync(sqlFile, "utf8");
        changeset = { bytes: fs.readFileSync(csFile), omitted: omittedOf(c.stderr) };
      } else {
        sql = await sqlPatch(a, b);
        changeset = await changesetPatch(a, b);
      }
      const shell = dir.file(`s${n}.db`);
      const failed = applySqlWithShell(a, sql, shell);
      const left = failed === null ? await differences(shell, b) : [failed];
      for (const p of left) problems.push(`seed ${SEED + n} --sql: ${p.slice(0, 400)}`);
      const applied = dir.file(`c${n}.db`);
      const conflict = await applyChangeset(a, changeset.bytes, applied);
      const csLeft = conflict === null
        ? await differences(applied, b, changeset.omitted, false)
        : [conflict];
      for (const p of csLeft) problems.push(`seed ${SEED + n} --changeset: ${p.slice(0, 400)}`);
    }
    assert.deepEqual(problems, []);
  });
});

/** The tables `db diff --changeset` named on stderr as not in the changeset. */
function omittedOf(stderr: string): string[] {
  return [...stderr.matchAll(/^note: (.+) is not in the changeset \(/gm)].map((m) => m[1]!);
}
