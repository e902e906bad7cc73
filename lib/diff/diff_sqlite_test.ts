import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, snapshotDir, tempDir } from "../../tests/fixtures.ts";
import { SqliteOpenError } from "../errors.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import { diffSql, rowSummary, table } from "./_test_util.ts";

const dir = tempDir();
after(() => dir.cleanup());

type Rows = ReturnType<typeof rowSummary>;
const none: Rows = { added: [], removed: [], changed: [] };

describe("diffSqliteDatabases() pairs rows by key", () => {
  const cases: [
    string,
    string,
    string,
    string,
    Partial<Rows> & { key?: string[]; kind?: string },
  ][] = [
    [
      "pairs a composite primary key's rows by the whole key",
      "CREATE TABLE t(a TEXT, b INT, v, PRIMARY KEY(a, b)); INSERT INTO t VALUES ('x',1,'p'),('x',2,'q'),('y',1,'r');",
      "CREATE TABLE t(a TEXT, b INT, v, PRIMARY KEY(a, b)); INSERT INTO t VALUES ('x',1,'p'),('x',2,'Q'),('y',2,'r');",
      "t",
      {
        key: ["a", "b"],
        kind: "primary_key",
        added: [{ a: "y", b: 2, v: "r" }],
        removed: [{ a: "y", b: 1, v: "r" }],
        changed: [{
          key: { a: "x", b: 2 },
          before: { a: "x", b: 2, v: "q" },
          after: { a: "x", b: 2, v: "Q" },
          changed_columns: ["v"],
        }],
      },
    ],
    [
      "pairs a WITHOUT ROWID table by its primary key",
      "CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID; INSERT INTO w VALUES ('a',1),('b',2);",
      "CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID; INSERT INTO w VALUES ('a',1),('b',3),('c',4);",
      "w",
      {
        key: ["k"],
        kind: "primary_key",
        added: [{ k: "c", v: 4 }],
        removed: [],
        changed: [{
          key: { k: "b" },
          before: { k: "b", v: 2 },
          after: { k: "b", v: 3 },
          changed_columns: ["v"],
        }],
      },
    ],
    [
      "treats an INTEGER PRIMARY KEY as the rowid",
      "CREATE TABLE r(id INTEGER PRIMARY KEY, v); INSERT INTO r VALUES (1,'a'),(2,'b');",
      "CREATE TABLE r(id INTEGER PRIMARY KEY, v); INSERT INTO r VALUES (1,'a'),(2,'c');",
      "r",
      {
        key: ["id"],
        kind: "rowid",
        changed: [{
          key: { id: 2 },
          before: { id: 2, v: "b" },
          after: { id: 2, v: "c" },
          changed_columns: ["v"],
        }],
      },
    ],
    [
      "pairs a rowid table with a TEXT primary key by that key, not by rowid",
      "CREATE TABLE u(name TEXT PRIMARY KEY, v); INSERT INTO u VALUES ('a',1),('b',2);",
      // Same keys at swapped rowids: only a's value really changed.
      "CREATE TABLE u(name TEXT PRIMARY KEY, v); INSERT INTO u VALUES ('b',2),('a',5);",
      "u",
      {
        key: ["name"],
        kind: "primary_key",
        changed: [{
          key: { name: "a" },
          before: { name: "a", v: 1 },
          after: { name: "a", v: 5 },
          changed_columns: ["v"],
        }],
      },
    ],
    [
      "compares a table without a key as a multiset, counting duplicates",
      "CREATE TABLE k(a, b); INSERT INTO k VALUES (1,2),(1,2),(3,4);",
      "CREATE TABLE k(a, b); INSERT INTO k VALUES (1,2),(3,4),(3,4);",
      "k",
      { key: [], kind: "none", added: [{ a: 3, b: 4 }], removed: [{ a: 1, b: 2 }], changed: [] },
    ],
    [
      "reports no change for a keyless row deleted and inserted again (sqldiff reports updates)",
      "CREATE TABLE k(a, b); INSERT INTO k VALUES ('x',1),('y',2),('z',3);",
      "CREATE TABLE k(a, b); INSERT INTO k VALUES ('x',1),('y',2),('z',3); DELETE FROM k WHERE a = 'x'; INSERT INTO k VALUES ('x',1);",
      "k",
      { ...none },
    ],
    [
      "reports a keyless row replaced at the same rowid as removed plus added, never changed",
      "CREATE TABLE k(a, b); INSERT INTO k VALUES ('x',1),('y',2);",
      "CREATE TABLE k(a, b); INSERT INTO k VALUES ('x',1),('y',2); UPDATE k SET b = 9 WHERE a = 'y';",
      "k",
      { added: [{ a: "y", b: 9 }], removed: [{ a: "y", b: 2 }], changed: [] },
    ],
  ];
  for (const [name, before, afterSql, t, expected] of cases) {
    it(name, async () => {
      const got = table(await diffSql(before, afterSql), t);
      const { key, kind, ...rows } = expected;
      if (key !== undefined) assert.deepEqual(got.key, key);
      if (kind !== undefined) assert.equal(got.key_kind, kind);
      assert.deepEqual(rowSummary(got), { ...none, ...rows });
      assert.deepEqual(got.counts, {
        added: (rows.added ?? []).length,
        removed: (rows.removed ?? []).length,
        changed: (rows.changed ?? []).length,
        changed_cells: got.rows.changed.reduce((n, r) => n + r.changed_columns.length, 0),
      });
    });
  }
});

describe("diffSqliteDatabases() compares values as SQLite's IS does", () => {
  const cases: [string, string, string, boolean][] = [
    ["NULL is NULL", "NULL", "NULL", false],
    ["1 is 1.0", "1", "1.0", false],
    ["1 is not '1'", "1", "'1'", true],
    ["'1' is not x'31'", "'1'", "x'31'", true],
    ["1 is not x'31'", "1", "x'31'", true],
    ["9007199254740993 is not 9007199254740992", "9007199254740993", "9007199254740992", true],
    ["-9223372036854775808 is itself", "-9223372036854775808", "-9223372036854775808", false],
    ["'a' is not 'A' even in a NOCASE column", "'a'", "'A'", true],
    ["x'00ff' is itself", "x'00ff'", "x'00ff'", false],
    ["NULL is not 0", "NULL", "0", true],
  ];
  for (const [name, x, y, differs] of cases) {
    it(`${name}${differs ? "" : " (no change)"}`, async () => {
      const schema = "CREATE TABLE v(id INTEGER PRIMARY KEY, x, n COLLATE NOCASE);";
      const got = table(
        await diffSql(
          `${schema} INSERT INTO v VALUES (1, ${x}, ${x});`,
          `${schema} INSERT INTO v VALUES (1, ${y}, ${y});`,
        ),
        "v",
      );
      assert.equal(got.counts.changed, differs ? 1 : 0);
      if (differs) {
        const columns = name.includes("NOCASE") ? ["x", "n"] : got.rows.changed[0]!.changed_columns;
        assert.deepEqual(got.rows.changed[0]?.changed_columns, columns);
      }
    });
  }

  it("keeps integers beyond 2^53 exact as bigint in the rows", async () => {
    const got = table(
      await diffSql(
        "CREATE TABLE b(id INTEGER PRIMARY KEY, x); INSERT INTO b VALUES (1, 9007199254740993);",
        "CREATE TABLE b(id INTEGER PRIMARY KEY, x); INSERT INTO b VALUES (1, 9007199254740992);",
      ),
      "b",
    );
    assert.deepEqual(got.rows.changed[0]?.before, { id: 1, x: 9007199254740993n });
    assert.deepEqual(got.rows.changed[0]?.after, { id: 1, x: 9007199254740992n });
  });

  it("does not let column affinity make TEXT '1' equal INTEGER 1 after a type change", async () => {
    const got = table(
      await diffSql(
        "CREATE TABLE a(id INTEGER PRIMARY KEY, x TEXT); INSERT INTO a VALUES (1, '1');",
        "CREATE TABLE a(id INTEGER PRIMARY KEY, x INTEGER); INSERT INTO a VALUES (1, 1);",
      ),
      "a",
    );
    assert.deepEqual(got.columns.changed.map((c) => [c.name, c.changes]), [["x", ["type"]]]);
    assert.deepEqual(got.rows.changed[0]?.changed_columns, ["x"]);
  });
});

describe("diffSqliteDatabases() on schema changes", () => {
  it("compares rows on the columns both sides have when a column is added", async () => {
    const got = table(
      await diffSql(
        "CREATE TABLE t(id INTEGER PRIMARY KEY, a); INSERT INTO t VALUES (1,'x'),(2,'y');",
        "CREATE TABLE t(id INTEGER PRIMARY KEY, a); INSERT INTO t VALUES (1,'x'),(2,'z'); ALTER TABLE t ADD COLUMN email TEXT DEFAULT 'none';",
      ),
      "t",
    );
    assert.equal(got.status, "changed");
    assert.equal(got.schema_status, "changed");
    assert.equal(got.data_status, "changed");
    assert.deepEqual(got.columns.added.map((c) => [c.name, c.type, c.default]), [
      ["email", "TEXT", "'none'"],
    ]);
    assert.deepEqual(got.compared_columns, ["id", "a"]);
    // The added column holds its default on every row: only row 2 changed.
    assert.deepEqual(rowSummary(got).changed, [{
      key: { id: 2 },
      before: { id: 2, a: "y" },
      after: { id: 2, a: "z", email: "none" },
      changed_columns: ["a"],
    }]);
  });

  it("shows a renamed column as one removed and one added, and the values that moved", async () => {
    const got = table(
      await diffSql(
        "CREATE TABLE t(id INTEGER PRIMARY KEY, name); INSERT INTO t VALUES (1,'x');",
        "CREATE TABLE t(id INTEGER PRIMARY KEY, name); INSERT INTO t VALUES (1,'x'); ALTER TABLE t RENAME COLUMN name TO full_name;",
      ),
      "t",
    );
    assert.deepEqual(got.columns.added.map((c) => c.name), ["full_name"]);
    assert.deepEqual(got.columns.removed.map((c) => c.name), ["name"]);
    assert.equal(got.status, "changed");
    assert.deepEqual(rowSummary(got).changed, [{
      key: { id: 1 },
      before: { id: 1, name: "x" },
      after: { id: 1, full_name: "x" },
      changed_columns: ["name", "full_name"],
    }]);
  });

  it("reports not-null, default and primary-key membership changes", async () => {
    const got = table(
      await diffSql(
        "CREATE TABLE t(id INT, a TEXT, b INT DEFAULT 1);",
        "CREATE TABLE t(id INT PRIMARY KEY, a TEXT NOT NULL, b INT DEFAULT 2);",
      ),
      "t",
    );
    assert.deepEqual(got.columns.changed.map((c) => [c.name, c.changes]), [
      ["id", ["primary_key"]],
      ["a", ["not_null"]],
      ["b", ["default"]],
    ]);
  });

  it("reports the data as removed plus added when the key is not shared", async () => {
    const got = table(
      await diffSql(
        "CREATE TABLE t(id INTEGER PRIMARY KEY, code TEXT); INSERT INTO t VALUES (1,'a');",
        "CREATE TABLE t(id INTEGER, code TEXT PRIMARY KEY); INSERT INTO t VALUES (1,'a');",
      ),
      "t",
    );
    assert.deepEqual(rowSummary(got), {
      added: [{ id: 1, code: "a" }],
      removed: [{ id: 1, code: "a" }],
      changed: [],
    });
  });

  it("reports tables added and removed with every row", async () => {
    const db = await diffSql(
      "CREATE TABLE old(a); INSERT INTO old VALUES (1),(2);",
      "CREATE TABLE new(id INTEGER PRIMARY KEY, b); INSERT INTO new VALUES (7,'x');",
    );
    assert.deepEqual(
      db.tables.map((t) => [t.name, t.status, t.schema_status, t.counts]),
      [
        ["new", "added", "added", { added: 1, removed: 0, changed: 0, changed_cells: 0 }],
        ["old", "removed", "removed", { added: 0, removed: 2, changed: 0, changed_cells: 0 }],
      ],
    );
    assert.deepEqual(table(db, "new").rows.added, [{ key: { id: 7 }, row: { id: 7, b: "x" } }]);
  });

  it("reports indexes, views and triggers added, removed and changed", async () => {
    const base = "CREATE TABLE t(a, b);";
    const db = await diffSql(
      `${base} CREATE INDEX ia ON t(a); CREATE VIEW v AS SELECT a FROM t;
       CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END;`,
      `${base} CREATE INDEX ib ON t(b); CREATE VIEW v AS SELECT b FROM t;
       CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END;`,
    );
    assert.deepEqual(db.objects.map((o) => [o.type, o.name, o.table, o.status]), [
      ["index", "ia", "t", "removed"],
      ["index", "ib", "t", "added"],
      ["view", "v", "v", "changed"],
    ]);
    assert.equal(db.status, "changed");
    assert.equal(table(db, "t").status, "unchanged");
  });

  it("reports a constraint change as a schema change without column changes", async () => {
    const got = table(
      await diffSql("CREATE TABLE t(a INT);", "CREATE TABLE t(a INT, CHECK (a > 0));"),
      "t",
    );
    assert.equal(got.schema_status, "changed");
    assert.deepEqual(got.columns, { added: [], removed: [], changed: [] });
  });
});

describe("diffSqliteDatabases() options", () => {
  const before = "CREATE TABLE t(id INTEGER PRIMARY KEY, v); CREATE TABLE u(x);" +
    "INSERT INTO t SELECT value, 'a' FROM generate_series(1, 10);";
  const afterSql = "CREATE TABLE t(id INTEGER PRIMARY KEY, v, w); CREATE TABLE u(x);" +
    "INSERT INTO t SELECT value, 'b', 0 FROM generate_series(1, 10); INSERT INTO u VALUES (1);";
  // node:sqlite may lack generate_series: build the rows with a recursive CTE.
  const fix = (sql: string): string =>
    sql.replace(
      /SELECT value, (.*?) FROM generate_series\(1, 10\)/,
      "WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 10) SELECT value, $1 FROM s",
    );

  it("keeps at most maxRows row changes per kind, with exact counts and truncated set", async () => {
    const got = table(await diffSql(fix(before), fix(afterSql), { maxRows: 3 }), "t");
    assert.equal(got.rows.changed.length, 3);
    assert.equal(got.counts.changed, 10);
    assert.equal(got.truncated, true);
    assert.deepEqual(got.rows.changed.map((r) => r.key), [{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it("only diffs the tables asked for", async () => {
    const db = await diffSql(fix(before), fix(afterSql), { tables: ["u"] });
    assert.deepEqual(db.tables.map((t) => [t.name, t.counts.added]), [["u", 1]]);
  });

  it("leaves the schema plane out with includeSchema false", async () => {
    const got = table(await diffSql(fix(before), fix(afterSql), { includeSchema: false }), "t");
    assert.deepEqual(got.columns.added, []);
    assert.equal(got.schema_status, "unchanged");
    assert.equal(got.status, "changed");
    assert.equal(got.counts.changed, 10);
  });

  it("leaves the data plane out with includeData false", async () => {
    const got = table(await diffSql(fix(before), fix(afterSql), { includeData: false }), "t");
    assert.deepEqual(got.columns.added.map((c) => c.name), ["w"]);
    assert.deepEqual(got.counts, { added: 0, removed: 0, changed: 0, changed_cells: 0 });
    assert.equal(got.data_status, "unchanged");
  });
});

describe("diffSqliteDatabases() on special tables", () => {
  it("skips FTS5 and rtree virtual tables with a reason and compares their shadow tables", async () => {
    const fts =
      "CREATE VIRTUAL TABLE docs USING fts5(body); CREATE VIRTUAL TABLE box USING rtree(id, x0, x1);";
    const db = await diffSql(
      `${fts} INSERT INTO docs VALUES ('hello'); INSERT INTO box VALUES (1, 0, 1);`,
      `${fts} INSERT INTO docs VALUES ('hello'), ('world'); INSERT INTO box VALUES (1, 0, 2);`,
    );
    const reasons = Object.fromEntries(db.skipped.map((s) => [s.name, s.reason]));
    assert.match(reasons["docs"] ?? "", /virtual table \(USING fts5\).*docs_content/);
    assert.match(reasons["box"] ?? "", /virtual table \(USING rtree\).*box_node/);
    assert.equal(table(db, "docs").data_status, "unchanged");
    assert.deepEqual(table(db, "docs_content").rows.added.map((r) => r.row), [
      { id: 2, c0: "world" },
    ]);
    assert.equal(table(db, "box_node").counts.changed, 1);
  });

  it("keys sqlite_sequence by table name and skips sqlite_stat1", async () => {
    const schema =
      "CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT, v); CREATE INDEX iv ON t(v);";
    const db = await diffSql(
      `${schema} INSERT INTO t(v) VALUES ('a'); ANALYZE;`,
      `${schema} INSERT INTO t(v) VALUES ('a'),('b'); ANALYZE;`,
    );
    const seq = table(db, "sqlite_sequence");
    assert.deepEqual(seq.key, ["name"]);
    assert.deepEqual(seq.rows.changed.map((r) => [r.key, r.changed_columns]), [
      [{ name: "t" }, ["seq"]],
    ]);
    assert.match(db.skipped.find((s) => s.name === "sqlite_stat1")?.reason ?? "", /ANALYZE/);
  });
});

describe("diffSqliteDatabases() on whole files", () => {
  it("reports a missing or null side as a database added or removed", async () => {
    const file = makeDb(dir.file("one.db"), "CREATE TABLE t(a); INSERT INTO t VALUES (1);");
    const added = (await diffSqliteDatabases(dir.file("missing.db"), file)).databases[0];
    const removed = (await diffSqliteDatabases(file, null)).databases[0];
    assert.deepEqual(
      [added?.status, added?.exists_before, added?.exists_after, added?.tables[0]?.counts.added],
      ["added", false, true, 1],
    );
    assert.deepEqual(
      [removed?.status, removed?.exists_before, removed?.exists_after, removed?.path],
      ["removed", true, false, file],
    );
    assert.deepEqual((await diffSqliteDatabases(null, null)).databases, []);
  });

  it("throws SqliteOpenError naming the side that is not SQLite", async () => {
    const good = makeDb(dir.file("good.db"), "CREATE TABLE t(a);");
    const bad = dir.file("bad.db");
    fs.writeFileSync(bad, "PK\x03\x04 not a database at all, just some bytes here");
    await assert.rejects(diffSqliteDatabases(good, bad), (e: unknown) => {
      assert.ok(e instanceof SqliteOpenError);
      assert.match(e.message, /bad\.db.*not a SQLite database/);
      return true;
    });
  });

  for (const journal of ["delete", "wal", "wal-pending"] as const) {
    it(`sees the latest commits and modifies neither input in ${journal} mode`, async () => {
      const sub = tempDir();
      try {
        const schema = "CREATE TABLE t(id INTEGER PRIMARY KEY, v);";
        const a = makeDb(sub.file("a.db"), `${schema} INSERT INTO t VALUES (1,'x');`, { journal });
        const b = makeDb(
          sub.file("b.db"),
          `${schema} INSERT INTO t VALUES (1,'x'); UPDATE t SET v = 'y';`,
          { journal },
        );
        if (journal === "wal-pending") assert.ok(fs.statSync(`${b}-wal`).size > 0);
        const snap = snapshotDir(sub.path);
        const diff = await diffSqliteDatabases(a, b);
        assert.equal(diff.databases[0]?.tables[0]?.counts.changed, 1);
        assert.deepEqual(snapshotDir(sub.path), snap);
      } finally {
        sub.cleanup();
      }
    });
  }
});
