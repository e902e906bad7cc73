import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import type { CheckContext } from "./check.ts";
import { defineCase, parseCases } from "./cases.ts";
import { runSuite } from "./suite.ts";
import { Trace } from "./trace.ts";
import { UsageError } from "../errors.ts";
import { JUDGE_CHECK_SOURCE } from "../judge/judge_checks.ts";

// The guide's cases file, as examples/tutorial/cases.yaml holds it.
const CASES = parseCases(
  fs.readFileSync(new URL("../../examples/tutorial/cases.yaml", import.meta.url), "utf8"),
  "cases.yaml",
);

/** The reference results of the tutorial's shop, without a database. */
const execute = (sql: string): unknown[] =>
  sql.includes("SUM") ? [{ "SUM(amount)": 2000 }] : [{ "COUNT(*)": 2 }];

/** The tutorial's agent: its amount query forgets the store filter. */
const shopAgent = (question: string) => {
  const total = question.includes("amount") ? 11900 : 2;
  return Trace.simple(question, {
    sql: "SELECT ... AS total",
    rows: [{ total }],
    answer: `The answer is ${total}.`,
  });
};

describe("runSuite()", () => {
  it("runSuite() prints the documented run output for the tutorial", async () => {
    const result = await runSuite(CASES, shopAgent, { execute });
    assert.equal(
      result.summary(),
      [
        "PASS  delivered-count",
        "FAIL  delivered-amount",
        '      execute / reference_rows: got 1 row(s), first: [{"total":11900}]; the reference query gives 1 row(s), first: [{"SUM(amount)":2000}]',
        "PASS  delivered-count-fixed",
        "",
        "2 of 3 passed (67%), 1 failed, 0 errors",
        "  first failing stage execute: 1",
      ].join("\n"),
    );
    assert.equal(result.exitCode, 1);
    assert.deepEqual(result.failuresByStage, { execute: 1 });
  });

  // Python's rounding, ties to even, as the documented outputs print it.
  const halves: [passed: number, total: number, percent: string][] = [
    [1, 8, "12%"],
    [3, 8, "38%"],
    [5, 8, "62%"],
    [7, 8, "88%"],
    [1, 40, "2%"],
    [3, 40, "8%"],
    [1, 200, "0%"],
    [3, 200, "2%"],
    [2, 3, "67%"],
    [1, 3, "33%"],
  ];
  for (const [passed, total, percent] of halves) {
    it(`summary() prints ${passed} of ${total} passed as ${percent}, ties to even`, async () => {
      const cases = Array.from(
        { length: total },
        (_, i) => defineCase({ id: `c${i}`, question: `${i}`, expect: { rows: [{ n: 1 }] } }),
      );
      const agent = (q: string) => ({ rows: [{ n: Number(q) < passed ? 1 : 2 }] });
      const result = await runSuite(cases, agent, { concurrency: 8 });
      assert.match(
        result.summary(),
        new RegExp(`^${passed} of ${total} passed \\(${percent}\\)`, "m"),
      );
    });
  }

  it("runSuite() finishes a suite of misbehaving agents with three ERRORs and correct totals", async () => {
    const cases = parseCases(
      "- {id: throws, question: a}\n- {id: hangs, question: b}\n- {id: number, question: c}\n- {id: fine, question: d, expect: {rows: [{n: 1}]}}\n",
      "c.yaml",
    );
    const agent = (question: string): unknown => {
      if (question === "a") throw new Error("boom");
      if (question === "b") return new Promise(() => {});
      if (question === "c") return 42;
      return { rows: [{ n: 1 }], answer: "1" };
    };
    const result = await runSuite(cases, agent, { timeoutMs: 50 });
    assert.deepEqual(result.cases.map((c) => [c.id, c.verdict]), [
      ["throws", "ERROR"],
      ["hangs", "ERROR"],
      ["number", "ERROR"],
      ["fine", "PASS"],
    ]);
    assert.deepEqual(
      [result.total, result.passed, result.failed, result.errors, result.skipped],
      [4, 1, 0, 3, 0],
    );
    assert.equal(result.exitCode, 1);
    const text = result.summary();
    assert.match(text, /^ERROR throws\n {6}agent raised: boom\n/);
    assert.match(text, /ERROR hangs\n {6}timed out after 0\.05 s: the agent did not finish\n/);
    assert.match(text, /ERROR number\n {6}the agent returned a number \(42\)/);
    assert.match(text, /\n1 of 4 passed \(25%\), 0 failed, 3 errors$/);
  });

  const selections: [string, string[] | undefined, string[]][] = [
    ["runs every case without tags", undefined, [
      "delivered-count",
      "delivered-amount",
      "delivered-count-fixed",
    ]],
    ["runs only the cases with one of the tags", ["money"], ["delivered-amount"]],
    ["runs nothing when no case has the tags", ["nope"], []],
  ];
  for (const [name, tags, ids] of selections) {
    it(`runSuite() ${name}`, async () => {
      const result = await runSuite(CASES, shopAgent, { execute, tags });
      assert.deepEqual(result.cases.map((c) => c.id), ids);
    });
  }

  it("runSuite() refuses reference_sql without an executor, in the documented words", async () => {
    await assert.rejects(runSuite(CASES, shopAgent), (e: unknown) => {
      assert.ok(e instanceof UsageError);
      assert.equal(e.message, "some cases have reference_sql; pass --execute");
      return true;
    });
  });

  it("runSuite() runs at most `concurrency` cases at once and keeps the file order", async () => {
    const cases = parseCases(
      Array.from({ length: 10 }, (_, i) => `- {id: c${i}, question: q${i}}`).join("\n"),
      "c.yaml",
    );
    let running = 0;
    let most = 0;
    const agent = async (q: string) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, Number(q.slice(1)) % 3));
      running--;
      return "ok";
    };
    const progress: number[] = [];
    const result = await runSuite(cases, agent, {
      concurrency: 3,
      onProgress: (done, total) => progress.push(done * 100 + total),
    });
    assert.equal(most, 3);
    assert.deepEqual(result.cases.map((c) => c.id), cases.map((c) => c.id));
    assert.deepEqual(progress, Array.from({ length: 10 }, (_, i) => (i + 1) * 100 + 10));
  });

  it("runSuite() counts judge calls and limits how many run at once", async () => {
    const cases = parseCases(
      "- {id: a, question: a}\n- {id: b, question: b}\n- {id: c, question: c}\n",
      "c.yaml",
    );
    let calls = 0;
    let running = 0;
    let most = 0;
    const judge = async (_prompt: string) => {
      calls++;
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 2));
      running--;
      return "PASS";
    };
    const asksThrice = {
      name: "asks_thrice",
      run: async (_t: Trace, _c: unknown, context: CheckContext) => {
        await Promise.all([1, 2, 3].map(() => context.judge!("prompt")));
        return { stage: "answer", status: "PASS" };
      },
    };
    const result = await runSuite(cases, () => "answer", {
      judge,
      judgeConcurrency: 2,
      rules: [asksThrice],
    });
    assert.equal(result.judgeCalls, calls);
    assert.ok(calls >= 9, `${calls} calls`);
    assert.equal(most, 2);
  });

  it("runSuite() asks for --agent-db for db_unchanged: true but not for db_unchanged: false", async () => {
    const only = (
      value: boolean,
    ) => [defineCase({ question: "Q?", expect: { db_unchanged: value } })];
    await assert.rejects(runSuite(only(true), () => "a"), /pass --agent-db/);
    const result = await runSuite(only(false), () => "a");
    assert.equal(result.total, 1);
  });

  it("runSuite() ends a judge call that never answers at the case timeout, and finishes", async () => {
    const silent = () => new Promise<string>(() => {});
    const result = await runSuite(
      [defineCase({ id: "q", question: "Q?" })],
      () => ({ sql: "SELECT 1 AS n", rows: [{ n: 1 }], answer: "1" }),
      { judge: silent, timeoutMs: 50, checkSources: [JUDGE_CHECK_SOURCE] },
    );
    const judged = result.cases[0]!.checks.filter((c) =>
      c.name === "faithful" || c.name === "relevant"
    );
    assert.equal(judged.length, 2);
    for (const c of judged) {
      assert.equal(c.status, "ERROR");
      assert.match(c.detail, /the judge did not answer within 0\.05 s/);
    }
  });

  const bad: [string, Record<string, unknown>, RegExp][] = [
    [
      "refuses a concurrency of 0",
      { concurrency: 0 },
      /concurrency must be a whole number of at least 1, got 0/,
    ],
    [
      "refuses a fractional judge concurrency",
      { judge: () => "", judgeConcurrency: 1.5 },
      /judgeConcurrency must be a whole number/,
    ],
  ];
  for (const [name, options, message] of bad) {
    it(`runSuite() ${name}`, async () => {
      await assert.rejects(runSuite([], () => "", options), message);
    });
  }

  const multiline: [string, () => unknown, string[]][] = [
    [
      "keeps the further lines of an error indented under its case",
      () => {
        throw new Error("refused\nhint: start it");
      },
      ["ERROR a", "      agent raised: refused", "      hint: start it"],
    ],
    [
      "keeps the further lines of a failed check indented under its case",
      () => ({ sql: "SELEC", error: "near line 1:\nsyntax error" }),
      ["FAIL  a", "      execute / no_error: near line 1:", "      syntax error"],
    ],
  ];
  for (const [name, agent, expected] of multiline) {
    it(`runSuite() ${name}`, async () => {
      const result = await runSuite(parseCases("- {id: a, question: a}\n", "c.yaml"), agent);
      assert.deepEqual(result.summary().split("\n").slice(0, 3), expected);
    });
  }

  it("runSuite() reports skipped cases in the totals and passes the exit code", async () => {
    const cases = parseCases("- {id: a, question: a}\n", "c.yaml");
    const result = await runSuite(cases, () => new Trace("a"));
    assert.equal(result.skipped, 1);
    assert.equal(result.exitCode, 0);
    assert.equal(result.summary(), "SKIP  a\n\n0 of 1 passed (0%), 0 failed, 0 errors, 1 skipped");
  });
});
