/**
 * `db diff --changeset`: the changeset is applied to an in-memory copy of
 * the before file with the WASM build's `sqlite3changeset_apply` (any
 * conflict aborts), and the result diffed against the after file: every
 * table the changeset carries must then be the same.
 *
 * @module
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
import {
  applyChangeset as applyChangesetTo,
  changesetPatch as changesetOf,
} from "./apply_patch.ts";
import { makeDb, tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";
import { buildPair } from "./diff_pairs.ts";

const dir = tempDir("dbagenteval-changeset-");
after(() => dir.cleanup());

/** Applies `changeset` to a copy of `file` at `out`; any conflict fails the test. */
async function applyChangeset(file: string, changeset: Uint8Array, out: string): Promise<void> {
  assert.equal(await applyChangesetTo(file, changeset, out), null);
}

describe("db diff --changeset", () => {
  it(
    "writes a changeset that sqlite3changeset_apply turns into after (CLI)",
    { timeout: 120_000 },
    async () => {
      const schema = `CREATE TABLE u(id INTEGER PRIMARY KEY, name TEXT, v);
      CREATE TABLE c(k TEXT COLLATE NOCASE, n INT, v, PRIMARY KEY(n, k)) WITHOUT ROWID;
      CREATE TABLE logs(msg);`;
      const a = makeDb(
        dir.file("a.db"),
        `${schema} INSERT INTO u VALUES (1, 'ann', 1.5), (2, 'bob', x'00ff'), (3, 'cy', NULL);
       INSERT INTO c VALUES ('a', 1, 'x'), ('b', 2, 'y'); INSERT INTO logs VALUES ('l');`,
      );
      const b = makeDb(
        dir.file("b.db"),
        `${schema} INSERT INTO u VALUES (1, 'ann', 2.5), (2, CAST(x'ff' AS TEXT), x'00ff'),
         (4, 'di', 9007199254740993);
       INSERT INTO c VALUES ('A', 1, 'x'), ('b', 2, 'z'); INSERT INTO logs VALUES ('m');`,
      );
      const file = dir.file("d.changeset");
      const r = runCli(["db", "diff", a, b, "--changeset", file]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, "note: logs is not in the changeset (no primary key)\n");
      const out = dir.file("applied.db");
      await applyChangeset(a, fs.readFileSync(file), out);
      const diff = await diffSqliteDatabases(out, b);
      assert.deepEqual(
        diff.databases[0]!.tables.map((t) => [t.name, t.status]),
        [["c", "unchanged"], ["logs", "changed"], ["u", "unchanged"]],
      );
    },
  );

  it("encodes integers across the 32-bit halves, reals, -0 and wide rows", async () => {
    // Values a changeset writes as 8 bytes: negative, past 2^32, at 2^53 and
    // 2^63; each row changed, removed or added, so old values must match too.
    const ints = [
      "-1",
      "-2147483648",
      "-2147483649",
      "4294967295",
      "4294967296",
      "-4294967296",
      "-4294967297",
      "9007199254740991",
      "-9007199254740991",
      "9223372036854775807",
      "-9223372036854775808",
      "0.5",
      "-0.0",
      "1e300",
    ];
    const cols = Array.from({ length: 150 }, (_, i) => `c${i}`);
    const make = (names: readonly string[]): string =>
      `CREATE TABLE e(id INTEGER PRIMARY KEY, v);
       INSERT INTO e VALUES ${ints.map((v, i) => `(${i + 1}, ${v})`).join(", ")};
       CREATE TABLE w(id INTEGER PRIMARY KEY, ${names.join(", ")});
       INSERT INTO w VALUES ${
        [1, 2, 3].map((r) => `(${r}, ${cols.map((_, j) => `${r * 1000 + j}`).join(", ")})`)
          .join(", ")
      };`;
    const a = makeDb(dir.file("ia.db"), make(cols));
    const b = makeDb(
      dir.file("ib.db"),
      make(cols) +
        `UPDATE e SET v = -v WHERE id % 2 = 0; DELETE FROM e WHERE id = 3;
         INSERT INTO e VALUES (100, -9007199254740993), (101, -123456789012);
         UPDATE w SET C7 = -C7, C149 = 'x' WHERE id = 2; DELETE FROM w WHERE id = 3;
         INSERT INTO w SELECT 4, ${cols.map((_, j) => `-${j}`).join(", ")};`,
    );
    const { bytes, omitted } = await changesetOf(a, b);
    assert.deepEqual(omitted, []);
    const out = dir.file("ic.db");
    await applyChangeset(a, bytes, out);
    const diff = await diffSqliteDatabases(out, b, { includeSchema: false });
    assert.deepEqual(
      diff.databases[0]!.tables.map((t) => [t.name, t.status]),
      [["e", "unchanged"], ["w", "unchanged"]],
    );
  });

  it("carries every table it can of 40 seeded pairs", { timeout: 600_000 }, async () => {
    const problems: string[] = [];
    for (let n = 0; n < 40; n++) {
      const a = dir.file(`pa${n}.db`);
      const b = dir.file(`pb${n}.db`);
      buildPair(n, 777 + n, a, b);
      const { bytes, omitted } = await changesetOf(a, b);
      const out = dir.file(`pc${n}.db`);
      try {
        await applyChangeset(a, bytes, out);
      } catch (e) {
        problems.push(`p${n}: ${(e as Error).message}`);
        continue;
      }
      const diff = await diffSqliteDatabases(out, b, { includeSchema: false });
      for (const t of diff.databases[0]!.tables) {
        if (t.status !== "unchanged" && !omitted.includes(t.name)) {
          problems.push(`p${n} ${t.name}: ${JSON.stringify(t.counts)}`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });
});
