/**
 * ReadOnly, AllowedTables and AllowedColumns on SQLite with the database
 * known: SQLite compiles the SQL on the real schema and its authorizer says
 * what it reads and writes. The file is never changed.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, tempDir } from "../tests/fixtures.ts";
import { Trace } from "../lib/eval/trace.ts";
import type { CheckResult } from "../lib/eval/check.ts";
import { AllowedColumns, AllowedTables, ReadOnly } from "./mod.ts";

const dir = tempDir("dbagenteval-rules-sqlite-");
after(() => dir.cleanup());
const database = makeDb(
  dir.file("shop.db"),
  `CREATE TABLE orders (id INTEGER PRIMARY KEY, store_id TEXT, amount REAL, note TEXT);
   CREATE TABLE staff (id INTEGER PRIMARY KEY, salary REAL);
   CREATE VIEW big AS SELECT id, amount FROM orders WHERE amount > 100;
   INSERT INTO orders VALUES (1, 's1', 10, 'a');`,
);
const before = fs.readFileSync(database);

type V = "PASS" | "FAIL";
// [what, SQL, ReadOnly, AllowedTables(["orders"]), AllowedColumns(["id", "store_id", "amount"])]
const cases: [string, string, V, V, V][] = [
  ["a plain read", "SELECT amount FROM orders WHERE store_id = 's1'", "PASS", "PASS", "PASS"],
  // Syntax node-sql-parser does not read, SQLite does.
  ["INTERSECT", "SELECT id FROM orders INTERSECT SELECT id FROM orders", "PASS", "PASS", "PASS"],
  [
    "EXCEPT",
    "SELECT id FROM orders EXCEPT SELECT id FROM orders WHERE amount > 5",
    "PASS",
    "PASS",
    "PASS",
  ],
  [
    "OVER (ORDER BY) alone",
    "SELECT id, rank() OVER (ORDER BY amount) AS r FROM orders",
    "PASS",
    "PASS",
    "PASS",
  ],
  [
    "max(DISTINCT x) AS Count",
    "SELECT max(DISTINCT amount) AS Count FROM orders",
    "PASS",
    "PASS",
    "PASS",
  ],
  ["EXPLAIN of a read", "EXPLAIN QUERY PLAN SELECT id FROM orders", "PASS", "PASS", "PASS"],
  // What the authorizer sees and a parser may not.
  ["a column not allowed", "SELECT note FROM orders", "PASS", "PASS", "FAIL"],
  ["SELECT * reads every column", "SELECT * FROM orders", "PASS", "PASS", "FAIL"],
  ["a table not allowed", "SELECT salary FROM staff", "PASS", "FAIL", "FAIL"],
  ["a view: the view and its table", "SELECT id FROM big", "PASS", "FAIL", "PASS"],
  [
    "a CTE is not a table",
    "WITH o AS (SELECT id FROM orders) SELECT id FROM o",
    "PASS",
    "PASS",
    "PASS",
  ],
  ["DELETE", "DELETE FROM orders WHERE id = 1", "FAIL", "PASS", "PASS"],
  ["UPDATE of a column not allowed", "UPDATE orders SET note = 'x'", "FAIL", "PASS", "FAIL"],
  ["INSERT into another table", "INSERT INTO staff (salary) VALUES (1)", "FAIL", "FAIL", "PASS"],
  ["a read PRAGMA", "PRAGMA table_info(orders)", "FAIL", "PASS", "PASS"],
  [
    "ATTACH (writes no file, still not a read)",
    "ATTACH DATABASE ':memory:' AS x",
    "FAIL",
    "PASS",
    "PASS",
  ],
  ["BEGIN", "BEGIN", "FAIL", "PASS", "PASS"],
  ["REINDEX (the authorizer reports nothing without indexes)", "REINDEX", "FAIL", "PASS", "PASS"],
  ["VACUUM INTO a file", "VACUUM INTO '/tmp/dbagenteval-never.db'", "FAIL", "PASS", "PASS"],
  [
    "a table-valued PRAGMA function reads",
    "SELECT name FROM pragma_table_info('orders')",
    "PASS",
    "FAIL",
    "FAIL",
  ],
  ["VALUES", "VALUES (1, 2)", "PASS", "PASS", "PASS"],
  ["two reads", "SELECT id FROM orders; SELECT amount FROM orders", "FAIL", "PASS", "PASS"],
  ["a forbidden function", "SELECT load_extension('x') FROM orders", "FAIL", "PASS", "PASS"],
  // SQLite cannot compile it on this schema: the parser reads it instead.
  ["a table that does not exist (parser)", "SELECT id FROM nowhere", "PASS", "FAIL", "PASS"],
  ["a write to a missing table (parser)", "DELETE FROM nowhere", "FAIL", "FAIL", "PASS"],
];

function status(r: CheckResult | readonly CheckResult[]): string {
  return (Array.isArray(r) ? r : [r as CheckResult]).map((x) => x.status).join();
}

describe("SQL rules with the SQLite database known", () => {
  for (const [what, sql, ro, tables, columns] of cases) {
    it(`ReadOnly ${ro}, AllowedTables ${tables}, AllowedColumns ${columns}: ${what}`, async () => {
      const trace = Trace.simple("q", { sql });
      const results = [
        await new ReadOnly({ database }).run(trace),
        await new AllowedTables(["orders"], { database }).run(trace),
        await new AllowedColumns(["id", "store_id", "amount"], { database }).run(trace),
      ];
      assert.deepEqual(results.map(status), [ro, tables, columns], JSON.stringify(results));
    });
  }

  it("the rules take the database from the check context (--db, --agent-db)", async () => {
    const sql = "DELETE FROM orders";
    const parsed = await new ReadOnly().run(Trace.simple("q", { sql }));
    assert.equal((parsed as CheckResult).detail, "DELETE statement");
    const compiled = await new ReadOnly().run(Trace.simple("q", { sql }), undefined, { database });
    assert.equal((compiled as CheckResult).detail, "SQLite reports DELETE orders");
  });

  it("a statement SQLite reports as a write names the write", async () => {
    const r = await new ReadOnly({ database }).run(
      Trace.simple("q", { sql: "DELETE FROM orders" }),
    );
    assert.equal((r as CheckResult).detail, "SQLite reports DELETE orders");
  });

  it("SQL neither the parser nor SQLite reads fails with both messages", async () => {
    const r = await new ReadOnly({ database }).run(
      Trace.simple("q", { sql: "SELECT n.id FROM nowhere n RIGHT JOIN nowhere m ON m.id = n.id" }),
    );
    assert.match(
      (r as CheckResult).detail,
      /^cannot parse the SQL as sqlite \(line 1, column 28\): .*; SQLite cannot compile it on the database either: no such table: nowhere$/,
    );
  });

  it("without the database, an unreadable SQLite query says SQLite could read it", async () => {
    const r = await new ReadOnly().run(
      Trace.simple("q", { sql: "SELECT o.id FROM orders o RIGHT JOIN orders p ON p.id = o.id" }),
    );
    assert.match(
      (r as CheckResult).detail,
      /\(with the SQLite file known, --db, .* ask SQLite itself\)$/,
    );
    const withDb = await new ReadOnly({ database }).run(
      Trace.simple("q", { sql: "SELECT o.id FROM orders o RIGHT JOIN orders p ON p.id = o.id" }),
    );
    assert.equal(status(withDb), "PASS", JSON.stringify(withDb));
  });

  it("leaves the database file as it was", () => {
    assert.deepEqual(fs.readFileSync(database), before);
    assert.ok(!fs.existsSync(`${database}-journal`) && !fs.existsSync(`${database}-wal`));
  });
});
