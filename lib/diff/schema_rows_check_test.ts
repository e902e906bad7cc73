/**
 * A file whose sqlite_schema SQLite refuses to load ("malformed database
 * schema") is refused by the diff too, also where the diff never starts
 * SQLite (rows paired from cells, two identical files): each damage below
 * is one schema row edited (with the sqlite3 shell's writable_schema) the
 * way a damaged byte edits it, SQLite's own refusal checked first; and
 * schemas SQLite loads, in every way of naming what they create, are not.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { needs } from "../../tests/system_packages.ts";
import { SqliteDamageError } from "../errors.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";

const dir = tempDir();
after(() => dir.cleanup());

const SCHEMA = `CREATE TABLE p(k TEXT PRIMARY KEY, a UNIQUE, b);
  CREATE TABLE t(id INTEGER PRIMARY KEY, a, b);
  CREATE INDEX ta ON t(a);
  CREATE VIEW v AS SELECT a FROM t;
  CREATE TRIGGER tr AFTER UPDATE OF a ON t BEGIN SELECT 1; END;
  INSERT INTO p VALUES ('x', 1, 2), ('y', 2, 3); INSERT INTO t VALUES (1, 'a', 'b'), (2, 'c', 'd');`;

/** Whether SQLite (the runtime's own) reads the file's schema, and table `table`. */
function sqliteLoads(file: string, table = "p"): boolean {
  try {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      db.prepare(`SELECT count(*) FROM ${table}`).get();
      return true;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

let n = 0;

/** A sound file of `schema`, and a copy whose sqlite_schema `edit` changed. */
function edited(edit: string, schema = SCHEMA): { sound: string; damaged: string } {
  const sound = makeDb(dir.file(`sound${++n}.db`), schema);
  const damaged = dir.file(`damaged${n}.db`);
  fs.copyFileSync(sound, damaged);
  const r = spawnSync("sqlite3", [damaged, `PRAGMA writable_schema = ON; ${edit}`], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  return { sound, damaged };
}

const DAMAGES: Record<string, [string, RegExp]> = {
  "an index's name that is not the one its SQL creates": [
    "UPDATE sqlite_schema SET name = 'td' WHERE name = 'ta'",
    /row "td" \(index "td" of table "t"\) has SQL that creates index "ta" of table "t"/,
  ],
  "an index's table that is not the one its SQL names": [
    "UPDATE sqlite_schema SET tbl_name = 'p' WHERE name = 'ta'",
    /row "ta" .* creates index "ta" of table "t"/,
  ],
  "a table's type byte turned into a view's": [
    "UPDATE sqlite_schema SET type = 'view' WHERE name = 't'",
    /row "t" \(view "t" of table "t"\) has SQL that creates table "t"/,
  ],
  "a trigger's table that is not the one its SQL names": [
    "UPDATE sqlite_schema SET tbl_name = 'v' WHERE name = 'tr'",
    /row "tr" .* creates trigger "tr" of table "t"/,
  ],
  "an automatic index's name one letter off": [
    "UPDATE sqlite_schema SET name = 'sqlit_autoindex_p_1' WHERE name = 'sqlite_autoindex_p_1'",
    /row "sqlit_autoindex_p_1" has no SQL, and is no automatic index of a table before it/,
  ],
  "an automatic index numbered past its table's constraints": [
    "UPDATE sqlite_schema SET name = 'sqlite_autoindex_p_3' WHERE name = 'sqlite_autoindex_p_2'",
    /row "sqlite_autoindex_p_3" has no SQL/,
  ],
  "SQL that is no CREATE statement": [
    "UPDATE sqlite_schema SET sql = 'DROP VIEW v' WHERE name = 'v'",
    /row "v" has SQL that is no CREATE statement/,
  ],
};

describe("a schema SQLite refuses to load", { skip: needs("sqlite3") }, () => {
  for (const [name, [edit, says]] of Object.entries(DAMAGES)) {
    it(`is damage: ${name}`, async () => {
      const { sound, damaged } = edited(edit);
      assert.equal(sqliteLoads(sound), true);
      assert.equal(sqliteLoads(damaged), false, "SQLite itself refuses it");
      for (const [a, b] of [[sound, damaged], [damaged, sound], [damaged, damaged]]) {
        // Also when the diff reads another table: SQLite refuses the file.
        for (const tables of [undefined, ["t"], ["p"]]) {
          await assert.rejects(
            diffSqliteDatabases(a!, b!, tables === undefined ? {} : { tables }),
            (e) => e instanceof SqliteDamageError && says.test(e.message),
          );
        }
      }
    });
  }
});

describe(
  "a UTF-16 file whose CREATE statement SQLite cannot parse",
  { skip: needs("sqlite3") },
  () => {
    it("is not diffed: SQLite must read its schema, and the WASM build cannot", async () => {
      const { sound, damaged } = edited(
        "UPDATE sqlite_schema SET sql = replace(sql, 'PRIMARY KEY', 'PRIMARY XEY') WHERE name = 't'",
        `PRAGMA encoding = 'UTF-16be'; ${SCHEMA}`,
      );
      assert.equal(sqliteLoads(sound), true);
      assert.equal(sqliteLoads(damaged), false, "SQLite itself refuses it");
      await assert.rejects(
        diffSqliteDatabases(sound, damaged),
        /its schema must be read by SQLite \(a virtual table, or a CREATE statement the file reader cannot parse, as a damaged one is\)/,
      );
    });
  },
);

describe("a schema SQLite loads", () => {
  it("is read, whatever way it names what it creates", async () => {
    const schema = `CREATE TABLE IF NOT EXISTS "Quoted ""x"""([a b] UNIQUE, \`c\` PRIMARY KEY);
      CREATE TABLE main.q(a, b, UNIQUE(a, b), UNIQUE(b));
      CREATE UNIQUE INDEX IF NOT EXISTS main."I on" ON "quoted ""X"""([a b], \`c\`);
      CREATE INDEX [ON] ON q(b);
      CREATE TABLE w(k, v, PRIMARY KEY(k)) WITHOUT ROWID;
      CREATE VIEW IF NOT EXISTS "v w" AS SELECT 1 AS ON_;
      CREATE TRIGGER "t r" INSTEAD OF DELETE ON "V W" BEGIN SELECT 1; END;
      CREATE TRIGGER IF NOT EXISTS u BEFORE UPDATE OF a, b ON q WHEN new.a > 0 BEGIN SELECT 1; END;
      CREATE TABLE s(id INTEGER PRIMARY KEY AUTOINCREMENT, x);
      CREATE TABLE ${"l".repeat(1200)}(x UNIQUE);
      CREATE INDEX ${"m".repeat(990)} ON ${"l".repeat(1200)}(x);
      INSERT INTO s(x) VALUES (1); INSERT INTO q VALUES (1, 2); ANALYZE;`;
    const a = makeDb(dir.file("loads_a.db"), schema);
    const b = makeDb(dir.file("loads_b.db"), `${schema} INSERT INTO q VALUES (3, 4);`);
    assert.equal(sqliteLoads(a, "q"), true);
    const diff = (await diffSqliteDatabases(a, b)).databases[0]!;
    assert.equal(diff.status, "changed");
    assert.equal(diff.tables.find((t) => t.name === "q")?.counts.added, 1);
    assert.equal((await diffSqliteDatabases(a, a)).databases[0]!.status, "unchanged");
  });
});
