/**
 * `counts.changed_cells`: the cells the changed rows changed, counted for
 * every changed row whichever strategy diffed the table, whether the row
 * was kept or only counted past `maxRows`.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { diffSql, table } from "./_test_util.ts";
import { renderDiffSummary } from "./render_summary.ts";
import { diffFromJson, diffToJson } from "./json.ts";
import { diffDatabaseDiffs } from "./diff_of_diffs.ts";
import { type DatabaseDiff, DIFF_FORMAT_VERSION } from "./types.ts";

const rows = (n: number, insert: string): string =>
  `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${n}) ${insert};`;

describe("counts.changed_cells", () => {
  const cases: [string, string, string, number, number][] = [
    [
      "a rowid table diffed from its cells",
      `CREATE TABLE t(id INTEGER PRIMARY KEY, a, b, c); ${
        rows(3000, "INSERT INTO t SELECT i, i, 'b' || i, 1.5 FROM c")
      }`,
      "UPDATE t SET a = -a, b = 'x' WHERE id % 500 = 0; UPDATE t SET c = 2 WHERE id = 7;",
      7,
      13,
    ],
    [
      "a TEXT-keyed table diffed by the engine",
      `CREATE TABLE t(k TEXT PRIMARY KEY, a, b); ${
        rows(3000, "INSERT INTO t SELECT 'k' || i, i, i FROM c")
      }`,
      "UPDATE t SET a = 0, b = 0 WHERE k IN ('k5', 'k2999'); UPDATE t SET b = NULL WHERE k = 'k9';",
      3,
      5,
    ],
    [
      "a NOCASE key whose case changed counts the key's cell",
      "CREATE TABLE t(k TEXT PRIMARY KEY COLLATE NOCASE, a); INSERT INTO t VALUES ('a', 1), ('b', 2);",
      "UPDATE t SET k = 'A', a = 9 WHERE k = 'a';",
      1,
      2,
    ],
    [
      "a column only the after side has counts where it is not its default",
      "CREATE TABLE t(id INTEGER PRIMARY KEY, a); INSERT INTO t VALUES (1, 1), (2, 2), (3, 3);",
      "ALTER TABLE t ADD COLUMN w DEFAULT 0; UPDATE t SET w = 5 WHERE id = 2; UPDATE t SET a = 0, w = 1 WHERE id = 3;",
      2,
      3,
    ],
    [
      "a REAL 0.0 that became -0.0 is the same value, beside a cell that changed",
      `CREATE TABLE t(id INTEGER PRIMARY KEY, a, r); ${
        rows(200, "INSERT INTO t SELECT i, i, 0.0 FROM c")
      }`,
      "UPDATE t SET a = a + 1, r = -0.0 WHERE id % 50 = 0; UPDATE t SET r = 0.5 WHERE id = 3;",
      5,
      5,
    ],
    [
      "a keyless table has no changed rows, so no changed cells",
      "CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 2), (3, 4);",
      "UPDATE t SET b = 5 WHERE a = 1;",
      0,
      0,
    ],
  ];
  for (const [name, make, change, changed, cells] of cases) {
    for (const maxRows of [1000, 1, 0]) {
      it(`counts ${cells} cells of ${changed} changed rows: ${name} (maxRows ${maxRows})`, async () => {
        const db = await diffSql(make, `${make} ${change}`, { maxRows });
        const t = table(db, "t");
        assert.equal(t.counts.changed, changed);
        assert.equal(t.counts.changed_cells, cells);
        if (maxRows >= changed) {
          const listed = t.rows.changed.reduce((n, r) => n + r.changed_columns.length, 0);
          assert.equal(listed, cells, "the kept rows' changed_columns, summed");
        }
      });
    }
  }

  it("--summary prints the cells after the changed rows, and nothing when no row changed", async () => {
    const db = await diffSql(
      "CREATE TABLE t(id INTEGER PRIMARY KEY, a, b); INSERT INTO t VALUES (1, 1, 1), (2, 2, 2); CREATE TABLE u(x);",
      "CREATE TABLE t(id INTEGER PRIMARY KEY, a, b); INSERT INTO t VALUES (1, 0, 0), (2, 2, 2); CREATE TABLE u(x); INSERT INTO u VALUES (1);",
    );
    const settings = { include_schema: true, include_data: true, max_rows: 1000, tables: null };
    const text = renderDiffSummary({ version: DIFF_FORMAT_VERSION, settings, databases: [db] });
    assert.equal(
      text,
      "after1.db: changed\n  t: 1 changed (2 cells), 0 added, 0 removed\n  u: 0 changed, 1 added, 0 removed\n"
        .replace("after1.db", db.name),
    );
  });

  it("is kept by the JSON document, absent from older ones, and summed per bucket of a diff of diffs", async () => {
    const db = await diffSql(
      "CREATE TABLE t(id INTEGER PRIMARY KEY, a, b); INSERT INTO t VALUES (1, 1, 1), (2, 2, 2);",
      "CREATE TABLE t(id INTEGER PRIMARY KEY, a, b); INSERT INTO t VALUES (1, 0, 0), (2, 2, 3);",
    );
    const settings = { include_schema: true, include_data: true, max_rows: 1000, tables: null };
    const diff: DatabaseDiff = { version: DIFF_FORMAT_VERSION, settings, databases: [db] };
    assert.equal(diffFromJson(diffToJson(diff)).databases[0]!.tables[0]!.counts.changed_cells, 3);
    const old = JSON.parse(diffToJson(diff));
    delete old.databases[0].tables[0].counts.changed_cells;
    assert.equal(
      diffFromJson(JSON.stringify(old)).databases[0]!.tables[0]!.counts.changed_cells,
      undefined,
    );
    const onlyFirst: DatabaseDiff = {
      ...diff,
      databases: [{
        ...db,
        tables: [{
          ...db.tables[0]!,
          rows: { ...db.tables[0]!.rows, changed: db.tables[0]!.rows.changed.slice(0, 1) },
        }],
      }],
    };
    const { afterOnly } = diffDatabaseDiffs(onlyFirst, diff);
    assert.equal(afterOnly.databases[0]!.tables[0]!.counts.changed_cells, 1);
  });
});
