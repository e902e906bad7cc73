import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { CheckSource } from "./check_sources.ts";
import { evaluate } from "./evaluate.ts";
import { Trace } from "./trace.ts";

describe("check sources", () => {
  it("evaluate() runs a given source's checks around the rules, only when its option is set", async () => {
    const before: CheckSource = {
      name: "test-before",
      place: "before-rules",
      checks: (o) =>
        o.counterexamples === undefined
          ? []
          : [{ name: "before", run: () => ({ stage: "answer", status: "PASS", detail: "" }) }],
    };
    const after: CheckSource = {
      name: "test-after",
      place: "after-rules",
      checks: (o) =>
        o.judge === undefined
          ? []
          : [{ name: "after", run: () => ({ stage: "answer", status: "PASS", detail: "" }) }],
    };
    const rule = { name: "rule", run: () => ({ stage: "answer", status: "PASS", detail: "" }) };
    const trace = Trace.simple("Q", { answer: "A" });
    const names = async (options: Parameters<typeof evaluate>[2]): Promise<string[]> =>
      (await evaluate(trace, { question: "Q" }, { checkSources: [after, before], ...options }))
        .checks.map((c) => c.name)
        .filter((n) => ["before", "rule", "after"].includes(n));
    assert.deepEqual(await names({ rules: [rule] }), ["rule"]);
    assert.deepEqual(
      await names({ rules: [rule], counterexamples: { db: "x.db" }, judge: () => "PASS" }),
      ["before", "rule", "after"],
    );
    // A run given no sources runs none of their checks.
    assert.deepEqual(
      await names({
        rules: [rule],
        counterexamples: { db: "x.db" },
        judge: () => "PASS",
        checkSources: [],
      }),
      ["rule"],
    );
  });
});
