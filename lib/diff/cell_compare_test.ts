import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { diffSql, rowSummary, table } from "./_test_util.ts";

/** `n` rows of `sql`'s pattern through a recursive CTE named c(i). */
const rows = (n: number, insert: string): string =>
  `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${n}) ${insert};`;

// The after file is the before file's SQL plus a change, so the two files
// share their pages and only the changed leaves' cells are compared
// (_tree_compare.ts) before SQLite sees any row.
describe("diffSqliteDatabases() comparing the cells of changed leaves", () => {
  it("removes one of several identical rows of a keyless table, once", async () => {
    const make = `CREATE TABLE t(a, b);
      ${rows(5000, "INSERT INTO t SELECT i % 7, 'same' FROM c")}`;
    const db = await diffSql(make, `${make} DELETE FROM t WHERE rowid = 2500;`);
    const t = table(db, "t");
    assert.deepEqual(t.counts, { added: 0, removed: 1, changed: 0, changed_cells: 0 });
    assert.deepEqual(rowSummary(t).removed, [{ a: 2500 % 7, b: "same" }]);
  });

  it("cancels rows deleted and inserted again elsewhere in a keyless table", async () => {
    const make = `CREATE TABLE t(a INTEGER, b TEXT);
      ${rows(20_000, "INSERT INTO t SELECT i, printf('row %d', i) FROM c")}`;
    const db = await diffSql(
      make,
      `${make} CREATE TEMP TABLE m AS SELECT a, b FROM t WHERE rowid % 50 = 0;
       DELETE FROM t WHERE rowid % 50 = 0; INSERT INTO t SELECT * FROM m;
       UPDATE t SET b = 'edited' WHERE a = 777;`,
    );
    const t = table(db, "t");
    // 777 is not a multiple of 50: its row kept its place, edited.
    assert.deepEqual(t.counts, { added: 1, removed: 1, changed: 0, changed_cells: 0 });
    assert.deepEqual(rowSummary(t), {
      added: [{ a: 777, b: "edited" }],
      removed: [{ a: 777, b: "row 777" }],
      changed: [],
    });
  });

  it("leaves a value stored as 1 on one side and 1.0 on the other unchanged (bytes differ, values do not)", async () => {
    const make = `CREATE TABLE t(v); ${rows(3000, "INSERT INTO t SELECT i FROM c")}
      CREATE TABLE k(id TEXT PRIMARY KEY, v); ${
      rows(3000, "INSERT INTO k SELECT printf('%05d', i), i FROM c")
    }`;
    const db = await diffSql(
      make,
      `${make} UPDATE t SET v = 1.0 WHERE v = 1; UPDATE k SET v = 2.0 WHERE v = 2;`,
    );
    assert.deepEqual(table(db, "t").counts, { added: 0, removed: 0, changed: 0, changed_cells: 0 });
    assert.deepEqual(table(db, "k").counts, { added: 0, removed: 0, changed: 0, changed_cells: 0 });
  });

  it("reports rows of a TEXT-keyed rowid table in key order when their rowids moved", async () => {
    // Keys inserted in reverse order: rowid order is the opposite of key order.
    const make = `CREATE TABLE k(id TEXT PRIMARY KEY, v INTEGER);
      ${rows(6000, "INSERT INTO k SELECT printf('key%05d', 6001 - i), i FROM c")}`;
    const db = await diffSql(
      make,
      `${make} CREATE TEMP TABLE m AS SELECT * FROM k WHERE v % 1000 = 0;
       DELETE FROM k WHERE v % 1000 = 0; INSERT INTO k SELECT id, -v FROM m;
       DELETE FROM k WHERE id = 'key03000'; INSERT INTO k VALUES ('key00000', 0);`,
    );
    const t = table(db, "k");
    assert.deepEqual(t.counts, { added: 1, removed: 1, changed: 6, changed_cells: 6 });
    assert.deepEqual(t.rows.changed.map((r) => r.key["id"]), [
      "key00001",
      "key01001",
      "key02001",
      "key03001",
      "key04001",
      "key05001",
    ]);
    assert.deepEqual(t.rows.changed[0]!.changed_columns, ["v"]);
  });

  it("compares rows that spill to overflow pages, changed or not", async () => {
    const make = `CREATE TABLE big(id INTEGER PRIMARY KEY, body TEXT);
      ${rows(40, "INSERT INTO big SELECT i, printf('%.*c', 9000, 'x') || i FROM c")}
      CREATE TABLE bag(body TEXT);
      ${rows(40, "INSERT INTO bag SELECT printf('%.*c', 9000, 'y') || i FROM c")}`;
    const db = await diffSql(
      make,
      `${make} UPDATE big SET body = body || '!' WHERE id IN (3, 30);
       UPDATE bag SET body = body || '!' WHERE rowid = 7;`,
    );
    assert.deepEqual(table(db, "big").counts, {
      added: 0,
      removed: 0,
      changed: 2,
      changed_cells: 2,
    });
    assert.deepEqual(table(db, "bag").counts, {
      added: 1,
      removed: 1,
      changed: 0,
      changed_cells: 0,
    });
  });

  it("finds changes scattered through a rowid table, joined into ranges across unchanged rows", async () => {
    const make = `CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);
      ${rows(50_000, "INSERT INTO t SELECT i, printf('v%d', i) FROM c")}`;
    const db = await diffSql(
      make,
      `${make} UPDATE t SET v = 'x' WHERE id IN (1, 5, 21, 22, 40000);
       DELETE FROM t WHERE id = 12; INSERT INTO t VALUES (60000, 'new');`,
    );
    const t = table(db, "t");
    assert.deepEqual(t.counts, { added: 1, removed: 1, changed: 5, changed_cells: 5 });
    assert.deepEqual(t.rows.changed.map((r) => r.key["id"]), [1, 5, 21, 22, 40000]);
  });

  it("compares a WITHOUT ROWID table by record, interior cells included, and finds each change by key", async () => {
    const make = `CREATE TABLE w(k1 TEXT, k2 INTEGER, v TEXT, PRIMARY KEY (k1, k2)) WITHOUT ROWID;
      ${
      rows(
        30_000,
        "INSERT INTO w SELECT printf('k%05d', i / 3), i % 3, printf('value %d', i) FROM c",
      )
    }`;
    const db = await diffSql(
      make,
      `${make} UPDATE w SET v = 'edited' WHERE k2 = 1 AND k1 IN ('k00010', 'k04000', 'k09999');
       DELETE FROM w WHERE k1 = 'k05000'; INSERT INTO w VALUES ('k05000x', 0, 'new');
       UPDATE w SET v = v || '!' WHERE k1 = 'k07000' AND k2 = 2;`,
    );
    const t = table(db, "w");
    assert.deepEqual(t.counts, { added: 1, removed: 3, changed: 4, changed_cells: 4 });
    assert.deepEqual(t.rows.changed.map((r) => [r.key["k1"], r.key["k2"]]), [
      ["k00010", 1],
      ["k04000", 1],
      ["k07000", 2],
      ["k09999", 1],
    ]);
    assert.deepEqual(t.rows.removed.map((r) => r.key?.["k2"]), [0, 1, 2]);
  });

  it("pairs WITHOUT ROWID keys that are big integers, reals, BLOBs, NOCASE text and bytes that are not UTF-8", async () => {
    const make = `CREATE TABLE w(k PRIMARY KEY COLLATE NOCASE, v) WITHOUT ROWID;
      ${rows(4000, "INSERT INTO w SELECT printf('key %d', i), i FROM c")}
      INSERT INTO w VALUES (9007199254740993, 'big'), (-9223372036854775808, 'min'), (2.5, 'real'),
        (x'00ff10', 'blob'), (CAST(x'6b6579ff' AS TEXT), 'not utf-8');`;
    const db = await diffSql(
      make,
      `${make} UPDATE w SET v = 'changed' WHERE v IN ('big', 'min', 'real', 'blob', 'not utf-8');
       UPDATE w SET k = 'KEY 17' WHERE k = 'key 17';`,
    );
    const t = table(db, "w");
    assert.deepEqual(t.counts, { added: 0, removed: 0, changed: 6, changed_cells: 6 });
    const keys = t.rows.changed.map((r) => r.key["k"]);
    assert.ok(keys.includes(9007199254740993n), "a key beyond 2^53 kept exactly");
    assert.ok(keys.includes(-9223372036854775808n));
    assert.ok(keys.includes(2.5));
    assert.ok(
      keys.includes("KEY 17") || keys.includes("key 17"),
      "a NOCASE key whose case changed",
    );
  });
});
