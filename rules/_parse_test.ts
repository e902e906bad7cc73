import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Trace } from "../lib/eval/trace.ts";
import { parseSqlModel, traceSqlModel, UnreadableSql } from "./_parse.ts";
import { tableRefs } from "./query_model.ts";

describe("SQL parsing", () => {
  it("traceSqlModel() parses one SQL text once per trace and dialect", async () => {
    const trace = Trace.simple("q", { sql: "SELECT 1" });
    const a = traceSqlModel(trace, "SELECT 1", "sqlite");
    assert.equal(traceSqlModel(trace, "SELECT 1", "sqlite"), a);
    assert.notEqual(traceSqlModel(trace, "SELECT 1", "mysql"), a);
    assert.notEqual(traceSqlModel(Trace.simple("q"), "SELECT 1", "sqlite"), a);
    await Promise.all([a]);
  });

  it("parseSqlModel() gives each table reference its alias and level", async () => {
    const model = await parseSqlModel(
      "SELECT * FROM orders o WHERE o.id IN (SELECT order_id FROM items i WHERE i.store_id = 's1')",
      "sqlite",
    );
    const refs = tableRefs(model.statements[0]!).map((
      r,
    ) => [r.name, r.alias, r.level.id, r.level.origin]);
    assert.deepEqual(refs, [["orders", "o", 0, "statement"], ["items", "i", 1, "subquery"]]);
  });

  it("parseSqlModel() keeps only the predicates that always apply", async () => {
    const model = await parseSqlModel(
      "SELECT * FROM t WHERE a = 1 AND (b = 2 OR c = 3) AND d IN ('x') AND e > 4",
      "postgres",
    );
    const preds = model.statements[0]!.levels[0]!.predicates.map((p) =>
      `${p.column.name} ${p.operator}`
    );
    assert.deepEqual(preds, ["a =", "d IN"]);
  });

  it("parseSqlModel() reads every statement of a multi-statement string", async () => {
    const model = await parseSqlModel("SELECT 1; DELETE FROM t; SELECT 2", "mysql");
    assert.deepEqual(model.statements.map((s) => s.kind), ["select", "delete", "select"]);
  });

  it("parseSqlModel() throws UnreadableSql for text the parser cannot read", async () => {
    await assert.rejects(parseSqlModel("SELEC 1", "postgres"), UnreadableSql);
  });
});
