import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { addedColumnDefinitions } from "./_add_column.ts";

/** The CREATE statement SQLite stores for table `t` after running `sql`. */
function stored(sql: string): string {
  const db = new DatabaseSync(":memory:");
  try {
    db.exec(sql);
    return String(db.prepare("SELECT sql FROM sqlite_schema WHERE name = 't'").get()!["sql"]);
  } finally {
    db.close();
  }
}

// [name, CREATE of the before side, what makes the after side from it
// (ALTERs SQLite runs, on a table with no row when SQLite allows them only
// there; or another CREATE), the definitions expected, or null: rebuild]
const cases: [string, string, string, string[] | null][] = [
  [
    "a column without a type",
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a)",
    "ALTER TABLE t ADD COLUMN b",
    [
      "b",
    ],
  ],
  [
    "a typed column with a string default",
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a)",
    "ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'x,y'",
    ["b TEXT DEFAULT 'x,y'"],
  ],
  [
    "two columns, in order",
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a)",
    "ALTER TABLE t ADD COLUMN b INT DEFAULT -1.5; ALTER TABLE t ADD COLUMN c BLOB DEFAULT x'00ff'",
    ["b INT DEFAULT -1.5", "c BLOB DEFAULT x'00ff'"],
  ],
  [
    "a column before the table constraints",
    "CREATE TABLE t(a, b, UNIQUE(a), CHECK(b > 0))",
    "ALTER TABLE t ADD COLUMN c DECIMAL(10, 2)",
    ["c DECIMAL(10, 2)"],
  ],
  [
    "NOT NULL with a default, a CHECK, a collation, a NULL-default reference",
    "CREATE TABLE t(id INTEGER PRIMARY KEY)",
    `ALTER TABLE t ADD COLUMN n INT NOT NULL DEFAULT 0;
     ALTER TABLE t ADD COLUMN s TEXT COLLATE NOCASE CHECK (length(s) < 9);
     ALTER TABLE t ADD COLUMN r INT REFERENCES other(id) DEFAULT NULL`,
    [
      "n INT NOT NULL DEFAULT 0",
      "s TEXT COLLATE NOCASE CHECK (length(s) < 9)",
      "r INT REFERENCES other(id) DEFAULT NULL",
    ],
  ],
  [
    "generated VIRTUAL columns",
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a)",
    "ALTER TABLE t ADD COLUMN g AS (a * 2); ALTER TABLE t ADD COLUMN h INT GENERATED ALWAYS AS (a + 1) VIRTUAL",
    ["g AS (a * 2)", "h INT GENERATED ALWAYS AS (a + 1) VIRTUAL"],
  ],
  [
    "a WITHOUT ROWID table",
    "CREATE TABLE t(k TEXT PRIMARY KEY DEFAULT 'k', v) WITHOUT ROWID",
    "ALTER TABLE t ADD COLUMN x REAL",
    ["x REAL"],
  ],
  [
    "a STRICT table",
    "CREATE TABLE t(id INTEGER PRIMARY KEY, n INT) STRICT",
    "ALTER TABLE t ADD COLUMN m TEXT",
    ["m TEXT"],
  ],
  [
    "quoted names and a comment inside the definition",
    'CREATE TABLE "t"("my id" INTEGER PRIMARY KEY)',
    'ALTER TABLE t ADD COLUMN "my col" /* note */ TEXT',
    ['"my col" /* note */ TEXT'],
  ],
  [
    "NOT NULL without a default (SQLite adds it to an empty table only)",
    "CREATE TABLE t(id INTEGER PRIMARY KEY)",
    "ALTER TABLE t ADD COLUMN n INT NOT NULL",
    null,
  ],
  [
    "NOT NULL with DEFAULT NULL",
    "CREATE TABLE t(id INTEGER PRIMARY KEY)",
    "ALTER TABLE t ADD COLUMN n INT NOT NULL DEFAULT NULL",
    null,
  ],
  [
    "a CURRENT_TIMESTAMP default",
    "CREATE TABLE t(id INTEGER PRIMARY KEY)",
    "ALTER TABLE t ADD COLUMN at TEXT DEFAULT CURRENT_TIMESTAMP",
    null,
  ],
  [
    "an expression default",
    "CREATE TABLE t(id INTEGER PRIMARY KEY)",
    "ALTER TABLE t ADD COLUMN n INT DEFAULT (1 + 1)",
    null,
  ],
  [
    "a STORED generated column",
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a)",
    "ALTER TABLE t ADD COLUMN g AS (a * 2) STORED",
    null,
  ],
  [
    "a reference with a default",
    "CREATE TABLE t(id INTEGER PRIMARY KEY)",
    "ALTER TABLE t ADD COLUMN r INT REFERENCES other(id) DEFAULT 1",
    null,
  ],
  [
    "a UNIQUE column",
    "CREATE TABLE t(id INTEGER PRIMARY KEY)",
    "DROP TABLE t; CREATE TABLE t(id INTEGER PRIMARY KEY, u UNIQUE)",
    null,
  ],
  [
    "a PRIMARY KEY column",
    "CREATE TABLE t(a)",
    "DROP TABLE t; CREATE TABLE t(a, id INTEGER PRIMARY KEY)",
    null,
  ],
  [
    "a column inserted in the middle",
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a)",
    "DROP TABLE t; CREATE TABLE t(id INTEGER PRIMARY KEY, x, a)",
    null,
  ],
  [
    "a column's type changed as well",
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a INT)",
    "DROP TABLE t; CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b)",
    null,
  ],
  [
    "a column written without the space SQLite puts after its comma",
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a)",
    "DROP TABLE t; CREATE TABLE t(id INTEGER PRIMARY KEY, a,b)",
    null,
  ],
  [
    "a table constraint added",
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a)",
    "DROP TABLE t; CREATE TABLE t(id INTEGER PRIMARY KEY, a, UNIQUE(a))",
    null,
  ],
];

describe("addedColumnDefinitions()", () => {
  for (const [name, create, change, expected] of cases) {
    it(`addedColumnDefinitions() ${expected === null ? "refuses" : "reads"} ${name}`, () => {
      const before = stored(create);
      const after = stored(`${create}; ${change}`);
      const got = addedColumnDefinitions(before, after);
      assert.deepEqual(got, expected);
      if (got === null) return;
      // SQLite itself, on a table with a row, turns before into after with them.
      const alters = got.map((d) => `ALTER TABLE t ADD COLUMN ${d};`).join("\n");
      const db = new DatabaseSync(":memory:");
      try {
        db.exec(`${create}; INSERT INTO t DEFAULT VALUES; ${alters}`);
        const sql = db.prepare("SELECT sql FROM sqlite_schema WHERE name = 't'").get()!["sql"];
        assert.equal(sql, after);
      } finally {
        db.close();
      }
    });
  }
});
