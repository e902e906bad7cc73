import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { parseCreateTable } from "./_create_table.ts";

const dir = tempDir();
after(() => dir.cleanup());

/** Statements whose columns must read as SQLite reads them (pragma table_xinfo). */
const STATEMENTS = [
  "CREATE TABLE a(id INTEGER PRIMARY KEY, x)",
  "CREATE TABLE b(id integer primary key desc, x text)",
  "CREATE TABLE c(id INT PRIMARY KEY, x Text NOT NULL DEFAULT 'it''s', y real default -1.5)",
  "CREATE TABLE d(k TEXT, n, x, PRIMARY KEY(k DESC, n)) WITHOUT ROWID",
  'CREATE TABLE e("odd ""name""" VARCHAR( 10 , 2 ), [sq br] DOUBLE PRECISION, `bt` UNSIGNED BIG INT)',
  "CREATE TABLE f(a INTEGER, b, PRIMARY KEY(a DESC))",
  "CREATE TABLE g(a, b INT GENERATED ALWAYS AS (a * 2) STORED, c AS (a || 'x'), d GENERATED ALWAYS AS (1) VIRTUAL)",
  "CREATE TABLE h(a DEFAULT (1 + 2), b DEFAULT CURRENT_TIMESTAMP, c DEFAULT x'00ff', d DEFAULT NULL, e DEFAULT TRUE, f DEFAULT - 7)",
  "CREATE TABLE i(a INTEGER CONSTRAINT pk PRIMARY KEY ON CONFLICT REPLACE AUTOINCREMENT, b UNIQUE NOT NULL ON CONFLICT IGNORE COLLATE NOCASE CHECK (b <> ''))",
  "CREATE TABLE j(id INTEGER PRIMARY KEY AUTOINCREMENT, p INTEGER REFERENCES a(id) ON DELETE CASCADE ON UPDATE SET NULL DEFERRABLE INITIALLY DEFERRED, q REFERENCES a MATCH FULL NOT DEFERRABLE)",
  "CREATE TABLE k(a, b, CONSTRAINT u UNIQUE (a, b) ON CONFLICT FAIL, CHECK (a > 0), FOREIGN KEY (b) REFERENCES a(id) ON DELETE NO ACTION)",
  'CREATE TABLE l(a INTEGER NOT NULL, b TEXT, PRIMARY KEY("a")) STRICT',
  "CREATE TABLE IF NOT EXISTS main.m( -- a comment\n  a /* another */ INTEGER,\n  b BLOB\n)",
  "CREATE TABLE n(x any, y int, z Integer primary key)",
  "CREATE TABLE o('single' TEXT, key, value, \"primary\" INT)",
  "CREATE TABLE p(a TEXT PRIMARY KEY, b ANY) WITHOUT ROWID, STRICT",
];

describe("parseCreateTable()", () => {
  it("reads every column as pragma table_xinfo does", () => {
    const file = makeDb(dir.file("x.db"), STATEMENTS.map((s) => `${s};`).join("\n"));
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const tables = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table'")
        .all() as { name: string; sql: string }[];
      // And sqlite_sequence, which AUTOINCREMENT made.
      assert.equal(tables.length, STATEMENTS.length + 1);
      for (const { name, sql } of tables) {
        const want = (db.prepare(
          `SELECT name, type, "notnull", dflt_value, pk, hidden FROM pragma_table_xinfo(?)`,
        ).all(name) as Record<string, unknown>[]).map((c) => ({
          name: c["name"],
          type: c["type"],
          not_null: Number(c["notnull"]) !== 0,
          default: c["dflt_value"],
          primary_key: Number(c["pk"]),
          hidden: Number(c["hidden"]),
        }));
        const indexed = (db.prepare(
          "SELECT count(*) AS n FROM pragma_index_list(?) WHERE origin = 'pk'",
        ).get(name) as { n: number }).n > 0;
        const got = parseCreateTable(sql);
        assert.ok(got !== null, sql);
        assert.deepEqual(got.columns, want, sql);
        assert.equal(got.pkIndexed, indexed, sql);
      }
    } finally {
      db.close();
    }
  });

  it("gives null for what it cannot read, so SQLite is asked", () => {
    assert.equal(parseCreateTable("CREATE VIRTUAL TABLE v USING fts5(a, b)"), null);
    assert.equal(parseCreateTable('CREATE TABLE q(a "INTEGER")'), null);
    assert.equal(parseCreateTable("CREATE TABLE r(a, b) AS SELECT 1, 2"), null);
    assert.equal(parseCreateTable("CREATE TABLE s(a PRIMARY KEY, b PRIMARY KEY)"), null);
    assert.equal(parseCreateTable("CREATE TABLE t(a, 'unterminated)"), null);
  });
});
