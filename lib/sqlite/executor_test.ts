import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, snapshotDir, tempDir } from "../../tests/fixtures.ts";
import { sqliteExecutor } from "./executor.ts";
import { SqliteQueryError } from "../errors.ts";

const dir = tempDir();
after(() => dir.cleanup());
const file = makeDb(
  dir.file("shop.db"),
  "CREATE TABLE orders (id INTEGER PRIMARY KEY, amount INTEGER); INSERT INTO orders VALUES (1, 5);",
);

describe("sqliteExecutor()", () => {
  const refused: [string, RegExp][] = [
    ["DELETE FROM orders", /attempt to write a readonly database/],
    ["CREATE TABLE t (x)", /attempt to write a readonly database/],
    ["PRAGMA user_version = 5", /attempt to write a readonly database/],
    [
      "SELECT * FROM orders; DELETE FROM orders",
      /^SQL has more than one statement \(the second starts "DELETE FROM orders"\)/,
    ],
    ["SELECT 1;\nSELECT\n  2", /more than one statement \(the second starts "SELECT 2"\)/],
    ["SELECT 1; garbage", /more than one statement \(the second starts "garbage"\)/],
  ];
  for (const [sql, message] of refused) {
    it(`refuses ${JSON.stringify(sql)} and leaves the file untouched`, async () => {
      const before = snapshotDir(dir.path);
      const run = sqliteExecutor(file);
      try {
        await assert.rejects(run(sql), (e: unknown) => {
          assert.ok(e instanceof SqliteQueryError);
          assert.match(e.message, message);
          assert.ok(!e.message.includes("\n"));
          return true;
        });
        assert.deepEqual(await run("SELECT amount FROM orders"), [{ amount: 5 }]);
      } finally {
        run.close();
      }
      assert.deepEqual(snapshotDir(dir.path), before);
    });
  }

  const accepted: [string, unknown[]][] = [
    ["SELECT amount FROM orders;", [{ amount: 5 }]],
    ["SELECT amount FROM orders; -- the total", [{ amount: 5 }]],
    ["SELECT amount FROM orders /* a */ ; ; /* b */", [{ amount: 5 }]],
  ];
  for (const [sql, rows] of accepted) {
    it(`runs ${JSON.stringify(sql)} as one statement`, async () => {
      const run = sqliteExecutor(file);
      try {
        assert.deepEqual(await run(sql), rows);
      } finally {
        run.close();
      }
    });
  }
});

describe("sqliteExecutor() and repeated column names", () => {
  it("keeps both columns of a repeated name, keyed Name and Name (2), with the column list", async () => {
    const run = sqliteExecutor(file);
    try {
      const rows = await run("SELECT id AS n, amount AS n, 7 AS other FROM orders");
      assert.deepEqual(rows, [{ n: 1, "n (2)": 5, other: 7 }]);
      assert.deepEqual(rows.columns, ["n", "n", "other"]);
      assert.deepEqual(Object.keys(rows), ["0"], "columns is not enumerable");
    } finally {
      run.close();
    }
  });
});

describe("sqliteExecutor() and columns named like JavaScript properties", () => {
  it("keeps __proto__, constructor and toString as ordinary columns", async () => {
    const run = sqliteExecutor(file);
    try {
      const rows = await run(
        `SELECT x'01' AS "__proto__", 'c' AS "constructor", 's' AS "toString", 1 AS id`,
      );
      const row = rows[0]!;
      assert.deepEqual(Object.keys(row), ["__proto__", "constructor", "toString", "id"]);
      assert.deepEqual(
        Object.getOwnPropertyDescriptor(row, "__proto__")?.value,
        new Uint8Array([1]),
      );
      assert.equal(Object.getPrototypeOf(row), Object.prototype);
      assert.equal(row["toString"], "s");
    } finally {
      await run.close?.();
    }
  });
});
