import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { CheckContext, CheckResult, Judge } from "../eval/check.ts";
import type { TestCase } from "../eval/case.ts";
import { Trace } from "../eval/trace.ts";
import { judgeChecks } from "./judge_checks.ts";
import { Faithful } from "./faithful.ts";
import { ReferenceAnswer } from "./reference_answer.ts";
import { Relevant } from "./relevant.ts";

const testCase: TestCase = {
  id: "delivered-amount",
  question: "What is the total amount of delivered orders?",
  reference_sql: "SELECT SUM(amount) FROM orders WHERE status = 'DELIVERED'",
  tags: [],
  ordered: false,
  precision: 2,
};
const { reference_sql: _, ...noReference } = testCase;

const trace = Trace.simple(testCase.question, {
  sql: "SELECT SUM(amount) AS total FROM orders",
  rows: [{ total: 11900 }],
  answer: "The total is 11900.",
});
const referenceRows = [{ "SUM(amount)": 2000 }];

/** A judge that records its prompts and gives the same reply each time. */
function recording(reply: string | (() => unknown)): Judge & { prompts: string[] } {
  const prompts: string[] = [];
  const judge = ((prompt: string) => {
    prompts.push(prompt);
    return typeof reply === "string" ? reply : reply();
  }) as Judge & { prompts: string[] };
  judge.prompts = prompts;
  return judge;
}

async function runAll(
  t: Trace,
  c: TestCase,
  context: CheckContext,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of judgeChecks()) results.push(await check.run(t, c, context) as CheckResult);
  return results;
}

describe("judgeChecks()", () => {
  it("gives reference_answer, faithful and relevant, in that order", () => {
    assert.deepEqual(judgeChecks().map((c) => c.name), [
      "reference_answer",
      "faithful",
      "relevant",
    ]);
  });

  it("calls the judge once per check and reports the verdicts at the answer stage", async () => {
    const judge = recording("FAIL\nThe answer says 11900, the result says 2000.");
    const results = await runAll(trace, testCase, { judge, referenceRows });
    assert.equal(judge.prompts.length, 3);
    assert.deepEqual(results.map((r) => [r.name, r.stage, r.status, r.detail]), [
      ["reference_answer", "answer", "FAIL", "The answer says 11900, the result says 2000."],
      ["faithful", "answer", "FAIL", "The answer says 11900, the result says 2000."],
      ["relevant", "answer", "FAIL", "The answer says 11900, the result says 2000."],
    ]);
  });

  it("shows each check's judge the rows it needs", async () => {
    const judge = recording("PASS\nok");
    await runAll(trace, testCase, { judge, referenceRows });
    const [reference, faithful, relevant] = judge.prompts;
    assert.ok(
      reference!.includes('{"SUM(amount)":2000}') && !reference!.includes('{"total":11900}'),
    );
    assert.ok(faithful!.includes('{"total":11900}') && !faithful!.includes('{"SUM(amount)":2000}'));
    assert.ok(!relevant!.includes("11900}") && relevant!.includes("The total is 11900."));
  });

  it("reports at the answer stage's own name", async () => {
    const named = new Trace("q", [
      { kind: "execute", rows: [{ n: 1 }] },
      { kind: "answer", name: "reply", output: "1" },
    ]);
    const results = await runAll(named, testCase, { judge: () => "PASS", referenceRows });
    assert.deepEqual(results.map((r) => r.stage), ["reply", "reply", "reply"]);
  });

  it("accepts an asynchronous judge", async () => {
    const results = await runAll(trace, testCase, {
      judge: async () => await Promise.resolve("pass\nfine"),
      referenceRows,
    });
    assert.deepEqual(results.map((r) => r.status), ["PASS", "PASS", "PASS"]);
  });

  const skips: [string, Trace, TestCase, CheckContext, [string, string][]][] = [
    ["without a judge", trace, testCase, { referenceRows }, [
      ["SKIP", "no judge"],
      ["SKIP", "no judge"],
      ["SKIP", "no judge"],
    ]],
    ["without an answer", Trace.simple("q", { sql: "SELECT 1", rows: [] }), testCase, {
      judge: () => "PASS",
      referenceRows,
    }, [
      ["SKIP", "no answer in the trace"],
      ["SKIP", "no answer in the trace"],
      ["SKIP", "no answer in the trace"],
    ]],
    [
      "when the answer stage failed",
      new Trace("q", [{ kind: "answer", error: "boom" }]),
      testCase,
      {
        judge: () => "PASS",
        referenceRows,
      },
      [
        ["SKIP", "the answer stage failed"],
        ["SKIP", "the answer stage failed"],
        ["SKIP", "the answer stage failed"],
      ],
    ],
    ["reference_answer without reference_sql", trace, noReference, { judge: () => "PASS\nok" }, [
      ["SKIP", "no reference_sql"],
      ["PASS", "ok"],
      ["PASS", "ok"],
    ]],
    ["reference_answer when the reference rows are not known", trace, testCase, {
      judge: () => "PASS\nok",
    }, [
      ["SKIP", "the reference rows are not known"],
      ["PASS", "ok"],
      ["PASS", "ok"],
    ]],
    ["faithful for an answer-only trace", Trace.simple("q", { answer: "2" }), testCase, {
      judge: () => "PASS\nok",
      referenceRows,
    }, [
      ["PASS", "ok"],
      ["SKIP", "no rows in the trace"],
      ["PASS", "ok"],
    ]],
    [
      "faithful when the execute stage failed",
      Trace.simple("q", { sql: "SELEC", error: "syntax error", answer: "sorry" }),
      testCase,
      { judge: () => "PASS\nok", referenceRows },
      [["PASS", "ok"], ["SKIP", "the execute stage failed"], ["PASS", "ok"]],
    ],
  ];
  for (const [name, t, c, context, expected] of skips) {
    it(`skips what it cannot judge: ${name}`, async () => {
      const results = await runAll(t, c, context);
      assert.deepEqual(results.map((r) => [r.status, r.detail]), expected);
    });
  }

  const errors: [string, () => unknown, string][] = [
    [
      "a reply it cannot read",
      () => "Looks good to me!\nPASS-ish",
      "judge reply not understood (expected PASS or FAIL on the first line): Looks good to me!",
    ],
    ["a judge that throws", () => {
      throw new Error("rate limited\nmore detail");
    }, "judge failed: rate limited"],
    [
      "a judge that rejects",
      () => Promise.reject(new TypeError("network down")),
      "judge failed: network down",
    ],
    [
      "a judge that returns nothing",
      () => undefined,
      "judge reply not understood (expected PASS or FAIL on the first line): (no reply: the judge returned undefined)",
    ],
  ];
  for (const [name, reply, detail] of errors) {
    it(`gives ERROR for ${name}, with the reason`, async () => {
      const results = await runAll(trace, testCase, { judge: recording(reply), referenceRows });
      assert.deepEqual(results.map((r) => [r.status, r.detail]), [
        ["ERROR", detail],
        ["ERROR", detail],
        ["ERROR", detail],
      ]);
    });
  }

  it("keeps the other checks running when the judge fails for one of them", async () => {
    const judge: Judge = (prompt) => {
      if (prompt.includes("supported by these rows")) throw new Error("judge crashed");
      return prompt.includes("<reference_sql>") ? "FAIL\n11900 is not 2000" : "PASS\nanswers it";
    };
    const results = await runAll(trace, testCase, { judge, referenceRows });
    assert.deepEqual(results.map((r) => [r.name, r.status]), [
      ["reference_answer", "FAIL"],
      ["faithful", "ERROR"],
      ["relevant", "PASS"],
    ]);
  });

  it("gives ERROR when an asynchronous judge is slower than the checks' timeout", async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const slow: Judge = () =>
      new Promise((resolve) => {
        timer = setTimeout(() => resolve("PASS"), 5_000);
      });
    const checks = [
      new ReferenceAnswer({ timeoutMs: 20 }),
      new Faithful({ timeoutMs: 20 }),
      new Relevant({ timeoutMs: 20 }),
    ];
    try {
      for (const check of checks) {
        const result = await check.run(trace, testCase, {
          judge: slow,
          referenceRows,
        }) as CheckResult;
        clearTimeout(timer);
        assert.deepEqual([result.status, result.detail], [
          "ERROR",
          "judge failed: the judge did not answer within 20 ms",
        ]);
      }
    } finally {
      clearTimeout(timer);
    }
  });

  it("judges a non-text answer by its JSON", async () => {
    const judge = recording("PASS");
    const t = new Trace("q", [{ kind: "answer", output: { total: 9007199254740993n } }]);
    const result = await new Relevant().run(t, testCase, { judge }) as CheckResult;
    assert.equal(result.status, "PASS");
    assert.equal(result.detail, "the judge gave no reason");
    assert.ok(judge.prompts[0]!.includes('{"total":9007199254740993}'));
  });

  it("honours a smaller row cap", async () => {
    const judge = recording("PASS");
    const rows = Array.from({ length: 5 }, (_, i) => ({ i }));
    const t = Trace.simple("q", { rows, answer: "five" });
    await new Faithful({ maxRows: 2 }).run(t, testCase, { judge });
    assert.ok(
      judge.prompts[0]!.includes(
        "(3 more rows left out: 5 rows in all, only the first 2 are shown)",
      ),
    );
  });
});
