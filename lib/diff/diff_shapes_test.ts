import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, snapshotDir, tempDir } from "../../tests/fixtures.ts";
import { tempFileStats } from "../sqlite/temp_files.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import { rowSummary, table } from "./_test_util.ts";
import { renderDiffText, type RenderOptions } from "./render_text.ts";
import { diffFromJson, diffToJson } from "./json.ts";

/** A keyless table of `n` rows; rows repeat every 1000 values of `a` so duplicates count. */
const keyless = (n: number): string =>
  `CREATE TABLE t(a INTEGER, b TEXT);
   WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${n})
   INSERT INTO t SELECT i % 1000, printf('row %08d of a table without a key', i) FROM c;`;

describe("diffSqliteDatabases() on a keyless table whose rows all moved", () => {
  /** Diffs a.db and b.db with TMPDIR in a scratch folder; checks nothing is left behind. */
  const diffInScratch = async (
    change: string,
  ): Promise<{ diff: Awaited<ReturnType<typeof diffSqliteDatabases>>; spilled: boolean }> => {
    const inputs = tempDir();
    const scratch = tempDir("dbagenteval-scratch-");
    const saved = process.env["TMPDIR"];
    try {
      // 80k rows of ~45 bytes: more than the 2 MB page cache the sorter may hold.
      const a = makeDb(inputs.file("a.db"), keyless(80_000));
      const b = makeDb(inputs.file("b.db"), keyless(80_000) + change);
      makeDb(b, "VACUUM");
      const before = snapshotDir(inputs.path);
      process.env["TMPDIR"] = scratch.path;
      const created = tempFileStats().created;
      const diff = await diffSqliteDatabases(a, b, {});
      const stats = tempFileStats();
      process.env["TMPDIR"] = saved;
      assert.equal(stats.open, 0);
      assert.deepEqual(fs.readdirSync(scratch.path), [], "scratch files removed");
      assert.deepEqual(snapshotDir(inputs.path), before, "inputs untouched, nothing beside them");
      if (stats.created > created) assert.equal(stats.dir, scratch.path);
      return { diff, spilled: stats.created > created };
    } finally {
      if (saved === undefined) delete process.env["TMPDIR"];
      else process.env["TMPDIR"] = saved;
      inputs.cleanup();
      scratch.cleanup();
    }
  };

  it("finds the 1 removed row after VACUUM renumbered every rowid after it, comparing cells", async () => {
    const { diff } = await diffInScratch("DELETE FROM t WHERE rowid = 5;");
    const t = table(diff.databases[0]!, "t");
    assert.deepEqual(t.counts, { added: 0, removed: 1, changed: 0, changed_cells: 0 });
    assert.deepEqual(structuredClone(rowSummary(t)).removed, [{
      a: 5,
      b: "row 00000005 of a table without a key",
    }]);
  });

  it("spills its sort to scratch files in the temp folder when every row moved far, and removes them", async () => {
    // The same rows in reverse order: no cell is near its partner, so every
    // row goes to the multiset comparison, whose sort is bigger than the cache.
    const { diff, spilled } = await diffInScratch(
      `CREATE TEMP TABLE r AS SELECT * FROM t; DELETE FROM t;
       INSERT INTO t SELECT * FROM r ORDER BY rowid DESC; DELETE FROM t WHERE b LIKE '% 00000007 %';`,
    );
    const t = table(diff.databases[0]!, "t");
    assert.deepEqual(t.counts, { added: 0, removed: 1, changed: 0, changed_cells: 0 });
    assert.ok(spilled, "the sorter spilled to scratch files");
  });
});

/** A table of `width` columns (`id` first when keyed) and three rows; `change` edits the after file. */
function wide(width: number, keyed: boolean): string {
  const names = Array.from({ length: width }, (_, i) => (keyed && i === 0 ? "id" : `c${i}`));
  const cols = names.map((n) => (n === "id" ? "id INTEGER PRIMARY KEY" : n)).join(", ");
  const row = (r: number): string =>
    names.map((n, i) => (n === "id" ? r : `'v${r}.${i}'`)).join(", ");
  return `CREATE TABLE ${keyed ? "k" : "n"}(${cols});
    INSERT INTO ${keyed ? "k" : "n"} VALUES (${row(1)}), (${row(2)}), (${row(3)});`;
}

describe("diffSqliteDatabases() on tables as wide as SQLite allows (2,000 columns)", () => {
  const cases: [string, boolean, string, unknown][] = [
    [
      "reports the changed cell of a keyed table",
      true,
      "UPDATE k SET c1999 = 'changed' WHERE id = 2",
      {
        counts: { added: 0, removed: 0, changed: 1, changed_cells: 1 },
        changed: [["c1999"]],
      },
    ],
    [
      "reports a keyless row whose last cell changed as removed and added, after a rebuild",
      false,
      "UPDATE n SET c1999 = 'changed' WHERE rowid = 2; CREATE TABLE m AS SELECT * FROM n;" +
      "DELETE FROM n; INSERT INTO n SELECT * FROM m ORDER BY c1 DESC; DROP TABLE m; VACUUM",
      { counts: { added: 1, removed: 1, changed: 0, changed_cells: 0 }, changed: [] },
    ],
  ];
  for (const [name, keyed, change, expected] of cases) {
    it(name, async () => {
      const dir = tempDir();
      try {
        const a = makeDb(dir.file("a.db"), wide(2000, keyed));
        const b = makeDb(dir.file("b.db"), wide(2000, keyed) + change);
        const diff = await diffSqliteDatabases(a, b, {});
        const t = table(diff.databases[0]!, keyed ? "k" : "n");
        assert.deepEqual({
          counts: { ...t.counts },
          changed: t.rows.changed.map((r) => [...r.changed_columns]),
        }, expected);
        if (!keyed && t.rows.added.length > 0) {
          assert.equal(t.rows.added[0]!.row["c1999"], "changed");
          assert.equal(t.rows.removed[0]!.row["c1999"], "v2.1999");
          assert.equal(Object.keys(t.rows.added[0]!.row).length, 2000);
        }
      } finally {
        dir.cleanup();
      }
    });
  }
});

describe("diffSqliteDatabases() reads a wide table's values only for the rows it keeps", () => {
  it("keeps the first changed and the first removed row whole, past rows only counted", async () => {
    const dir = tempDir();
    try {
      // 2,000 columns, rows 1-6; rows 1-4 changed, 5 and 6 removed. With
      // one row kept per kind, the removed row 5 is read after four rows
      // whose values were skipped.
      const make = wide(2000, true) + `;
        INSERT INTO k SELECT id + 3, ${
        Array.from({ length: 1999 }, (_, i) => `c${i + 1}`).join(", ")
      } FROM k;`;
      const a = makeDb(dir.file("a.db"), make);
      const b = makeDb(
        dir.file("b.db"),
        make + "UPDATE k SET c7 = 'x', c1999 = 'y' WHERE id <= 4; DELETE FROM k WHERE id >= 5;",
      );
      const diff = await diffSqliteDatabases(a, b, { maxRows: 1 });
      const t = table(diff.databases[0]!, "k");
      // Every changed row's two cells are counted, the rows past the kept one too.
      assert.deepEqual(t.counts, { added: 0, removed: 2, changed: 4, changed_cells: 8 });
      // Rows have no prototype (see emptyRow): a clone compares with literals.
      const changed = structuredClone(t.rows.changed[0]!);
      assert.deepEqual([changed.key, changed.changed_columns], [{ id: 1 }, ["c7", "c1999"]]);
      assert.deepEqual(
        [changed.before["c1998"], changed.after["c1998"], changed.after["c1999"]],
        ["v1.1998", "v1.1998", "y"],
      );
      const removed = structuredClone(t.rows.removed[0]!);
      assert.deepEqual(removed.key, { id: 5 });
      assert.deepEqual(
        [Object.keys(removed.row).length, removed.row["id"], removed.row["c1999"]],
        [2000, 5, "v2.1999"],
      );
      // Such rows are held as their values (_held_rows.ts): read, rendered
      // and written as JSON like any row.
      assert.deepEqual(structuredClone(diffFromJson(diffToJson(diff))), structuredClone(diff));
      const held = t.rows.changed[0]!;
      assert.equal(held.before, held.before, "one object while it is held");
      const text = renderDiffText(diff).split("\n");
      assert.ok(
        text.includes(`  ~ id=1: c7 'v1.7' -> 'x', c1999 'v1.1999' -> 'y'`),
        text.join("\n"),
      );
    } finally {
      dir.cleanup();
    }
  });
});

describe("diffSqliteDatabases() keeps rows within a byte budget (maxBytes)", () => {
  // 20 rows whose 100 kB BLOB changed: 200 kB a changed row, before and after.
  const before = `CREATE TABLE b(id INTEGER PRIMARY KEY, v BLOB);
    WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 20)
    INSERT INTO b SELECT i, zeroblob(100000) FROM s;
    CREATE TABLE k(v BLOB); INSERT INTO k SELECT v FROM b;`;
  const after = before + "UPDATE b SET v = randomblob(100000); UPDATE k SET v = x'00';";
  const cases: [string, number | undefined, unknown][] = [
    ["keeps every row under the default budget", undefined, {
      kept: [20, 20, 20],
      counts: { changed: 20, added: 20, removed: 20 },
      truncated: false,
      bytes_cut: undefined,
    }],
    [
      "keeps the first rows that fit 1 MB, counts the rest, and says values were cut",
      1_000_000,
      {
        kept: [4, 0, 0],
        counts: { changed: 20, added: 20, removed: 20 },
        truncated: true,
        bytes_cut: true,
      },
    ],
  ];
  for (const [name, maxBytes, expected] of cases) {
    it(name, async () => {
      const dir = tempDir();
      try {
        const a = makeDb(dir.file("a.db"), before);
        const b = makeDb(dir.file("b.db"), after);
        const diff = await diffSqliteDatabases(
          a,
          b,
          maxBytes === undefined ? {} : { maxBytes },
        );
        const tb = table(diff.databases[0]!, "b");
        const tk = table(diff.databases[0]!, "k");
        assert.deepEqual({
          kept: [tb.rows.changed.length, tk.rows.added.length, tk.rows.removed.length],
          counts: {
            changed: tb.counts.changed,
            added: tk.counts.added,
            removed: tk.counts.removed,
          },
          truncated: tb.truncated || tk.truncated,
          bytes_cut: tb.bytes_cut,
        }, expected);
        assert.equal(diff.settings.max_bytes, maxBytes ?? 8 * 1024 * 1024);
      } finally {
        dir.cleanup();
      }
    });
  }
});

describe("renderDiffText() for a person", () => {
  const cases: [string, string, string, RenderOptions, string[]][] = [
    [
      "shows where a long BLOB changed: the first differing byte and the bytes around it",
      "CREATE TABLE b(id INTEGER PRIMARY KEY, v BLOB); INSERT INTO b VALUES (1, zeroblob(1000));",
      "CREATE TABLE b(id INTEGER PRIMARY KEY, v BLOB);" +
      "INSERT INTO b VALUES (1, CAST(zeroblob(500) || x'ff' || zeroblob(499) AS BLOB));",
      {},
      [
        "  ~ id=1: v 1000 -> 1000 bytes, first difference at byte 500: " +
        `x'...${"00".repeat(17)}...' -> x'...${"00".repeat(8)}ff${"00".repeat(8)}...'`,
      ],
    ],
    [
      "shows an added column's DEFAULT",
      "CREATE TABLE t(id INTEGER PRIMARY KEY);",
      "CREATE TABLE t(id INTEGER PRIMARY KEY, status TEXT DEFAULT 'new');",
      {},
      ["    + column status TEXT DEFAULT 'new'"],
    ],
    [
      "counts unchanged tables in one line",
      "CREATE TABLE a(x); CREATE TABLE b(x); CREATE TABLE c(x);",
      "CREATE TABLE a(x); CREATE TABLE b(x); CREATE TABLE c(x); INSERT INTO c VALUES (1);",
      {},
      ["  2 unchanged tables", "  c: changed; rows: 0 changed, 1 added, 0 removed"],
    ],
    [
      "lists unchanged tables when asked",
      "CREATE TABLE a(x); CREATE TABLE b(x);",
      "CREATE TABLE a(x); CREATE TABLE b(x); INSERT INTO b VALUES (1);",
      { showUnchanged: true },
      ["  a: unchanged"],
    ],
  ];
  for (const [name, before, after, options, lines] of cases) {
    it(name, async () => {
      const dir = tempDir();
      try {
        const a = makeDb(dir.file("a.db"), before);
        const b = makeDb(dir.file("b.db"), after);
        const text = renderDiffText(await diffSqliteDatabases(a, b), options).split("\n");
        for (const line of lines) {
          assert.ok(text.includes(line), `${line}\nnot in\n${text.join("\n")}`);
        }
      } finally {
        dir.cleanup();
      }
    });
  }
});
