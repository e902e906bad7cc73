/**
 * Rows whose key holds NULL are compared as a multiset of whole rows, and
 * carry every column of their side, as keyed rows do: a column only one
 * side has counts (its default on the other side), whatever the page layout.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { diffSql, rowSummary, table } from "./_test_util.ts";

const BEFORE = `CREATE TABLE t(k TEXT PRIMARY KEY, v);
  INSERT INTO t VALUES (NULL, 1), ('a', 2);`;

describe("diffSqliteDatabases() carries every column of NULL-key rows", () => {
  const cases: [string, string, string, unknown][] = [
    [
      "an added NULL-key row with a column only the after side has",
      BEFORE,
      `${BEFORE} ALTER TABLE t ADD COLUMN w; INSERT INTO t VALUES (NULL, 1, 'x');`,
      { added: [{ k: null, v: 1, w: "x" }], removed: [], changed: [] },
    ],
    [
      "an UPDATE of an added column on an existing NULL-key row",
      BEFORE,
      `${BEFORE} ALTER TABLE t ADD COLUMN w; UPDATE t SET w = 'x' WHERE k IS NULL;`,
      { added: [{ k: null, v: 1, w: "x" }], removed: [{ k: null, v: 1 }], changed: [] },
    ],
    [
      "an added column left at its default on NULL-key rows: no change",
      BEFORE,
      `${BEFORE} ALTER TABLE t ADD COLUMN w DEFAULT 7;`,
      { added: [], removed: [], changed: [] },
    ],
    [
      "an added column set to its default on a NULL-key row: no change",
      BEFORE,
      `${BEFORE} ALTER TABLE t ADD COLUMN w DEFAULT 7; UPDATE t SET w = 7 WHERE k IS NULL;`,
      { added: [], removed: [], changed: [] },
    ],
    [
      "a dropped column that held a value on a NULL-key row",
      `CREATE TABLE t(k TEXT PRIMARY KEY, v, w); INSERT INTO t VALUES (NULL, 1, 'x'), ('a', 2, 'y');`,
      `CREATE TABLE t(k TEXT PRIMARY KEY, v, w); INSERT INTO t VALUES (NULL, 1, 'x'), ('a', 2, 'y');
       ALTER TABLE t DROP COLUMN w;`,
      {
        added: [{ k: null, v: 1 }],
        removed: [{ k: null, v: 1, w: "x" }],
        changed: [{
          key: { k: "a" },
          before: { k: "a", v: 2, w: "y" },
          after: { k: "a", v: 2 },
          changed_columns: ["w"],
        }],
      },
    ],
    [
      "a dropped column that held NULL on a NULL-key row: no change",
      `CREATE TABLE t(k TEXT PRIMARY KEY, v, w); INSERT INTO t VALUES (NULL, 1, NULL);`,
      `CREATE TABLE t(k TEXT PRIMARY KEY, v, w); INSERT INTO t VALUES (NULL, 1, NULL);
       ALTER TABLE t DROP COLUMN w;`,
      { added: [], removed: [], changed: [] },
    ],
  ];
  for (const [name, before, after, expected] of cases) {
    for (const journal of [undefined, "wal-pending"] as const) {
      it(`diffSqliteDatabases() reports ${name}${journal ? " (after side in WAL)" : ""}`, async () => {
        const t = table(await diffSql(before, after, journal ? { journal } : {}), "t");
        assert.deepEqual(rowSummary(t), expected);
        for (const r of [...t.rows.added, ...t.rows.removed]) assert.deepEqual(r.key, { k: null });
      });
    }
  }

  it("diffSqliteDatabases() carries a one-sided column of NULL-key rows 1,000 columns wide", async () => {
    const cols = Array.from({ length: 999 }, (_, i) => `c${i}`);
    const create = `CREATE TABLE t(k TEXT PRIMARY KEY, ${cols.join(", ")});
      INSERT INTO t(k, c0) VALUES (NULL, 1);`;
    const t = table(
      await diffSql(create, `${create} ALTER TABLE t ADD COLUMN w; UPDATE t SET w = 'x';`),
      "t",
    );
    assert.equal(t.counts.added, 1);
    assert.equal(t.counts.removed, 1);
    assert.equal(t.rows.added[0]?.row["w"], "x");
    assert.equal(t.rows.added[0]?.row["c0"], 1);
    assert.equal("w" in t.rows.removed[0]!.row, false);
  });
});
