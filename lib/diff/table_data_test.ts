import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { diffSql, rowSummary, table } from "./_test_util.ts";

describe("diffTableData() keyed by a key that pairs values SQLite's IS tells apart", () => {
  const cases: [string, string, string, unknown][] = [
    [
      "reports a NOCASE text key whose case changed as a changed row",
      "CREATE TABLE t(k TEXT PRIMARY KEY COLLATE NOCASE, v); INSERT INTO t VALUES ('a', 1), ('b', 2);",
      "CREATE TABLE t(k TEXT PRIMARY KEY COLLATE NOCASE, v); INSERT INTO t VALUES ('A', 1), ('b', 2);",
      {
        added: [],
        removed: [],
        changed: [{
          key: { k: "a" },
          before: { k: "a", v: 1 },
          after: { k: "A", v: 1 },
          changed_columns: ["k"],
        }],
      },
    ],
    [
      "reports a NOCASE key of a WITHOUT ROWID table whose case changed, with its other changes",
      "CREATE TABLE t(k TEXT COLLATE NOCASE, n INT, v, PRIMARY KEY(k, n)) WITHOUT ROWID;" +
      "INSERT INTO t VALUES ('x', 1, 'old');",
      "CREATE TABLE t(k TEXT COLLATE NOCASE, n INT, v, PRIMARY KEY(k, n)) WITHOUT ROWID;" +
      "INSERT INTO t VALUES ('X', 1, 'new');",
      {
        added: [],
        removed: [],
        changed: [{
          key: { k: "x", n: 1 },
          before: { k: "x", n: 1, v: "old" },
          after: { k: "X", n: 1, v: "new" },
          changed_columns: ["k", "v"],
        }],
      },
    ],
    [
      "reports a key that went from text '1' to integer 1 with the key's type",
      "CREATE TABLE t(k TEXT PRIMARY KEY, v); INSERT INTO t VALUES ('1', 'a');",
      "CREATE TABLE t(k INT PRIMARY KEY, v); INSERT INTO t VALUES (1, 'a');",
      {
        added: [],
        removed: [],
        changed: [{
          key: { k: "1" },
          before: { k: "1", v: "a" },
          after: { k: 1, v: "a" },
          changed_columns: ["k"],
        }],
      },
    ],
    [
      "leaves a NOCASE key that kept its spelling unchanged",
      "CREATE TABLE t(k TEXT PRIMARY KEY COLLATE NOCASE, v); INSERT INTO t VALUES ('a', 1);",
      "CREATE TABLE t(k TEXT PRIMARY KEY COLLATE NOCASE, v); INSERT INTO t VALUES ('a', 2);",
      {
        added: [],
        removed: [],
        changed: [{
          key: { k: "a" },
          before: { k: "a", v: 1 },
          after: { k: "a", v: 2 },
          changed_columns: ["v"],
        }],
      },
    ],
  ];
  for (const [name, before, after, expected] of cases) {
    it(`diffSqliteDatabases() ${name}`, async () => {
      const db = await diffSql(before, after);
      assert.deepEqual(rowSummary(table(db, "t")), expected);
    });
  }
});
