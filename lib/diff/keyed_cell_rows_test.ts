/**
 * A changed table keyed by columns (WITHOUT ROWID, or a rowid table whose
 * primary key is not the rowid) has its rows paired from its cells
 * (_keyed_cells.ts) without the engine when its key compares as BINARY and
 * ascending: its section of the diff, and every row event a streamed
 * output sees, must be what the engine gives (the engine's strategy alone),
 * for every kind of key and value; a key the cells do not pair (NOCASE,
 * DESC, a residue too large to hold) is the engine's, with the same result.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import type { DiffOptions } from "./options.ts";
import { ENGINE_ROWS, type TableStrategy } from "./_strategies.ts";
import { childDiff, tableSeen } from "./_test_util.ts";

const dir = tempDir();
after(() => dir.cleanup());

const FILL = `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 400)`;

// Every kind of change, each next to one that is no change to IS.
const VALUE_CHANGES = `UPDATE t SET a = 1.0 WHERE a = 10;
  UPDATE t SET a = '11' WHERE a = 11;
  UPDATE t SET a = x'61' WHERE a = 12;
  UPDATE t SET r = 0 WHERE r = 6.5;
  UPDATE t SET r = 7 WHERE r = 7.0;
  UPDATE t SET x = printf('%.5000c', 'y') WHERE a = 20;
  UPDATE t SET x = CAST(x'ff81' AS TEXT) WHERE a = 21;
  UPDATE t SET b = zeroblob(6000) || x'01' WHERE a = 22;
  UPDATE t SET a = 9007199254740993 WHERE a = 23;
  UPDATE t SET x = NULL WHERE a = 24;
  UPDATE t SET x = x WHERE a = 25;
  DELETE FROM t WHERE a IN (30, 31, 400);`;

/** A table's statement, its rows and its changes. */
interface Shape {
  readonly create: string;
  readonly fill: string;
  readonly changes: string;
  /** Run on the after file once the changes are committed (a VACUUM). */
  readonly then?: string;
  /** Run first on both files (an encoding). */
  readonly first?: string;
}

const TEXT_KEY: Shape = {
  create: "CREATE TABLE t(k TEXT PRIMARY KEY, a, r REAL, x TEXT, b BLOB) WITHOUT ROWID",
  fill:
    `${FILL} INSERT INTO t SELECT printf('k%05d', i), i, i / 2.0 + 1.5, 'row ' || i, randomblob(8) FROM s`,
  changes: `${VALUE_CHANGES}
    INSERT INTO t VALUES ('k00030x', 'new', 1, 'n', x'00'), ('', NULL, NULL, NULL, NULL), ('zz', 1, 2, 3, 4)`,
};

const SHAPES: Record<string, Shape> = {
  "a TEXT key": TEXT_KEY,
  "a key of two columns, the second first": {
    create: "CREATE TABLE t(a, k TEXT, r REAL, x TEXT, b BLOB, PRIMARY KEY(k, a)) WITHOUT ROWID",
    fill:
      `${FILL} INSERT INTO t SELECT i, 'k' || (i % 7), i / 2.0 + 1.5, 'row ' || i, randomblob(8) FROM s`,
    changes: `${VALUE_CHANGES}
      INSERT INTO t VALUES (-1, 'k1', 1, 'n', x'00'), (500, 'a', NULL, NULL, NULL)`,
  },
  "keys of every storage class, an integer and a real that are equal": {
    create: "CREATE TABLE t(k PRIMARY KEY, a, r REAL, x TEXT, b BLOB) WITHOUT ROWID",
    fill: `${FILL} INSERT INTO t SELECT CASE i % 4 WHEN 0 THEN i WHEN 1 THEN i + 0.5
        WHEN 2 THEN 'k' || i ELSE CAST('k' || i AS BLOB) END, i, i / 2.0 + 1.5, 'row ' || i,
        randomblob(8) FROM s;
      INSERT INTO t VALUES (1e18, 'big', 0, '', x''), (9223372036854775807, 'max', 0, '', x''),
        (-9223372036854775808, 'min', 0, '', x''), (-0.0, 'zero', 0, '', x'')`,
    changes: `${VALUE_CHANGES}
      DELETE FROM t WHERE k = 400.5 OR k = 1e18;
      INSERT INTO t VALUES (400, 'int again', 1, 'n', x'00'), (1000000000000000000, 'int', 0, '', x'');
      UPDATE t SET k = 0 WHERE a = 'zero';
      UPDATE t SET k = 8.0 WHERE k = 8;
      UPDATE t SET k = 12.0, r = 99 WHERE k = 12;`,
  },
  "a column added since some rows were written": {
    create: "CREATE TABLE t(k TEXT PRIMARY KEY, a, r REAL, x TEXT, b BLOB) WITHOUT ROWID",
    fill:
      `${FILL} INSERT INTO t SELECT printf('k%05d', i), i, i / 2.0 + 1.5, 'row ' || i, randomblob(8) FROM s;
      ALTER TABLE t ADD COLUMN z DEFAULT 7; ALTER TABLE t ADD COLUMN w REAL DEFAULT 2`,
    changes: `${VALUE_CHANGES} UPDATE t SET z = 7 WHERE a = 40; UPDATE t SET z = 8 WHERE a = 41;
      UPDATE t SET w = 2 WHERE a = 42; UPDATE t SET w = 3 WHERE a = 43`,
  },
  "a STORED generated column": {
    create: "CREATE TABLE t(k INT PRIMARY KEY, a, r REAL, g AS (a || '!') STORED, x TEXT, " +
      "b BLOB) WITHOUT ROWID",
    fill:
      `${FILL} INSERT INTO t(k, a, r, x, b) SELECT i, i, i / 2.0 + 1.5, 'row ' || i, randomblob(8) FROM s`,
    changes: VALUE_CHANGES,
  },
  "a rowid table keyed by a BLOB": {
    create: "CREATE TABLE t(k BLOB PRIMARY KEY, a, r REAL, x TEXT, b BLOB)",
    fill: `${FILL} INSERT INTO t SELECT CAST(printf('k%05d', 401 - i) AS BLOB), i, i / 2.0 + 1.5,
      'row ' || i, randomblob(8) FROM s`,
    changes:
      `${VALUE_CHANGES} INSERT INTO t VALUES (x'', 'empty', 1, 'n', x'00'), (x'ff', 1, 2, 3, 4)`,
  },
  "a rowid table keyed by a REAL, whole numbers among them": {
    create: "CREATE TABLE t(a, k REAL PRIMARY KEY, r REAL, x TEXT, b BLOB)",
    fill: `${FILL} INSERT INTO t SELECT i, (i % 2) * 0.25 + 1000 - i, i / 2.0 + 1.5, 'row ' || i,
      randomblob(8) FROM s`,
    changes:
      `${VALUE_CHANGES} INSERT INTO t VALUES ('new', -1e300, 1, 'n', x'00'), (1, 5.5, 2, 3, 4);
      UPDATE t SET k = k + 0.5 WHERE a = 60`,
  },
  "a rowid table keyed by two columns, its rowids renumbered by a VACUUM": {
    create: "CREATE TABLE t(a INT, k TEXT NOT NULL, r REAL, x TEXT, b BLOB, PRIMARY KEY(k, a))",
    fill:
      `${FILL} INSERT INTO t SELECT i, 'k' || (i % 7), i / 2.0 + 1.5, 'row ' || i, randomblob(8) FROM s`,
    changes: `${VALUE_CHANGES} INSERT INTO t VALUES (-1, 'k1', 1, 'n', x'00'), (500, 'a', 1, 2, 3);
      DELETE FROM t WHERE a = 1`,
    then: "VACUUM",
  },
  "a rowid table keyed by an INT that is not the rowid": {
    create: "CREATE TABLE t(k INT PRIMARY KEY, a, r REAL, x TEXT, b BLOB)",
    fill: `${FILL} INSERT INTO t SELECT i * 3, i, i / 2.0 + 1.5, 'row ' || i, randomblob(8) FROM s`,
    changes:
      `${VALUE_CHANGES} INSERT INTO t VALUES (-7, 'neg', 1, 'n', x'00'), (1 << 62, 'big', 2, 3, 4)`,
  },
  "a NOCASE key, a key's case changed": {
    ...TEXT_KEY,
    create: "CREATE TABLE t(k TEXT COLLATE NOCASE PRIMARY KEY, a, r REAL, x TEXT, b BLOB) " +
      "WITHOUT ROWID",
    changes: `${TEXT_KEY.changes}; UPDATE t SET k = upper(k) WHERE a = 50;
      INSERT INTO t VALUES ('K00051x', 1, 2, 3, 4), ('k00052X', 1, 2, 3, 4)`,
  },
  "an RTRIM key of a rowid table, trailing spaces changed": {
    ...TEXT_KEY,
    create: "CREATE TABLE t(k TEXT COLLATE RTRIM PRIMARY KEY, a, r REAL, x TEXT, b BLOB)",
    changes: `${TEXT_KEY.changes}; UPDATE t SET k = k || '  ' WHERE a = 50;
      UPDATE t SET k = k || ' x' WHERE a = 51`,
  },
  "a NOCASE key of two columns in a rowid table": {
    create: "CREATE TABLE t(a INT, k TEXT COLLATE NOCASE NOT NULL, r REAL, x TEXT, b BLOB, " +
      "PRIMARY KEY(k, a))",
    fill: `${FILL} INSERT INTO t SELECT i, 'k' || (i % 7) || char(65 + i % 3), i / 2.0 + 1.5,
      'row ' || i, randomblob(8) FROM s`,
    changes: `${VALUE_CHANGES} UPDATE t SET k = lower(k) WHERE a % 5 = 0;
      INSERT INTO t VALUES (1, 'zz', 1, 2, 3)`,
  },
  "a change of many pages": {
    create: "CREATE TABLE t(k TEXT PRIMARY KEY, a, r REAL, x TEXT, b BLOB) WITHOUT ROWID",
    fill: `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 20000)
      INSERT INTO t SELECT printf('k%06d', i), i, i / 2.0 + 1.5, printf('%.40c', 'w'), NULL FROM s`,
    changes: `${VALUE_CHANGES} UPDATE t SET a = a + 1 WHERE a % 7 = 0;
      DELETE FROM t WHERE a % 13 = 0;
      INSERT INTO t SELECT k || 'b', a, r, x, b FROM t WHERE a % 11 = 0`,
  },
};

// Keys the cells leave to the engine.
const ENGINE_SHAPES: Record<string, Shape> = {
  "a key under NOCASE in its tree only": {
    ...TEXT_KEY,
    create: "CREATE TABLE t(k TEXT, a, r REAL, x TEXT, b BLOB, PRIMARY KEY(k COLLATE NOCASE)) " +
      "WITHOUT ROWID",
  },
  "a DESC key": {
    ...TEXT_KEY,
    create: "CREATE TABLE t(k TEXT PRIMARY KEY DESC, a, r REAL, x TEXT, b BLOB) WITHOUT ROWID",
  },
  "a rowid table whose key holds a NULL": {
    ...SHAPES["a rowid table keyed by a BLOB"]!,
    changes: `${
      SHAPES["a rowid table keyed by a BLOB"]!.changes
    }; UPDATE t SET k = NULL WHERE a = 70`,
  },
  "a rowid table keyed by an INTEGER PRIMARY KEY DESC": {
    ...SHAPES["a rowid table keyed by an INT that is not the rowid"]!,
    create: "CREATE TABLE t(k INTEGER PRIMARY KEY DESC, a, r REAL, x TEXT, b BLOB)",
  },
  // UTF-16 text orders by its bytes in the file, but the engine reads a
  // UTF-8 copy of such a file (_utf8_copy.ts), whose bytes order otherwise.
  "a UTF-16 file's TEXT key": {
    first: "PRAGMA encoding = 'UTF-16le'",
    create: "CREATE TABLE t(k TEXT PRIMARY KEY, a) WITHOUT ROWID",
    fill: `${FILL} INSERT INTO t SELECT char(0x60 + i % 30, 0x100 + i), i FROM s`,
    changes: "UPDATE t SET a = -a WHERE a % 3 = 0; DELETE FROM t WHERE a % 7 = 0",
  },
  "a UTF-16 file's TEXT key of a rowid table": {
    first: "PRAGMA encoding = 'UTF-16be'",
    create: "CREATE TABLE t(k TEXT PRIMARY KEY, a)",
    fill: `${FILL} INSERT INTO t SELECT char(0x100 + i, 0x60 + i % 30), i FROM s`,
    changes: "UPDATE t SET a = -a WHERE a % 3 = 0; DELETE FROM t WHERE a % 7 = 0",
  },
  // NOCASE compares a UTF-16 file's text in UTF-8, not in the file's bytes
  // (the key's order is checked so, and had been taken for damage).
  "a UTF-16 file's NOCASE key": {
    first: "PRAGMA encoding = 'UTF-16le'",
    create: "CREATE TABLE t(k TEXT COLLATE NOCASE PRIMARY KEY, a) WITHOUT ROWID",
    fill: `${FILL} INSERT INTO t SELECT char(0x60 + i % 30, 0x100 + i), i FROM s`,
    changes: "UPDATE t SET a = -a WHERE a % 3 = 0; DELETE FROM t WHERE a % 7 = 0",
  },
  "more rows changed than the cells hold": {
    create: "CREATE TABLE t(k INT PRIMARY KEY, a) WITHOUT ROWID",
    fill: `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 100100)
      INSERT INTO t SELECT i, i FROM s`,
    changes: "UPDATE t SET a = -a",
  },
};

let n = 0;

/** Two files of `shape` (and a rowid table beside it), the after one changed. */
function pair(shape: Shape): { a: string; b: string } {
  const sql = `${
    shape.first ?? ""
  }; BEGIN; CREATE TABLE o(id INTEGER PRIMARY KEY, v); INSERT INTO o VALUES (1, 2);
    ${shape.create}; ${shape.fill};`;
  const a = makeDb(dir.file(`a${++n}.db`), `${sql} COMMIT`);
  const b = makeDb(dir.file(`b${n}.db`), `${sql} ${shape.changes}; COMMIT; ${shape.then ?? ""}`);
  return { a, b };
}

/** Table t's section of a diff and the row events streamed for it. */
const seen = (a: string, b: string, options: DiffOptions, strategies?: readonly TableStrategy[]) =>
  tableSeen(a, b, options, "t", strategies);

/** Asserts two long JSON texts equal, showing where they first differ. */
function same(actual: string, expected: string): void {
  if (actual === expected) return;
  let i = 0;
  while (actual[i] === expected[i]) i++;
  const around = (s: string) => s.slice(Math.max(0, i - 300), i + 300);
  assert.fail(
    `differ at ${i} of ${expected.length}:\n${around(actual)}\nexpected:\n${around(expected)}`,
  );
}

describe("a changed table keyed by columns, paired from its cells", () => {
  const all: [string, Shape, boolean][] = [
    ...Object.entries(SHAPES).map(([k, s]): [string, Shape, boolean] => [k, s, false]),
    ...Object.entries(ENGINE_SHAPES).map(([k, s]): [string, Shape, boolean] => [k, s, true]),
  ];
  for (const [name, shape, engine] of all) {
    const title = `gives the engine's rows and events for ${name}${
      engine ? " (the engine's)" : ""
    }`;
    it(title, { timeout: 120_000 }, async () => {
      const { a, b } = pair(shape);
      for (const maxRows of [1000, 2, 0]) {
        const sql = await seen(a, b, { maxRows }, [ENGINE_ROWS]);
        same(await seen(a, b, { maxRows }), sql);
        same(await seen(a, b, { maxRows, tables: ["t"] }), sql);
        assert.match(sql, /"status":"changed"/);
      }
      assert.equal(childDiff(a, b, ["t"]).started, engine);
    });
  }
});

describe("the engine's strategy alone", () => {
  it("gives two identical files no rows, their spilled keys read once", async () => {
    const sql = `CREATE TABLE t(k TEXT PRIMARY KEY, a) WITHOUT ROWID;
      ${FILL} INSERT INTO t SELECT printf('%.5000c', 'k') || i, i FROM s`;
    const a = makeDb(dir.file(`same_a.db`), sql);
    const b = makeDb(dir.file(`same_b.db`), sql);
    const seenAlone = await seen(a, b, { maxRows: 1000 }, [ENGINE_ROWS]);
    assert.match(seenAlone, /"status":"unchanged"/);
    same(seenAlone, await seen(a, b, { maxRows: 1000 }));
  });
});
