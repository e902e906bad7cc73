/**
 * `--table` among many tables: a named table whose schema rows and pages are
 * the same on both sides is diffed without the WebAssembly engine, and so is
 * a changed table keyed by an INTEGER PRIMARY KEY (its rows read from its
 * cells); other changed tables go through the engine. Either way its
 * section of the diff is the full diff's.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { needs } from "../../tests/system_packages.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import { childDiff } from "./_test_util.ts";
import { foldName } from "./names.ts";
import type { DatabaseChange } from "./types.ts";

const dir = tempDir();
after(() => dir.cleanup());

// Enough filler tables for sqlite_schema to span several pages; the named
// tables have indexes, triggers and views that reach other tables.
const FILLER = Array.from(
  { length: 120 },
  (_, i) =>
    `CREATE TABLE f${i}(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO f${i} VALUES (1, 'a');`,
).join("\n");
const SCHEMA = `
  ${FILLER}
  CREATE TABLE log(id INTEGER PRIMARY KEY, what TEXT);
  CREATE TABLE plain(id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'x', score REAL);
  CREATE INDEX plain_name ON plain(name);
  CREATE TRIGGER plain_log AFTER UPDATE ON plain BEGIN INSERT INTO log(what) VALUES (new.name); END;
  CREATE VIEW plain_f1 AS SELECT p.id, f.v FROM plain p JOIN f1 f USING (id);
  CREATE TABLE wr(k TEXT, n INT, v, PRIMARY KEY (k, n)) WITHOUT ROWID;
  CREATE TABLE "odd ""name"""([a b] TEXT, "c""d" INT);
  CREATE TABLE uniq(id INTEGER PRIMARY KEY, code TEXT UNIQUE, r REAL);
  CREATE TABLE auto(id INTEGER PRIMARY KEY AUTOINCREMENT, v REAL,
    f INT REFERENCES plain(id), CHECK (v > -1e9));
  INSERT INTO plain(name, score) VALUES ('a', 1.5), ('b', NULL), ('c', 3);
  INSERT INTO wr VALUES ('k', 1, 'one'), ('k', 2, x'00ff'), ('l', 1, 2.5);
  INSERT INTO "odd ""name""" VALUES ('p', 1), ('p', 1), ('q', NULL);
  INSERT INTO uniq VALUES (1, 'u1', 0.5), (2, 'u2', 1e300);
  INSERT INTO auto(v, f) VALUES (1, 1), (2.5, 2);
`;
// What changes beside the named table, in every case.
const OTHERS = "UPDATE f5 SET v = 'b'; INSERT INTO f100 VALUES (2, 'n'); DROP TABLE f17; " +
  "CREATE TABLE f999(x); INSERT INTO log(what) VALUES ('x')";

let n = 0;

/** A before file of SCHEMA, and an after file with `change` applied to a copy. */
function pair(change: string): { a: string; b: string } {
  // One transaction each: a commit per statement would make hundreds of syncs.
  const a = makeDb(dir.file(`a${++n}.db`), `BEGIN; ${SCHEMA}; COMMIT`);
  const b = makeDb(dir.file(`b${n}.db`), `BEGIN; ${SCHEMA}; ${OTHERS}; ${change}; COMMIT`);
  return { a, b };
}

/** A table's section and its objects, from a diff, in document order. */
function section(change: DatabaseChange, names: readonly string[]): string {
  const wanted = new Set(names.map(foldName));
  return JSON.stringify({
    tables: change.tables.filter((t) => wanted.has(foldName(t.name))),
    objects: change.objects.filter((o) => wanted.has(foldName(o.table))),
    skipped: change.skipped.filter((s) => wanted.has(foldName(s.name))),
  });
}

describe("diffSqliteDatabases() with tables named among many", () => {
  // name, tables named, the change to the named tables, whether the engine starts
  const cases: [string, string[], string, boolean][] = [
    ["an unchanged rowid table with an index, a trigger and a view", ["plain"], "", false],
    ["an unchanged table named in another case", ["PLAIN", "Wr"], "", false],
    ["an unchanged WITHOUT ROWID table", ["wr"], "", false],
    ["an unchanged table whose name needs quotes", ['odd "name"'], "", false],
    ["an unchanged table with a UNIQUE index", ["uniq"], "", false],
    ["a name no table has", ["nothing"], "", false],
    ["a changed rowid table", ["plain"], "UPDATE plain SET score = 2 WHERE id = 1", false],
    // Its rows pair by key from its cells (_keyed_cells.ts): no engine.
    ["a changed WITHOUT ROWID table", ["wr"], "DELETE FROM wr WHERE n = 2", false],
    [
      "a changed table whose name needs quotes",
      ['odd "name"'],
      `INSERT INTO "odd ""name""" VALUES ('r', 3)`,
      true,
    ],
    // The schema rows differ, but the pages give both schemas: no engine.
    ["an index added to an unchanged table", ["plain"], "CREATE INDEX p2 ON plain(score)", false],
    ["a trigger dropped from an unchanged table", ["plain"], "DROP TRIGGER plain_log", false],
    // Its rows, all removed, are read from its cells.
    ["a table dropped", ["uniq"], "DROP TABLE uniq", false],
    ["one of two named tables changed", ["uniq", "plain"], "DELETE FROM uniq WHERE id = 2", false],
    [
      "a changed AUTOINCREMENT table with a foreign key and a CHECK",
      ["auto"],
      "UPDATE auto SET v = 3 WHERE id = 1; INSERT INTO auto(v) VALUES (4)",
      false,
    ],
    ["sqlite_sequence, changed", ["sqlite_sequence"], "INSERT INTO auto(v) VALUES (4)", true],
  ];
  for (const [name, tables, change, started] of cases) {
    it(`gives ${name} the full diff's section`, async () => {
      const { a, b } = pair(change);
      for (const pairBy of ["primary_key", "rowid"] as const) {
        const full = (await diffSqliteDatabases(a, b, { pairBy })).databases[0]!;
        const named = (await diffSqliteDatabases(a, b, { pairBy, tables })).databases[0]!;
        assert.equal(section(named, tables), section(full, tables));
        const { tables: t, objects: o } = JSON.parse(section(full, tables));
        const changed = t.some((x: { status: string }) => x.status !== "unchanged") || o.length > 0;
        assert.equal(named.status, changed ? "changed" : "unchanged");
      }
      assert.equal(childDiff(a, b, tables).started, started);
    });
  }

  it("still needs the engine for a virtual table", () => {
    const sql = `${FILLER} CREATE VIRTUAL TABLE ft USING fts5(body);`;
    const a = makeDb(dir.file("vt_a.db"), `BEGIN; ${sql} COMMIT`);
    const b = makeDb(dir.file("vt_b.db"), `BEGIN; ${sql} UPDATE f3 SET v = 'z'; COMMIT`);
    assert.deepEqual(childDiff(a, b, ["ft"]), { status: "unchanged", started: true });
  });
});

describe("diffSqliteDatabases() with a named table, against sqldiff", {
  skip: needs("sqldiff"),
}, () => {
  it("counts the named table's changes as sqldiff --table does", async () => {
    const { a, b } = pair(
      "UPDATE plain SET name = 'z' WHERE id = 2; INSERT INTO plain(name) VALUES ('new'); " +
        "DELETE FROM wr WHERE k = 'l'; UPDATE wr SET v = 'uno' WHERE n = 1 AND k = 'k'",
    );
    for (const table of ["plain", "wr", "uniq"]) {
      const r = spawnSync("sqldiff", ["--primarykey", "--summary", "--table", table, a, b], {
        encoding: "utf8",
      });
      assert.equal(r.status, 0, r.stderr);
      const m = /: (\d+) changes, (\d+) inserts, (\d+) deletes/.exec(r.stdout);
      assert.notEqual(m, null, r.stdout);
      const t = (await diffSqliteDatabases(a, b, { tables: [table] })).databases[0]!.tables[0]!;
      assert.deepEqual(
        [t.counts.changed, t.counts.added, t.counts.removed],
        [Number(m![1]), Number(m![2]), Number(m![3])],
      );
    }
  });
});
