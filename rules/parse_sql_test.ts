import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseSql, tableRefs } from "./mod.ts";

// [dialect, SQL, tables, constants]
const cases: [string, string, string[], string[]][] = [
  ["sqlite", "SELECT * FROM t WHERE a = 'x''y' AND b IN (1, 2.5) OR c = ?", ["t"], [
    "x'y",
    "1",
    "2.5",
    "?",
  ]],
  ["postgres", "SELECT * FROM s.t WHERE a = E'x\\ny' AND b = $1 AND c = true", ["t"], [
    "x\ny",
    "$1",
    "true",
  ]],
  ["postgres", "SELECT 0, '' FROM t WHERE n > 0", ["t"], ["0", "", "0"]],
  ["mysql", "SELECT * FROM `t` JOIN u ON u.id = t.id WHERE t.a = 'it\\'s' LIMIT 3", ["t", "u"], [
    "it's",
    "3",
  ]],
  ["sqlite", "WITH c AS (SELECT a FROM t WHERE a > 10) SELECT a FROM c INTERSECT SELECT 7", ["t"], [
    "10",
    "7",
  ]],
];

describe("parseSql()", () => {
  for (const [dialect, sql, tables, constants] of cases) {
    it(`parseSql() gives the tables and constants of ${sql} (${dialect})`, async () => {
      const model = await parseSql(sql, dialect);
      const s = model.statements[0]!;
      assert.deepEqual(tableRefs(s).map((t) => t.name), tables);
      assert.deepEqual(s.constants.map((c) => c.value).sort(), [...constants].sort());
    });
  }

  it("parseSql() rejects SQL no parser here reads, saying where", async () => {
    await assert.rejects(parseSql("SELECT FROM WHERE", "postgres"), /line 1, column 13/);
  });
});
