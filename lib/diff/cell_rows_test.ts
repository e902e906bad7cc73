/**
 * A changed table keyed by an INTEGER PRIMARY KEY has its rows read from
 * its cells (_cell_rows.ts) without the engine, whole or with `--table`
 * among others: its section of the diff, and every row event a streamed
 * output sees, must be what the engine gives (the engine's strategy alone),
 * for every kind of value.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import type { DiffOptions } from "./options.ts";
import { ENGINE_ROWS, type TableStrategy } from "./_strategies.ts";
import { childDiff, tableSeen } from "./_test_util.ts";

const dir = tempDir();
after(() => dir.cleanup());

const OTHERS = Array.from(
  { length: 40 },
  (_, i) => `CREATE TABLE o${i}(id INTEGER PRIMARY KEY, v); INSERT INTO o${i} VALUES (1, ${i});`,
).join("\n");
const TABLE = `CREATE TABLE t(id INTEGER PRIMARY KEY, a, r REAL, x TEXT, b BLOB, n NUMERIC);
  CREATE INDEX t_x ON t(x);
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 300)
  INSERT INTO t SELECT i, i, i / 2.0, 'row ' || i, randomblob(8), i FROM s;
  UPDATE t SET a = 1, r = 2, x = 'é', b = x'', n = '12' WHERE id = 10;
  UPDATE t SET a = 'a', r = 2.5, x = CAST(x'ff80' AS TEXT), b = NULL WHERE id = 20;
  UPDATE t SET a = NULL, r = -0.0, x = printf('%.5000c', 'y'), b = zeroblob(6000) WHERE id = 30;
  UPDATE t SET a = 9007199254740991, r = 1e300, x = '' WHERE id = 40;
  UPDATE t SET a = -9007199254740991, r = 1e-300 WHERE id = 50;`;
// Every kind of change, each next to one that is no change to IS.
const CHANGES = `UPDATE t SET a = 1.0 WHERE id = 10;
  UPDATE t SET r = 2.0, n = 12 WHERE id = 10;
  UPDATE t SET a = '1' WHERE id = 11;
  UPDATE t SET a = x'61' WHERE id = 20;
  UPDATE t SET x = CAST(x'ff81' AS TEXT) WHERE id = 20;
  UPDATE t SET r = 0 WHERE id = 30;
  UPDATE t SET x = printf('%.4999c', 'y') || 'z' WHERE id = 30;
  UPDATE t SET b = zeroblob(5999) || x'01' WHERE id = 31;
  UPDATE t SET a = 9007199254740990 WHERE id = 40;
  UPDATE t SET x = 'e' WHERE id = 41;
  UPDATE t SET r = 3 WHERE id = 50;
  DELETE FROM t WHERE id IN (60, 61, 299);
  INSERT INTO t(id, a, r, x, b, n) VALUES (301, 'new', 1, 'n', x'00', NULL), (1000, NULL, NULL, NULL, NULL, NULL);
  UPDATE t SET b = b WHERE id = 70;
  UPDATE o3 SET v = 'other';`;

let n = 0;

/** Files of OTHERS and TABLE, then `base` on both; the after one with the changes. */
function pair(base: string, extra: string): { a: string; b: string } {
  const sql = `BEGIN; ${OTHERS} ${TABLE}; ${base};`;
  const a = makeDb(dir.file(`a${++n}.db`), `${sql} COMMIT`);
  const b = makeDb(dir.file(`b${n}.db`), `${sql} ${CHANGES} ${extra}; COMMIT`);
  return { a, b };
}

/** Table t's section of a diff and the row events streamed for it. */
const seen = (a: string, b: string, options: DiffOptions, strategies?: readonly TableStrategy[]) =>
  tableSeen(a, b, options, "t", strategies);

describe("a changed table read from its cells", () => {
  // name, SQL on both files, more changes, whether the engine starts
  const cases: [string, string, string, boolean][] = [
    ["every kind of value and change", "", "", false],
    [
      "an integer beyond 2^53 in a changed row",
      "",
      "UPDATE t SET a = 1 << 60 WHERE id = 80",
      false,
    ],
    [
      "a row written before a column was added",
      "ALTER TABLE t ADD COLUMN z DEFAULT 7",
      "UPDATE t SET a = 'q' WHERE id = 5",
      false,
    ],
    ["a negative rowid", "", "INSERT INTO t(id, a) VALUES (-5, 'neg')", false],
    [
      "rowids beyond 2^53",
      "",
      "INSERT INTO t(id, a) VALUES (9007199254740993, 'big'), (9223372036854775807, 'max')",
      false,
    ],
    [
      "a change of more pages than the cells are read for",
      "",
      "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 20000) " +
      "INSERT INTO t(id, a, x) SELECT 1000 + i, i, printf('%.40c', 'w') FROM s; " +
      "UPDATE t SET a = a + 1 WHERE id % 7 = 0",
      false,
    ],
    [
      "more than 8 MiB of changed rows a side",
      "",
      "UPDATE t SET b = zeroblob(3000000) WHERE id IN (90, 91, 92)",
      false,
    ],
  ];
  for (const [name, base, extra, engine] of cases) {
    it(`gives the engine's rows and events for ${name}`, async () => {
      const { a, b } = pair(base, extra);
      for (const maxRows of [1000, 2, 0]) {
        const sql = await seen(a, b, { maxRows }, [ENGINE_ROWS]);
        assert.equal(await seen(a, b, { maxRows }), sql);
        assert.equal(await seen(a, b, { maxRows, tables: ["t"] }), sql);
        assert.match(sql, /"status":"changed"/);
      }
      assert.equal(childDiff(a, b, ["t"]).started, engine);
    });
  }
});
