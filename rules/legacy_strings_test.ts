import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { AllowedColumns } from "./allowed_columns.ts";
import { TenantFilter } from "./tenant_filter.ts";
import { Trace } from "../lib/eval/trace.ts";
import { defineCase } from "../lib/eval/cases.ts";

// SQL, the rule, the status it must give: a double-quoted name compared with
// a column is a string (SQLite's legacy reading, on by default).
const cases: [string, string, () => AllowedColumns | TenantFilter, string][] = [
  [
    "= with a double-quoted value",
    `SELECT Name FROM country WHERE GovernmentForm = "Republic"`,
    () => new AllowedColumns(["Name", "GovernmentForm"]),
    "PASS",
  ],
  [
    "IN with double-quoted values",
    `SELECT Name FROM country WHERE Continent IN ("Asia", "Europe")`,
    () => new AllowedColumns(["Name", "Continent"]),
    "PASS",
  ],
  [
    "LIKE with a double-quoted pattern",
    `SELECT Name FROM country WHERE Name LIKE "%a%"`,
    () => new AllowedColumns(["Name"]),
    "PASS",
  ],
  [
    "a double-quoted value on the left",
    `SELECT Name FROM country WHERE "Republic" = GovernmentForm`,
    () => new AllowedColumns(["Name", "GovernmentForm"]),
    "PASS",
  ],
  [
    "a double-quoted name in the select list stays a column",
    `SELECT "Secret" FROM country`,
    () => new AllowedColumns(["Name"]),
    "FAIL",
  ],
  [
    "tenant_filter finds a double-quoted tenant value",
    `SELECT Name FROM shop WHERE store_id = "s1"`,
    () => new TenantFilter("store_id", { value: "s1" }),
    "PASS",
  ],
  [
    "tenant_filter: another double-quoted value is another tenant",
    `SELECT Name FROM shop WHERE store_id = "s2"`,
    () => new TenantFilter("store_id", { value: "s1" }),
    "FAIL",
  ],
];

describe("SQL rules read double-quoted strings as SQLite's default build does", () => {
  for (const [name, sql, rule, status] of cases) {
    it(`${name}: ${status}`, async () => {
      const trace = Trace.simple("q", { sql });
      const [result] = [await rule().run(trace, defineCase({ question: "q" }), {})].flat();
      assert.equal(result?.status, status, JSON.stringify(result));
    });
  }
});
