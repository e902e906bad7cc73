/**
 * `db diff --sql` and `--changeset` on the shapes that broke the round trip:
 * each pair is patched with the sqlite3 shell (--sql) and with
 * `sqlite3changeset_apply` (--changeset, on the tables it carries), and the
 * result must then diff as unchanged against the after file. Each case
 * failed before its fix.
 *
 * @module
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, tempDir } from "./fixtures.ts";
import {
  applyChangeset,
  applySqlWithShell,
  changesetPatch,
  differences,
  sqlPatch,
} from "./apply_patch.ts";
import { needs } from "./system_packages.ts";

const dir = tempDir("dbagenteval-patch-cases-");
after(() => dir.cleanup());
let n = 0;

const KEYED = "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);";
const KEYLESS = "CREATE TABLE k(a, b);";

const cases: [string, string, string][] = [
  [
    "text holding a NUL byte, updated, inserted and deleted by value",
    `${KEYED} ${KEYLESS} INSERT INTO t VALUES (1, 'a'), (2, 'b' || char(0) || 'c');
     INSERT INTO k VALUES ('x' || char(0) || 'y', 1), (char(0), 2);`,
    `${KEYED} ${KEYLESS} INSERT INTO t VALUES (1, 'a' || char(0)), (3, char(0,0) || 'z');
     INSERT INTO k VALUES (char(0), 2), ('p' || char(0), 3);`,
  ],
  [
    "text holding CR LF, updated, inserted and deleted by value",
    `${KEYED} ${KEYLESS} INSERT INTO t VALUES (1, 'a'), (2, 'l1' || char(13,10) || 'l2');
     INSERT INTO k VALUES ('r' || char(13,10), 1), (char(13), 2);`,
    `${KEYED} ${KEYLESS} INSERT INTO t VALUES (1, 'a' || char(13,10) || 'b'), (3, char(13));
     INSERT INTO k VALUES (char(13), 2), (char(13,13,10,10), 3);`,
  ],
  [
    "a keyless table whose column type changed",
    `CREATE TABLE k(a, b); INSERT INTO k VALUES ('1', 'x'), ('2', 'y'), (3, 'z'), ('w', 'v');`,
    `CREATE TABLE k(a INTEGER, b); INSERT INTO k VALUES (1, 'x'), (2, 'y'), (3, 'z'), ('w', 'v');
     INSERT INTO k VALUES ('4', 'new');`,
  ],
  [
    "a change only in a generated column (1.0 -> 1 under typeof)",
    `CREATE TABLE g(id INTEGER PRIMARY KEY, a, b, g TEXT GENERATED ALWAYS AS (typeof(a) || typeof(b)) STORED,
       h GENERATED ALWAYS AS (a || '') VIRTUAL);
     INSERT INTO g(id, a, b) VALUES (1, 1.0, 2), (2, 5, 6.0), (3, 7, 8);`,
    `CREATE TABLE g(id INTEGER PRIMARY KEY, a, b, g TEXT GENERATED ALWAYS AS (typeof(a) || typeof(b)) STORED,
       h GENERATED ALWAYS AS (a || '') VIRTUAL);
     INSERT INTO g(id, a, b) VALUES (1, 1, 2), (2, 5.0, 6), (3, 7.0, 8.0);`,
  ],
  [
    "an UPDATE of an AUTOINCREMENT key (sqlite_sequence stays)",
    `CREATE TABLE s(id INTEGER PRIMARY KEY AUTOINCREMENT, v);
     INSERT INTO s(v) VALUES ('a'), ('b'), ('c');`,
    `CREATE TABLE s(id INTEGER PRIMARY KEY AUTOINCREMENT, v);
     INSERT INTO s(v) VALUES ('a'), ('b'), ('c'); UPDATE s SET id = 100 WHERE id = 3;`,
  ],
  [
    "rows inserted below an AUTOINCREMENT table's seq, and a new AUTOINCREMENT table",
    `CREATE TABLE s(id INTEGER PRIMARY KEY AUTOINCREMENT, v);
     INSERT INTO s(v) VALUES ('a'), ('b'), ('c'); DELETE FROM s WHERE id = 3;`,
    `CREATE TABLE s(id INTEGER PRIMARY KEY AUTOINCREMENT, v);
     INSERT INTO s(v) VALUES ('a'), ('b'), ('c'); DELETE FROM s WHERE id > 1;
     INSERT INTO s(id, v) VALUES (2, 'B');
     CREATE TABLE s2(id INTEGER PRIMARY KEY AUTOINCREMENT, v); INSERT INTO s2(v) VALUES ('x');`,
  ],
  [
    "NULL-key rows with a column only the after side has",
    `CREATE TABLE t(k TEXT PRIMARY KEY, v); INSERT INTO t VALUES (NULL, 1), (NULL, 2), ('a', 3);`,
    `CREATE TABLE t(k TEXT PRIMARY KEY, v); INSERT INTO t VALUES (NULL, 1), (NULL, 2), ('a', 3);
     ALTER TABLE t ADD COLUMN w; INSERT INTO t VALUES (NULL, 1, 'x');
     UPDATE t SET w = 'y' WHERE k IS NULL AND v = 2;`,
  ],
  [
    "a keyless table whose own columns take the rowid's three names, duplicate rows removed",
    `CREATE TABLE k(rowid, oid, _rowid_, a);
     INSERT INTO k VALUES (5, 5, 5, 'x'), (1, 1, 1, 'y'), (1, 1, 1, 'y'), (1, 1, 1, 'y'),
       (2, 2, 2, 'z'), (9, 9, 9, 'w'), (NULL, 0, -1, 'n');`,
    `CREATE TABLE k(rowid, oid, _rowid_, a);
     INSERT INTO k VALUES (5, 5, 5, 'x'), (1, 1, 1, 'y'), (9, 9, 9, 'w'), (3, 3, 3, 'new'),
       (NULL, 0, -1, 'n'), (NULL, 0, -1, 'n');`,
  ],
  [
    "NULL keys in a table whose columns take the rowid's three names",
    `CREATE TABLE t(k TEXT PRIMARY KEY, rowid, oid, _rowid_);
     INSERT INTO t VALUES (NULL, 1, 1, 1), (NULL, 1, 1, 1), (NULL, 2, 2, 2), ('a', 3, 3, 3);`,
    `CREATE TABLE t(k TEXT PRIMARY KEY, rowid, oid, _rowid_);
     INSERT INTO t VALUES (NULL, 1, 1, 1), (NULL, 7, 7, 7), ('a', 3, 3, 4);`,
  ],
  [
    "an FTS5 table's rows changed, one FTS5 table added and one dropped",
    `CREATE VIRTUAL TABLE f USING fts5(a, b); CREATE VIRTUAL TABLE gone USING fts5(x);
     INSERT INTO f(rowid, a, b) VALUES (1, 'one two', 'x'), (2, 'three', 'y'), (3, 'four', 'z');
     INSERT INTO gone VALUES ('bye');`,
    `CREATE VIRTUAL TABLE f USING fts5(a, b); CREATE VIRTUAL TABLE gone USING fts5(x);
     INSERT INTO f(rowid, a, b) VALUES (1, 'one two', 'x'), (2, 'three', 'y'), (3, 'four', 'z');
     INSERT INTO gone VALUES ('bye');
     UPDATE f SET a = 'five six' WHERE rowid = 2; DELETE FROM f WHERE rowid = 3;
     INSERT INTO f(rowid, a, b) VALUES (9, 'seven', 'w'); DROP TABLE gone;
     CREATE VIRTUAL TABLE fresh USING fts5(c); INSERT INTO fresh VALUES ('new words');`,
  ],
  [
    "an rtree's rows changed",
    `CREATE VIRTUAL TABLE r USING rtree(id, x0, x1);
     INSERT INTO r VALUES (1, 0, 1), (2, 2, 3), (3, 4, 5);`,
    `CREATE VIRTUAL TABLE r USING rtree(id, x0, x1);
     INSERT INTO r VALUES (1, 0, 1), (2, 2, 3), (3, 4, 5);
     UPDATE r SET x1 = 9 WHERE id = 2; DELETE FROM r WHERE id = 1; INSERT INTO r VALUES (7, 1, 2);`,
  ],
];

/**
 * Tables that gained columns: [name, before, after, whether --sql adds them
 * with ALTER TABLE ... ADD COLUMN (true) or rebuilds the table (false)].
 */
const added: [string, string, string, boolean][] = [
  [
    "typed columns with constant defaults, NOT NULL, a CHECK, a VIRTUAL column, before a table constraint",
    `CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, UNIQUE(a)); CREATE INDEX t_a ON t(a);
     INSERT INTO t VALUES (1, 'p'), (2, 'q'), (3, 'r');`,
    `CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, UNIQUE(a)); CREATE INDEX t_a ON t(a);
     INSERT INTO t VALUES (1, 'p'), (2, 'q'), (3, 'r');
     ALTER TABLE t ADD COLUMN n INTEGER NOT NULL DEFAULT 7;
     ALTER TABLE t ADD COLUMN s TEXT DEFAULT 'none' CHECK (length(s) < 10);
     ALTER TABLE t ADD COLUMN g AS (n * 2);
     UPDATE t SET n = 8, s = 'set' WHERE id = 2; DELETE FROM t WHERE id = 3;
     INSERT INTO t(id, a, s) VALUES (4, 's', 'new');`,
    true,
  ],
  [
    "a WITHOUT ROWID table",
    `CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID; INSERT INTO w VALUES ('a', 1), ('b', 2);`,
    `CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID; INSERT INTO w VALUES ('a', 1), ('b', 2);
     ALTER TABLE w ADD COLUMN x REAL DEFAULT 0.5; UPDATE w SET x = 1.25 WHERE k = 'b';`,
    true,
  ],
  [
    "a column with an expression default",
    `CREATE TABLE t(id INTEGER PRIMARY KEY, a); INSERT INTO t VALUES (1, 'p'), (2, 'q');`,
    `CREATE TABLE t(id INTEGER PRIMARY KEY, a, b INT DEFAULT (1 + 1));
     INSERT INTO t(id, a) VALUES (1, 'p'), (2, 'q'), (3, 'r');`,
    false,
  ],
  [
    "a STORED generated column",
    `CREATE TABLE t(id INTEGER PRIMARY KEY, a); INSERT INTO t VALUES (1, 'p');`,
    `CREATE TABLE t(id INTEGER PRIMARY KEY, a, g AS (a || '!') STORED);
     INSERT INTO t(id, a) VALUES (1, 'p'), (2, 'q');`,
    false,
  ],
  [
    "a UNIQUE column",
    `CREATE TABLE t(id INTEGER PRIMARY KEY, a); INSERT INTO t VALUES (1, 'p');`,
    `CREATE TABLE t(id INTEGER PRIMARY KEY, a, u UNIQUE); INSERT INTO t VALUES (1, 'p', 'x');`,
    false,
  ],
];

describe(
  "db diff --sql adds columns with ALTER TABLE where SQLite can",
  { skip: needs("sqlite3") },
  () => {
    for (const [name, before, afterSql, alter] of added) {
      it(`db diff --sql ${alter ? "adds" : "rebuilds the table for"} ${name}, and reproduces it`, async () => {
        const i = ++n;
        const a = makeDb(dir.file(`a${i}.db`), before);
        const b = makeDb(dir.file(`b${i}.db`), afterSql);
        const sql = await sqlPatch(a, b);
        assert.equal(/ ADD COLUMN /.test(sql), alter, sql);
        assert.equal(/ RENAME TO /.test(sql), !alter, sql);
        const patched = dir.file(`p${i}.db`);
        assert.equal(applySqlWithShell(a, sql, patched), null);
        assert.deepEqual(await differences(patched, b), []);
      });
    }
  },
);

describe(
  "db diff --sql and --changeset reproduce the after file",
  { skip: needs("sqlite3") },
  () => {
    for (const [name, before, afterSql] of cases) {
      it(`db diff --sql applied by the sqlite3 shell reproduces ${name}`, async () => {
        const i = ++n;
        const a = makeDb(dir.file(`a${i}.db`), before);
        const b = makeDb(dir.file(`b${i}.db`), afterSql);
        const patched = dir.file(`p${i}.db`);
        assert.notDeepEqual(await differences(a, b), [], "the pair differs");
        assert.equal(applySqlWithShell(a, await sqlPatch(a, b), patched), null);
        assert.deepEqual(await differences(patched, b), []);
      });
      it(`db diff --changeset applied by sqlite3changeset_apply reproduces ${name}`, async () => {
        const i = ++n;
        const a = makeDb(dir.file(`a${i}.db`), before);
        const b = makeDb(dir.file(`b${i}.db`), afterSql);
        const patched = dir.file(`c${i}.db`);
        const { bytes, omitted } = await changesetPatch(a, b);
        assert.equal(await applyChangeset(a, bytes, patched), null);
        assert.deepEqual(await differences(patched, b, omitted, false), []);
      });
    }
  },
);
