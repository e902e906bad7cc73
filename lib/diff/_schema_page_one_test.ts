import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { openDatabase, openReadOnly } from "../sqlite/database.ts";
import { PageSource } from "../sqlite_format/page_source.ts";
import { readSchemaRows } from "../sqlite_format/schema_rows.ts";
import { schemaPageOne } from "./_schema_page_one.ts";

const dir = tempDir();
after(() => dir.cleanup());
let n = 0;

const FILLER = Array.from(
  { length: 200 },
  (_, i) => `CREATE TABLE f${i}(id INTEGER PRIMARY KEY, v)`,
)
  .join("; ");
const LONG = `CREATE TABLE long_sql(id INTEGER PRIMARY KEY, ${
  Array.from({ length: 400 }, (_, i) => `column_${i} TEXT`).join(", ")
})`;
const SCHEMA = `BEGIN; ${FILLER};
  CREATE TABLE plain(id INTEGER PRIMARY KEY, name TEXT UNIQUE, score REAL);
  CREATE INDEX plain_score ON plain(score);
  CREATE TRIGGER plain_log AFTER UPDATE ON plain BEGIN INSERT INTO f1(v) VALUES (new.name); END;
  CREATE VIEW pv AS SELECT * FROM plain JOIN f2 USING (id);
  ${LONG};
  INSERT INTO plain VALUES (1, 'a', 1.5), (2, 'b', NULL), (3, 'c', -2);
  INSERT INTO long_sql(id, column_399) VALUES (7, 'last');
  INSERT INTO f3 VALUES (1, 'x');
  ANALYZE; COMMIT`;

/** Page 1 of `file` with the rows of `tables`, or null. */
function pageOne(file: string, tables: string[]): Uint8Array | null {
  const src = PageSource.open(file);
  try {
    return schemaPageOne(file, readSchemaRows(src, null, new Set(tables)));
  } finally {
    src.close();
  }
}

describe("schemaPageOne()", () => {
  const file = makeDb(dir.file(`p${++n}.db`), SCHEMA);

  it("shows SQLite only the named tables, their indexes and triggers, and statistics", async () => {
    const bytes = fs.readFileSync(file);
    const page = pageOne(file, ["plain", "sqlite_stat1"]);
    assert.notEqual(page, null);
    const db = await openReadOnly(file, {}, page);
    try {
      const names = db.query("SELECT name FROM sqlite_schema ORDER BY name").map((r) => r["name"]);
      assert.deepEqual(names, [
        "plain",
        "plain_log",
        "plain_score",
        "sqlite_autoindex_plain_1",
        "sqlite_stat1",
      ]);
      assert.deepEqual(
        db.query("SELECT id, name FROM plain INDEXED BY plain_score ORDER BY score")
          .map((r) => [r["id"], r["name"]]),
        [[2, "b"], [3, "c"], [1, "a"]],
      );
      assert.deepEqual(db.query("SELECT id FROM plain WHERE name = 'b'"), [{ id: 2 }]);
      assert.throws(() => db.query("SELECT * FROM f3"), /no such table: f3/);
      // Another connection to the same file reads its own page 1.
      const all = await openDatabase(file);
      try {
        assert.deepEqual(all.query("SELECT v FROM f3"), [{ v: "x" }]);
      } finally {
        all.close();
      }
    } finally {
      db.close();
    }
    assert.deepEqual(fs.readFileSync(file), bytes);
  });

  it("keeps a CREATE statement that spills to overflow pages whole", async () => {
    const db = await openReadOnly(file, {}, pageOne(file, ["long_sql"]));
    try {
      assert.equal(
        db.query("SELECT count(*) AS n FROM pragma_table_info('long_sql')")[0]!["n"],
        401,
      );
      assert.deepEqual(db.query("SELECT column_399 FROM long_sql"), [{ column_399: "last" }]);
    } finally {
      db.close();
    }
  });

  it("gives a page with no rows for a name no table has", async () => {
    const db = await openReadOnly(file, {}, pageOne(file, ["nothing"]));
    try {
      assert.deepEqual(db.query("SELECT count(*) AS n FROM sqlite_schema"), [{ n: 0 }]);
    } finally {
      db.close();
    }
  });

  // name, schema, tables, options
  const none: [string, string, string[], Parameters<typeof makeDb>[2]][] = [
    [
      "rows that do not fit one page",
      `BEGIN; ${FILLER}; COMMIT`,
      ["f1", "f2", "f3"].concat(
        Array.from({ length: 197 }, (_, i) => `f${i + 3}`),
      ),
      {},
    ],
    ["a virtual table", "CREATE VIRTUAL TABLE ft USING fts5(body)", ["ft"], {}],
    [
      "a file with commits in its -wal",
      "CREATE TABLE t(x); INSERT INTO t VALUES (1)",
      ["t"],
      { journal: "wal-pending" },
    ],
  ];
  for (const [name, schema, tables, options] of none) {
    it(`gives null for ${name}`, () => {
      assert.equal(pageOne(makeDb(dir.file(`p${++n}.db`), schema, options), tables), null);
    });
  }
});
