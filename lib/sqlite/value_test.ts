import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { compareValues, sameValue, type SqliteValue } from "./value.ts";
import { openMemoryDatabase } from "./database.ts";

const cases: [string, SqliteValue, SqliteValue, boolean][] = [
  ["NULL is NULL", null, null, true],
  ["1 is 1.0", 1, 1.0, true],
  ["1 is not '1'", 1, "1", false],
  ["'1' is not x'31'", "1", new Uint8Array([0x31]), false],
  ["1 is not x'31'", 1, new Uint8Array([0x31]), false],
  ["2^53+1 is not 2^53", 9007199254740993n, 9007199254740992, false],
  ["2^53 as bigint is 2^53 as number", 9007199254740992n, 9007199254740992, true],
  ["NULL is not ''", null, "", false],
  ["equal BLOBs are the same", new Uint8Array([1, 2]), new Uint8Array([1, 2]), true],
];

describe("sameValue()", () => {
  for (const [name, a, b, expected] of cases) {
    it(`says ${name}`, () => {
      assert.equal(sameValue(a, b), expected);
      assert.equal(sameValue(b, a), expected);
    });
  }
});

describe("compareValues()", () => {
  it("orders values exactly as SQLite's ORDER BY does", async () => {
    const values: SqliteValue[] = [
      "b",
      null,
      new Uint8Array([1]),
      3.5,
      9007199254740993n,
      9007199254740992,
      -9223372036854775808n,
      "a",
      "\u{1F600}",
      "\uFFFD",
      "",
      new Uint8Array([]),
      -1.5,
      1e300,
    ];
    const db = await openMemoryDatabase();
    db.exec("CREATE TABLE v (x)");
    const insert = db.prepare("INSERT INTO v VALUES (?)");
    for (const v of values) {
      insert.bind([v]);
      insert.step();
    }
    insert.finalize();
    const sqliteOrder = db.query("SELECT x FROM v ORDER BY x").map((r) => r["x"] ?? null);
    db.close();
    const ours = [...values].sort(compareValues);
    assert.deepEqual(ours, sqliteOrder);
  });
});
