import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Trace } from "../lib/eval/trace.ts";
import type { CheckResult } from "../lib/eval/check.ts";
import { TenantFilter, type TenantFilterOptions } from "./tenant_filter.ts";
import { parseCases } from "../lib/eval/cases.ts";

async function check(sql: string, options: TenantFilterOptions = {}): Promise<CheckResult> {
  return (await new TenantFilter("store_id", options).run(
    Trace.simple("q", { sql }),
  )) as CheckResult;
}

describe("TenantFilter", () => {
  it("TenantFilter gives the tutorial's message on the delivered-amount query", async () => {
    const r = await check("SELECT SUM(amount) AS total FROM orders WHERE status = 'DELIVERED'");
    assert.deepEqual(r, {
      name: "tenant_filter",
      stage: "generate",
      status: "FAIL",
      detail: "no store_id filter on ['orders']",
    });
  });

  const cases: [string, string, TenantFilterOptions, string][] = [
    [
      "accepts any constant without a value",
      "SELECT * FROM orders WHERE store_id = 's9'",
      {},
      "PASS",
    ],
    [
      "accepts a bind parameter without a value",
      "SELECT * FROM orders WHERE store_id = ?",
      {},
      "PASS",
    ],
    ["refuses a bind parameter when a value is given", "SELECT * FROM orders WHERE store_id = ?", {
      value: "s1",
    }, "FAIL"],
    [
      "refuses two tenants in IN without a value",
      "SELECT * FROM orders WHERE store_id IN ('a', 'b')",
      {},
      "FAIL",
    ],
    ["matches a numeric value", "SELECT * FROM orders WHERE store_id = 7", { value: 7 }, "PASS"],
    [
      "checks only the listed tables",
      "SELECT * FROM orders o JOIN stores s ON s.id = o.sid WHERE o.store_id = 's1'",
      { tables: ["orders"] },
      "PASS",
    ],
    [
      "fails a listed table that is unfiltered",
      "SELECT * FROM stores s JOIN orders o ON s.id = o.sid WHERE s.store_id = 's1'",
      { tables: ["orders"] },
      "FAIL",
    ],
    [
      "does not count a table name once the table has an alias",
      "SELECT * FROM orders o JOIN items i ON i.id = o.id WHERE orders.store_id = 's1' AND i.store_id = 's1'",
      {},
      "FAIL",
    ],
    [
      "counts a RIGHT JOIN's ON for the left side",
      "SELECT * FROM orders o RIGHT JOIN items i ON i.id = o.id AND o.store_id = 's1' WHERE i.store_id = 's1'",
      { dialect: "postgres" },
      "PASS",
    ],
    [
      "checks an unqualified table that a schema-qualified entry may name",
      "SELECT * FROM orders",
      { tables: ["public.orders"], dialect: "postgres" },
      "FAIL",
    ],
    [
      "skips a table of another schema than the listed one",
      "SELECT * FROM archive.orders",
      { tables: ["public.orders"], dialect: "postgres" },
      "PASS",
    ],
    [
      "checks a schema-qualified table under a bare entry",
      "SELECT * FROM main.orders",
      { tables: ["orders"] },
      "FAIL",
    ],
    ["passes SQL without tables", "SELECT 1", {}, "PASS"],
  ];
  for (const [name, sql, options, status] of cases) {
    it(`TenantFilter ${name}`, async () => {
      assert.equal((await check(sql, options)).status, status);
    });
  }

  it("TenantFilter lists every unfiltered table once, in order", async () => {
    const r = await check("SELECT * FROM orders o, items i, orders o2 WHERE i.store_id = 's1'");
    assert.equal(r.detail, "no store_id filter on ['orders']");
    const both = await check("SELECT * FROM orders, items");
    assert.equal(both.detail, "no store_id filter on ['orders', 'items']");
  });
});

describe("TenantFilter with a case's own tenant", () => {
  const rule = new TenantFilter("store_id", { value: "s1" });
  const cases: [string, string, string | undefined, string][] = [
    ["checks the case's tenant over the rule's value", "WHERE store_id = 's2'", "s2", "PASS"],
    ["fails the rule's value when the case has another", "WHERE store_id = 's1'", "s2", "FAIL"],
    [
      "keeps the rule's value for a case without a tenant",
      "WHERE store_id = 's1'",
      undefined,
      "PASS",
    ],
  ];
  for (const [name, where, tenant, status] of cases) {
    it(name, async () => {
      const [testCase] = parseCases(
        `- question: q\n${tenant === undefined ? "" : `  tenant: ${tenant}\n`}`,
        "cases.yaml",
      );
      const trace = Trace.simple("q", { sql: `SELECT * FROM orders ${where}` });
      const r = (await rule.run(trace, testCase)) as CheckResult;
      assert.equal(r.status, status, r.detail);
    });
  }
});
