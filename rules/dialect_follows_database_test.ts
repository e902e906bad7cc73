import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { NoJoins } from "./no_joins.ts";
import { Trace } from "../lib/eval/trace.ts";
import { defineCase } from "../lib/eval/cases.ts";

// PostgreSQL-only syntax: an ARRAY constructor and ILIKE.
const SQL = "SELECT ARRAY[1, 2] AS a FROM invoice WHERE billing_city ILIKE 'o%'";
const trace = Trace.simple("Q", { sql: SQL });
const testCase = defineCase({ question: "Q" });

describe("SqlRule: the dialect follows the run's database", () => {
  const cases: [string, NoJoins, { dialect?: string }, string][] = [
    ["reads postgres SQL as postgres when the database is PostgreSQL", new NoJoins(), {
      dialect: "postgres",
    }, "PASS"],
    ["reads it as sqlite without a database dialect (the default)", new NoJoins(), {}, "FAIL"],
    [
      "keeps a dialect the rule was given over the database's",
      new NoJoins({ dialect: "sqlite" }),
      { dialect: "postgres" },
      "FAIL",
    ],
  ];
  for (const [name, rule, context, status] of cases) {
    it(`NoJoins ${name}`, async () => {
      const result = await rule.run(trace, testCase, context);
      assert.equal(
        (Array.isArray(result) ? result[0] : result)?.status,
        status,
        JSON.stringify(result),
      );
    });
  }
});
