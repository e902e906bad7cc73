/**
 * Aiming the diff: `keys` pairs a table's rows by chosen columns, `ignore`
 * leaves columns out of the comparison and the rows, `ignoreTables` leaves
 * tables out (_aim.ts, and the strategy that diffs such tables).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { diffSql, rowSummary, table } from "./_test_util.ts";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import { diffFilesystemDatabases } from "./diff_filesystem.ts";
import { diffFromJson, diffToJson } from "./json.ts";
import { DiffKeyError, UsageError } from "../errors.ts";
import * as fs from "node:fs";

const rows = (n: number, insert: string): string =>
  `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${n}) ${insert};`;

// A keyless table whose rowids VACUUM renumbers once a row is deleted.
const CODES = `CREATE TABLE t(code TEXT, v, seen_at);
  ${rows(10, "INSERT INTO t SELECT 'c' || i, i, 100 FROM c")} DELETE FROM t WHERE code = 'c3';`;
const VACUUMED = `${CODES} VACUUM; UPDATE t SET v = 50, seen_at = 200 WHERE code = 'c5';
  UPDATE t SET seen_at = 300 WHERE code = 'c7';`;

/**
 * Folders a/ and b/ of a temporary directory, each database made from its
 * SQL there (b's from the second, or the same when there is one).
 */
function folders(dbs: Record<string, [string, string?]>): ReturnType<typeof tempDir> {
  const dir = tempDir();
  fs.mkdirSync(dir.file("a"));
  fs.mkdirSync(dir.file("b"));
  for (const [name, [a, b]] of Object.entries(dbs)) {
    makeDb(dir.file(`a/${name}`), a);
    makeDb(dir.file(`b/${name}`), b ?? a);
  }
  return dir;
}

describe("keys: rows paired by chosen columns", () => {
  it("shows a keyless table's edited rows changed, not removed and added", async () => {
    const plain = table(await diffSql(CODES, VACUUMED), "t");
    assert.deepEqual(plain.counts, { added: 2, removed: 2, changed: 0, changed_cells: 0 });
    const keyed = table(await diffSql(CODES, VACUUMED, { keys: { t: ["code"] } }), "t");
    assert.deepEqual(keyed.counts, { added: 0, removed: 0, changed: 2, changed_cells: 3 });
    assert.deepEqual([keyed.key, keyed.key_kind], [["code"], "primary_key"]);
    assert.deepEqual(keyed.rows.changed[0], {
      key: { code: "c5" },
      before: { code: "c5", v: 5, seen_at: 100 },
      after: { code: "c5", v: 50, seen_at: 200 },
      changed_columns: ["v", "seen_at"],
    });
  });

  it("wins over --rowid, which VACUUM's renumbering misleads", async () => {
    const byRowid = table(await diffSql(CODES, VACUUMED, { pairBy: "rowid" }), "t");
    assert.ok(byRowid.counts.changed > 2, `${byRowid.counts.changed} rows changed by rowid`);
    const keyed = table(
      await diffSql(CODES, VACUUMED, { pairBy: "rowid", keys: { T: ["CODE"] } }),
      "t",
    );
    assert.deepEqual(keyed.counts, { added: 0, removed: 0, changed: 2, changed_cells: 3 });
    assert.deepEqual(keyed.key, ["code"], "the table's own spelling of the column");
  });

  it("pairs a rowid table by other columns, and compares its rowid alias as a value", async () => {
    const make = `CREATE TABLE u(id INTEGER PRIMARY KEY, email TEXT, name);
      ${rows(3000, "INSERT INTO u SELECT i, 'e' || i, 'n' || i FROM c")}`;
    const change =
      "UPDATE u SET id = id + 10000 WHERE id % 1000 = 0; UPDATE u SET name = 'x' WHERE id = 5;";
    const db = await diffSql(make, `${make} ${change}`, { keys: { u: ["email"] } });
    assert.deepEqual(table(db, "u").counts, { added: 0, removed: 0, changed: 4, changed_cells: 4 });
    // In key order: 'e1000' sorts before 'e5'.
    assert.deepEqual(
      table(db, "u").rows.changed.map((r) => [r.key["email"], r.changed_columns]),
      [["e1000", ["id"]], ["e2000", ["id"]], ["e3000", ["id"]], ["e5", ["name"]]],
    );
  });

  it("compares rows whose key holds a NULL as whole rows", async () => {
    const make = "CREATE TABLE t(code, v); INSERT INTO t VALUES (NULL, 1), (NULL, 2), ('a', 3);";
    const t = table(
      await diffSql(
        make,
        `${make} UPDATE t SET v = 9 WHERE v = 2; UPDATE t SET v = 4 WHERE code = 'a';`,
        {
          keys: { t: ["code"] },
        },
      ),
      "t",
    );
    assert.deepEqual(t.counts, { added: 1, removed: 1, changed: 1, changed_cells: 1 });
    assert.deepEqual(rowSummary(t).added, [{ code: null, v: 9 }]);
  });

  it("refuses a key two rows of a side share, naming the table, the file and the value", async () => {
    const make = "CREATE TABLE t(code, v); INSERT INTO t VALUES ('a', 1), ('b', 2);";
    const dir = tempDir();
    try {
      const a = makeDb(dir.file("a.db"), make);
      const b = makeDb(dir.file("b.db"), `${make} INSERT INTO t VALUES ('b', 3);`);
      await assert.rejects(
        diffSqliteDatabases(a, b, { keys: { t: ["code"] } }),
        (e: unknown) =>
          e instanceof DiffKeyError && e.table === "t" && e.path === b &&
          e.message ===
            `--key t=code: the key is not unique in ${b}: 2 rows of "t" have code = 'b'; choose columns that name one row on each side`,
      );
      // A pair of columns that is unique is accepted.
      const t = table(
        (await diffSqliteDatabases(a, b, { keys: { t: ["code", "v"] } })).databases[0]!,
        "t",
      );
      assert.deepEqual(t.counts, { added: 1, removed: 0, changed: 0, changed_cells: 0 });
    } finally {
      dir.cleanup();
    }
  });

  it("refuses a key column the table lacks, and a NULL in a WITHOUT ROWID table's chosen key", async () => {
    await assert.rejects(
      diffSql("CREATE TABLE t(a, b);", "CREATE TABLE t(a, b);", { keys: { t: ["c"] } }),
      (e: unknown) =>
        e instanceof DiffKeyError &&
        /^--key t=c: table "t" in .*before\d+\.db has no column "c" \(its columns: a, b\); name its columns$/
          .test(e.message),
    );
    const w =
      "CREATE TABLE w(k PRIMARY KEY, alt, v) WITHOUT ROWID; INSERT INTO w VALUES (1, NULL, 1);";
    await assert.rejects(
      diffSql(w, `${w} INSERT INTO w VALUES (2, 'x', 2);`, { keys: { w: ["alt"] } }),
      (e: unknown) => e instanceof DiffKeyError && /has a NULL in the key/.test(e.message),
    );
  });

  it("refuses a key on a table no file has; across folders, on a table no database has", async () => {
    const missing = (e: unknown) =>
      e instanceof UsageError &&
      /^--key u=code: no table "u" in .* \(tables there: t\); name a table the files have$/.test(
        e.message,
      );
    await assert.rejects(diffSql(CODES, CODES, { keys: { u: ["code"] } }), missing);
    await assert.rejects(diffSql(CODES, VACUUMED, { keys: { u: ["code"] } }), missing);
    const dir = folders({ "x.db": [CODES, VACUUMED], "y.db": ["CREATE TABLE other(n);"] });
    try {
      // A table some databases lack is fine.
      const diff = await diffFilesystemDatabases(dir.file("a"), dir.file("b"), {
        keys: { t: ["code"] },
      });
      assert.equal(diff.databases[0]!.tables[0]!.counts.changed, 2);
      await assert.rejects(
        diffFilesystemDatabases(dir.file("a"), dir.file("b"), { keys: { u: ["code"] } }),
        (e: unknown) =>
          e instanceof UsageError &&
          /^--key u=code: no table "u" in any database of the two folders \(tables there: other, t\)/
            .test(e.message),
      );
    } finally {
      dir.cleanup();
    }
  });

  it("reports the chosen key on identical files, and across a folder diff", async () => {
    const same = table(await diffSql(CODES, CODES, { keys: { t: ["code"] } }), "t");
    assert.deepEqual([same.key, same.key_kind, same.counts.changed], [["code"], "primary_key", 0]);
    const dir = folders({ "x.db": [CODES, VACUUMED] });
    try {
      const diff = await diffFilesystemDatabases(dir.file("a"), dir.file("b"), {
        keys: { t: ["code"] },
      });
      assert.equal(diff.databases[0]!.tables[0]!.counts.changed, 2);
      assert.deepEqual(diff.settings.keys, { t: ["code"] });
    } finally {
      dir.cleanup();
    }
  });
});

describe("ignore: columns left out", () => {
  it("leaves matching columns out of the comparison and the rows, in every strategy", async () => {
    // u is diffed from its pages (rowid), k by the engine (TEXT key), n as a multiset.
    const make = `CREATE TABLE u(id INTEGER PRIMARY KEY, v, updated_at);
      CREATE TABLE k(name TEXT PRIMARY KEY, v, updated_at);
      CREATE TABLE n(v, created_at);
      ${rows(3000, "INSERT INTO u SELECT i, i, 0 FROM c")}
      ${rows(3000, "INSERT INTO k SELECT 'k' || i, i, 0 FROM c")}
      ${rows(20, "INSERT INTO n SELECT i, 0 FROM c")}`;
    const change = `UPDATE u SET updated_at = 1; UPDATE u SET v = -1 WHERE id = 7;
      UPDATE k SET updated_at = 1 WHERE v % 2 = 0; UPDATE k SET v = -1 WHERE name = 'k9';
      UPDATE n SET created_at = 1; UPDATE n SET v = -1 WHERE v = 3;`;
    const plain = await diffSql(make, `${make} ${change}`);
    assert.equal(table(plain, "u").counts.changed, 3000);
    const db = await diffSql(make, `${make} ${change}`, { ignore: ["*_at"] });
    assert.deepEqual(table(db, "u").counts, { added: 0, removed: 0, changed: 1, changed_cells: 1 });
    assert.deepEqual(table(db, "u").rows.changed, [{
      key: { id: 7 },
      before: { id: 7, v: 7 },
      after: { id: 7, v: -1 },
      changed_columns: ["v"],
    }]);
    assert.deepEqual(table(db, "k").counts, { added: 0, removed: 0, changed: 1, changed_cells: 1 });
    assert.deepEqual(table(db, "n").counts, { added: 1, removed: 1, changed: 0, changed_cells: 0 });
    assert.deepEqual(rowSummary(table(db, "n")).added, [{ v: -1 }]);
    assert.deepEqual(
      ["u", "k", "n"].map((t) => [table(db, t).compared_columns, table(db, t).ignored_columns]),
      [[["id", "v"], ["updated_at"]], [["name", "v"], ["updated_at"]], [["v"], ["created_at"]]],
    );
  });

  it("takes TABLE.COLUMN and globs, never the key, and keeps the schema plane", async () => {
    const make =
      "CREATE TABLE a(id INTEGER PRIMARY KEY, x, y); CREATE TABLE b(id INTEGER PRIMARY KEY, x);" +
      "INSERT INTO a VALUES (1, 1, 1); INSERT INTO b VALUES (1, 1);";
    const change = "UPDATE a SET x = 2, y = 2; UPDATE b SET x = 2; ALTER TABLE a ADD COLUMN z;";
    const db = await diffSql(make, `${make} ${change}`, { ignore: ["A.[xz]", "i?"] });
    assert.deepEqual(table(db, "a").rows.changed[0]!.changed_columns, ["y"]);
    assert.deepEqual(table(db, "a").ignored_columns, ["x", "z"]);
    assert.deepEqual(table(db, "a").columns.added.map((c) => c.name), ["z"]);
    assert.deepEqual(table(db, "b").rows.changed[0]!.changed_columns, ["x"]);
    assert.equal(table(db, "b").ignored_columns, undefined);
  });

  it("refuses to leave a table no column", async () => {
    await assert.rejects(
      diffSql("CREATE TABLE t(a); INSERT INTO t VALUES (1);", "CREATE TABLE t(a);", {
        ignore: ["a"],
      }),
      (e: unknown) => e instanceof UsageError && /leaves table "t" no column/.test(e.message),
    );
  });
});

describe("ignoreTables: tables left out", () => {
  it("lists them as skipped, with their indexes and triggers left out", async () => {
    const make = "CREATE TABLE logs(x); CREATE TABLE log_2(x); CREATE TABLE t(x);";
    const change =
      "INSERT INTO logs VALUES (1); CREATE INDEX ix ON logs(x); INSERT INTO t VALUES (1);";
    const db = await diffSql(make, `${make} ${change}`, { ignoreTables: ["LOG*"] });
    assert.deepEqual(db.tables.map((t) => t.name), ["t"]);
    assert.deepEqual(db.objects, []);
    assert.deepEqual(db.skipped, [
      { name: "log_2", reason: "left out by ignore_tables (--ignore-table)" },
      { name: "logs", reason: "left out by ignore_tables (--ignore-table)" },
    ]);
  });

  it("records every setting in the document, which reads back", async () => {
    const dir = tempDir();
    try {
      const a = makeDb(dir.file("a.db"), CODES);
      const b = makeDb(dir.file("b.db"), VACUUMED);
      const diff = await diffSqliteDatabases(a, b, {
        keys: { t: ["code"] },
        ignore: ["seen_at"],
        ignoreTables: ["nothing"],
      });
      const back = diffFromJson(diffToJson(diff));
      assert.deepEqual(
        [back.settings.keys, back.settings.ignore, back.settings.ignore_tables],
        [{ t: ["code"] }, ["seen_at"], ["nothing"]],
      );
      assert.deepEqual(back.databases[0]!.tables[0]!.ignored_columns, ["seen_at"]);
      assert.equal(back.databases[0]!.tables[0]!.counts.changed, 1);
    } finally {
      dir.cleanup();
    }
  });
});
