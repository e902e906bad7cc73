import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Trace } from "../lib/eval/trace.ts";
import type { CheckResult } from "../lib/eval/check.ts";
import type { Row } from "../lib/eval/trace.ts";
import { NumbersGrounded } from "./numbers_grounded.ts";

function run(answer: string, rows: Row[], question = "q", precision = 2): CheckResult {
  const testCase = { id: "", question, tags: [], ordered: false, precision };
  return new NumbersGrounded().run(Trace.simple(question, { answer, rows }), testCase);
}

describe("NumbersGrounded", () => {
  const cases: [string, string, Row[], string][] = [
    ["passes a number that is in the rows", "The answer is 2000.", [{ total: 2000 }], "PASS"],
    [
      "fails a number that is not in the rows",
      "The answer is 11900.",
      [{ total: 2000 }],
      "FAIL not in the rows: ['11900']",
    ],
    ["reads thousands separators", "Total: 1,200,000.", [{ t: 1200000 }], "PASS"],
    ["rounds to the case's precision", "About 3.14.", [{ pi: 3.14159 }], "PASS"],
    ["rounds to the decimals the answer wrote", "About 1,200 dollars.", [{ t: 1199.6 }], "PASS"],
    ["matches a percentage with its fraction", "Margin is 12.5%.", [{ rate: 0.125 }], "PASS"],
    ["matches a percentage as written", "Margin is 12.5%.", [{ rate: "12.5" }], "PASS"],
    ["ignores the sign", "Change: -5.", [{ change: 5 }], "PASS"],
    ["matches numeric text in rows", "It is 2.", [{ total: "2.00" }], "PASS"],
    ["skips ordinals", "The 3rd store sold 7.", [{ n: 7 }], "PASS"],
    ["grounds a date's parts in a text cell", "On 2024-03-01 it sold 7.", [{
      day: "2024-03-01",
      n: 7,
    }], "PASS"],
    ["does not read digits glued to a name", "Store s1 sold 7.", [{ n: 7 }], "PASS"],
    ["fails numbers when the rows are empty", "There are 3.", [], "FAIL not in the rows: ['3']"],
    ["passes an answer without numbers", "None.", [], "PASS no numbers in the answer"],
  ];
  for (const [name, answer, rows, expected] of cases) {
    it(`NumbersGrounded ${name}`, () => {
      const r = run(answer, rows);
      assert.equal(
        `${r.status} ${r.status === "FAIL" || expected.includes(" no ") ? r.detail : ""}`.trim(),
        expected,
      );
    });
  }

  it("NumbersGrounded grounds a number the question contains", () => {
    assert.equal(
      run("The top 5 stores sold 7.", [{ n: 7 }], "Which are the top 5 stores?").status,
      "PASS",
    );
    assert.equal(run("The top 5 stores sold 7.", [{ n: 7 }], "Which stores?").status, "FAIL");
  });

  it("NumbersGrounded reports at the answer stage and skips without rows or answer", () => {
    assert.equal(run("It is 2.", [{ a: 2 }]).stage, "answer");
    const noRows = new NumbersGrounded().run(Trace.simple("q", { answer: "2" }));
    assert.equal(noRows.status, "SKIP");
    const noAnswer = new NumbersGrounded().run(Trace.simple("q", { rows: [{ a: 1 }] }));
    assert.deepEqual([noAnswer.status, noAnswer.stage], ["SKIP", "answer"]);
  });
});
