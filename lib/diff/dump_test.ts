import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { dumpSqlite } from "./dump.ts";

const dir = tempDir();
after(() => dir.cleanup());

async function dump(sql: string): Promise<string> {
  const file = makeDb(dir.file(`d${Math.random().toString(36).slice(2)}.db`), sql);
  let text = "";
  await dumpSqlite(file, { write: (t) => void (text += t) });
  return text;
}

const cases: [string, string, string][] = [
  [
    "rows in key order, one indented line each, then the table's indexes and at the end the views",
    `CREATE VIEW v AS SELECT 1;
     CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);
     INSERT INTO t VALUES (3, 'c'), (1, 'a');
     CREATE INDEX t_name ON t(name);`,
    `CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);
  INSERT INTO "t" VALUES(1,'a');
  INSERT INTO "t" VALUES(3,'c');
CREATE INDEX t_name ON t(name);
CREATE VIEW v AS SELECT 1;
`,
  ],
  [
    "a table without a key by all its columns, whatever order the rows were stored in",
    `CREATE TABLE k (a, b); INSERT INTO k VALUES (2, 'x'), (1, 'z'), (1, 'y');`,
    `CREATE TABLE k (a, b);
  INSERT INTO "k" VALUES(1,'y');
  INSERT INTO "k" VALUES(1,'z');
  INSERT INTO "k" VALUES(2,'x');
`,
  ],
  [
    "a WITHOUT ROWID table by its primary key; a multi-line CREATE on one line",
    `CREATE TABLE w (k TEXT PRIMARY KEY,
       v) WITHOUT ROWID; INSERT INTO w VALUES ('b', 1), ('a', 2);`,
    `CREATE TABLE w (k TEXT PRIMARY KEY, v) WITHOUT ROWID;
  INSERT INTO "w" VALUES('a',2);
  INSERT INTO "w" VALUES('b',1);
`,
  ],
  [
    "newlines, CR and NUL in text as char(), BLOBs as hex, REALs as read back, big integers whole",
    `CREATE TABLE x (id INTEGER PRIMARY KEY, t TEXT, b BLOB, r REAL);
     INSERT INTO x VALUES (1, 'a' || char(10) || 'b' || char(13, 0) || char(10), x'00ff', 9.5),
       (9223372036854775807, char(10), CAST(x'61ff' AS TEXT), 3);`,
    `CREATE TABLE x (id INTEGER PRIMARY KEY, t TEXT, b BLOB, r REAL);
  INSERT INTO "x" VALUES(1,'a'||char(10)||('b' || char(13,0))||char(10),x'00ff',9.5);
  INSERT INTO "x" VALUES(9223372036854775807,char(10),CAST(x'61ff' AS TEXT),3.0);
`,
  ],
];

describe("dumpSqlite()", () => {
  for (const [name, sql, expected] of cases) {
    it(`writes ${name}`, async () => assert.equal(await dump(sql), expected));
  }

  it("writes nothing for an empty database", async () => assert.equal(await dump(""), ""));

  for (const [encoding, d800] of [["UTF-16le", "00d8"], ["UTF-16be", "d800"]]) {
    it(`writes a ${encoding} database after its encoding, unpaired surrogates as their UTF-16 bytes`, async () => {
      const sql =
        `CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT); CREATE VIEW v AS SELECT s FROM t;
        CREATE TABLE k (a); INSERT INTO k VALUES ('é'), ('a');
        INSERT INTO t VALUES (2, 'wörld ☃'), (1, CAST(x'${d800}' AS TEXT));`;
      const text = await dump(`PRAGMA encoding = '${encoding}'; ${sql}`);
      assert.equal(
        text,
        `PRAGMA encoding = '${encoding}';
CREATE TABLE k (a);
  INSERT INTO "k" VALUES('a');
  INSERT INTO "k" VALUES('é');
CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT);
  INSERT INTO "t" VALUES(1,CAST(x'${d800}' AS TEXT));
  INSERT INTO "t" VALUES(2,'wörld ☃');
CREATE VIEW v AS SELECT s FROM t;
`,
      );
    });
  }
});
