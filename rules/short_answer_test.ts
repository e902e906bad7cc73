/**
 * The "Write your own rule" example of docs/rules.md, as written, in TypeScript: a
 * custom rule is a Check with a name and a run, and sits in a RULES list
 * beside the built-in rules.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Check, type CheckResult, FAIL, PASS, SKIP } from "../lib/eval/check.ts";
import { Trace } from "../lib/eval/trace.ts";
import { NumbersGrounded, ReadOnly, TenantFilter } from "./mod.ts";

class ShortAnswer extends Check {
  readonly name = "short_answer";

  run(trace: Trace): CheckResult {
    const stage = trace.lastOf("answer");
    if (stage === undefined) {
      return this.result("answer", SKIP);
    }
    const length = String(stage.output).length;
    return this.result(stage.name, length <= 400 ? PASS : FAIL, `${length} characters`);
  }
}

const RULES: Check[] = [
  new ReadOnly(),
  new TenantFilter("store_id"),
  new NumbersGrounded(),
  new ShortAnswer(),
];

describe("a custom rule", () => {
  const cases: [string, Trace, CheckResult][] = [
    ["passes a short answer", Trace.simple("q", { answer: "It is 2." }), {
      name: "short_answer",
      stage: "answer",
      status: "PASS",
      detail: "8 characters",
    }],
    ["fails a long answer", Trace.simple("q", { answer: "x".repeat(401) }), {
      name: "short_answer",
      stage: "answer",
      status: "FAIL",
      detail: "401 characters",
    }],
    ["skips a trace without an answer", Trace.simple("q", { sql: "SELECT 1" }), {
      name: "short_answer",
      stage: "answer",
      status: "SKIP",
      detail: "",
    }],
  ];
  for (const [name, trace, expected] of cases) {
    it(`ShortAnswer ${name}`, () => assert.deepEqual(new ShortAnswer().run(trace), expected));
  }

  it("ShortAnswer runs in a RULES list beside the built-in rules", async () => {
    const trace = Trace.simple("q", {
      sql: "SELECT COUNT(*) AS total FROM orders WHERE store_id = 's1'",
      rows: [{ total: 2 }],
      answer: "The answer is 2.",
    });
    const results = (await Promise.all(
      RULES.map((r) =>
        r.run(trace, { id: "", question: "q", tags: [], ordered: false, precision: 2 }, {})
      ),
    )).flat();
    assert.deepEqual(results.map((r) => `${r.stage} ${r.name} ${r.status}`), [
      "generate read_only PASS",
      "generate tenant_filter PASS",
      "answer numbers_grounded PASS",
      "answer short_answer PASS",
    ]);
  });
});
