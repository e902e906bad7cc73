import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Trace } from "../lib/eval/trace.ts";
import type { Check, CheckResult } from "../lib/eval/check.ts";
import { AllowedColumns } from "./allowed_columns.ts";
import { AllowedTables } from "./allowed_tables.ts";
import { NoJoins } from "./no_joins.ts";
import { NoSubqueries } from "./no_subqueries.ts";

async function detail(rule: Check, trace: Trace): Promise<string> {
  const r = (await rule.run(
    trace,
    { id: "", question: "", tags: [], ordered: false, precision: 2 },
    {},
  )) as CheckResult;
  return `${r.status} ${r.detail}`.trim();
}
const sql = (s: string): Trace => Trace.simple("q", { sql: s });
const view = (s: string, output: unknown): Trace =>
  new Trace("q", [{ kind: "route", name: "view", output }, { kind: "retrieve", output }, {
    kind: "generate",
    output: s,
  }]);

const cases: [string, Check, Trace, string][] = [
  [
    "AllowedTables passes the listed table",
    new AllowedTables(["orders"]),
    sql("SELECT * FROM Orders"),
    "PASS",
  ],
  [
    "AllowedTables names a table not listed",
    new AllowedTables(["orders"]),
    sql("SELECT * FROM orders JOIN customers c ON c.id = orders.cid"),
    "FAIL tables not allowed: ['customers']",
  ],
  [
    "AllowedTables does not count CTE names as tables",
    new AllowedTables(["orders"]),
    sql("WITH x AS (SELECT * FROM orders) SELECT * FROM x"),
    "PASS",
  ],
  [
    "AllowedTables finds tables in subqueries",
    new AllowedTables(["orders"]),
    sql("SELECT * FROM orders WHERE id IN (SELECT oid FROM secrets)"),
    "FAIL tables not allowed: ['secrets']",
  ],
  [
    "AllowedTables keeps a schema entry to its schema",
    new AllowedTables(["public.orders"]),
    Trace.simple("q", { sql: "SELECT * FROM other.orders" }),
    "FAIL tables not allowed: ['other.orders']",
  ],
  [
    "AllowedTables takes a name from a stage",
    new AllowedTables({ fromStage: "view" }),
    view("SELECT * FROM orders", "orders"),
    "PASS",
  ],
  [
    "AllowedTables takes a list from a stage",
    new AllowedTables({ fromStage: "view" }),
    view("SELECT * FROM items", ["orders"]),
    "FAIL tables not allowed: ['items']",
  ],
  [
    "AllowedTables fails when the stage is missing",
    new AllowedTables({ fromStage: "nope" }),
    sql("SELECT 1"),
    'FAIL stage missing from trace: "nope"',
  ],
  [
    "AllowedColumns passes listed columns",
    new AllowedColumns(["status", "amount"]),
    sql("SELECT SUM(amount) AS total FROM orders WHERE status = 'X' ORDER BY total"),
    "PASS",
  ],
  [
    "AllowedColumns fails SELECT *",
    new AllowedColumns(["status"]),
    sql("SELECT * FROM orders"),
    "FAIL SELECT * is not allowed",
  ],
  [
    "AllowedColumns fails t.*",
    new AllowedColumns(["status"]),
    sql("SELECT o.* FROM orders o"),
    "FAIL SELECT * is not allowed",
  ],
  [
    "AllowedColumns allows COUNT(*)",
    new AllowedColumns(["status"]),
    sql("SELECT COUNT(*) FROM orders WHERE status = 'X'"),
    "PASS",
  ],
  [
    "AllowedColumns names a column not listed, in any clause",
    new AllowedColumns(["status"]),
    sql("SELECT status FROM orders WHERE secret = 1"),
    "FAIL columns not allowed: ['secret']",
  ],
  [
    "AllowedColumns reads double-quoted names as columns in sqlite",
    new AllowedColumns(["status"]),
    sql('SELECT status FROM orders WHERE "secret" = 1'),
    "FAIL columns not allowed: ['secret']",
  ],
  [
    "AllowedColumns takes the list from the retrieve stage",
    new AllowedColumns({ fromStage: "retrieve" }),
    view("SELECT status FROM orders", ["status"]),
    "PASS",
  ],
  ["NoJoins passes one table", new NoJoins(), sql("SELECT * FROM orders"), "PASS"],
  [
    "NoJoins fails an explicit join",
    new NoJoins(),
    sql("SELECT * FROM orders o LEFT JOIN items i ON i.oid = o.id"),
    "FAIL 1 join",
  ],
  ["NoJoins fails a comma join", new NoJoins(), sql("SELECT * FROM orders, items"), "FAIL 1 join"],
  [
    "NoJoins finds joins in subqueries",
    new NoJoins(),
    sql("SELECT * FROM orders WHERE id IN (SELECT a.id FROM a JOIN b ON a.id = b.id)"),
    "FAIL 1 join",
  ],
  [
    "NoSubqueries passes one simple SELECT",
    new NoSubqueries(),
    sql("SELECT status, COUNT(*) FROM orders GROUP BY status"),
    "PASS",
  ],
  [
    "NoSubqueries fails an IN subquery",
    new NoSubqueries(),
    sql("SELECT * FROM orders WHERE id IN (SELECT oid FROM items)"),
    "FAIL a query inside another query",
  ],
  [
    "NoSubqueries fails a derived table",
    new NoSubqueries(),
    sql("SELECT * FROM (SELECT 1 AS a) t"),
    "FAIL a query inside another query",
  ],
  [
    "NoSubqueries fails a CTE",
    new NoSubqueries(),
    sql("WITH x AS (SELECT 1) SELECT * FROM x"),
    "FAIL a WITH clause",
  ],
  [
    "NoSubqueries fails a UNION",
    new NoSubqueries(),
    sql("SELECT 1 UNION SELECT 2"),
    "FAIL a UNION, INTERSECT or EXCEPT",
  ],
  [
    "NoSubqueries fails a write",
    new NoSubqueries(),
    sql("DELETE FROM orders"),
    "FAIL DELETE is not a SELECT",
  ],
];

describe("AllowedTables, AllowedColumns, NoJoins, NoSubqueries", () => {
  for (const [name, rule, trace, expected] of cases) {
    it(`${name}`, async () => {
      assert.equal(await detail(rule, trace), expected);
    });
  }
});
