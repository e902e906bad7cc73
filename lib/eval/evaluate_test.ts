import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Check, type CheckContext, type CheckResult, PASS } from "./check.ts";
import { defineCase } from "./cases.ts";
import { checkQuestion, evaluate, runCase } from "./evaluate.ts";
import { Trace } from "./trace.ts";
import { UsageError } from "../errors.ts";
import type { AgentContext } from "./agent.ts";

const Q = "How many orders are delivered?";
const SQL = "SELECT COUNT(*) FROM orders WHERE store_id = 's1' AND status = 'DELIVERED'";
const execute = (sql: string): unknown => {
  if (sql === SQL) return [{ "COUNT(*)": 2 }];
  throw new Error("no such table: nope");
};
const good = (q: string) =>
  Trace.simple(q, { sql: "SELECT ...", rows: [{ total: 2 }], answer: "There are 2." });
const names = (checks: readonly CheckResult[]) =>
  checks.map((c) => `${c.stage} ${c.name} ${c.status}`);

describe("runCase() and checkQuestion()", () => {
  // How a misbehaving agent or reference SQL becomes an ERROR, with the message.
  const cases: [string, unknown, string, string, string | undefined][] = [
    ["passes a correct agent", good, SQL, "PASS", undefined],
    [
      'turns a raised error into ERROR "agent raised"',
      () => {
        throw new Error("boom");
      },
      SQL,
      "ERROR",
      "agent raised: boom",
    ],
    [
      "names the error class of a raised TypeError",
      () => {
        throw new TypeError("x is not a function");
      },
      SQL,
      "ERROR",
      "agent raised: TypeError: x is not a function",
    ],
    [
      "turns a rejected promise into ERROR",
      () => Promise.reject(new Error("later")),
      SQL,
      "ERROR",
      "agent raised: later",
    ],
    [
      "turns a number into ERROR",
      () => 42,
      SQL,
      "ERROR",
      "the agent returned a number (42); return a Trace, an answer string, or an object like { answer, sql, rows }",
    ],
    [
      "turns tuple rows into ERROR with the hint",
      () => ({ sql: "S", rows: [[2]] }),
      SQL,
      "ERROR",
      "rows must be a list of objects: rows[0] is a list ([2]); your rows are arrays (tuples): turn each into an object with Object.fromEntries(columns.map((c, i) => [c, row[i]])), as in the executor example",
    ],
    [
      "reports a failing reference SQL as ERROR",
      good,
      "SELECT nope",
      "ERROR",
      "the reference SQL failed to run: no such table: nope",
    ],
    [
      "accepts an async agent",
      async (q: string) => await Promise.resolve(good(q)),
      SQL,
      "PASS",
      undefined,
    ],
  ];
  for (const [name, agent, sql, verdict, error] of cases) {
    it(`checkQuestion() ${name}`, async () => {
      const card = await checkQuestion(agent as () => unknown, Q, sql, { execute });
      assert.equal(card.verdict, verdict);
      assert.equal(card.error, error);
    });
  }

  it("checkQuestion() refuses a reference SQL without an executor", async () => {
    await assert.rejects(checkQuestion(good, Q, SQL), UsageError);
  });

  it("runCase() turns an agent that hangs past the timeout into ERROR", async () => {
    const card = await runCase(defineCase({ question: Q }), () => new Promise(() => {}), {
      timeoutMs: 20,
    });
    assert.equal(card.error, "timed out after 0.02 s: the agent did not finish");
  });

  it("runCase() gives the agent the case's id and tags, and aborts its signal on timeout", async () => {
    let context: AgentContext | undefined;
    const card = await runCase(
      defineCase({ id: "slow", question: Q, tags: ["t"] }),
      (_q, c) => {
        context = c;
        return new Promise(() => {});
      },
      { timeoutMs: 20 },
    );
    assert.equal(card.verdict, "ERROR");
    assert.equal(context?.caseId, "slow");
    assert.deepEqual(context?.tags, ["t"]);
    assert.equal(context?.signal?.aborted, true);
  });

  it("runCase() leaves the signal alone when the agent answers in time", async () => {
    let signal: AbortSignal | undefined;
    await runCase(defineCase({ question: Q }), (_q, c) => {
      signal = c.signal;
      return good(Q);
    }, { timeoutMs: 1000 });
    assert.equal(signal?.aborted, false);
  });

  it("runCase() reports executor rows that are not objects", async () => {
    const card = await runCase(defineCase({ question: Q, reference_sql: SQL }), good, {
      execute: () => [[2]],
    });
    assert.match(
      card.error ?? "",
      /^the reference SQL gave no usable rows: the executor's rows must be a list of objects/,
    );
  });

  it("runCase() passes the session's context to the agent and its diff to the checks", async () => {
    const seen: unknown[] = [];
    const diff = { marker: true } as unknown as CheckContext["dbDiff"];
    const spy = {
      name: "spy",
      run: (_t: Trace, _c: unknown, context: CheckContext) => {
        seen.push(context.dbDiff);
        return { stage: "answer", status: PASS };
      },
    };
    let finished = false;
    const card = await runCase(defineCase({ question: Q }), (_q, context) => {
      seen.push(context.dbPath);
      return "2";
    }, {
      rules: [spy],
      setup: () =>
        Promise.resolve({
          context: { dbPath: "/tmp/copy.db" },
          finish: () => {
            finished = true;
            return Promise.resolve({ dbDiff: diff });
          },
        }),
    });
    assert.deepEqual(seen, ["/tmp/copy.db", diff]);
    assert.equal(finished, true);
    assert.equal(card.verdict, "PASS");
  });
});

describe("evaluate()", () => {
  const trace = Trace.simple(Q, { sql: "SELECT 1", rows: [{ total: 2 }], answer: "2" });

  it("evaluate() runs the built-in checks, then the rules, sorted by stage", async () => {
    class ShortAnswer extends Check {
      readonly name = "short_answer";
      run(t: Trace): CheckResult {
        return this.result(t.lastOf("answer")!.name, PASS, "1 characters");
      }
    }
    const duckRule = {
      name: "duck_rule",
      run: () => ({ name: "duck_rule", stage: "generate", status: "FAIL", detail: "no" }),
    };
    const card = await evaluate(trace, { question: Q, expect: { rows: [{ n: 2 }] } }, {
      rules: [new ShortAnswer(), duckRule],
      referenceRows: [{ x: 2 }],
    });
    assert.deepEqual(names(card.checks), [
      "generate no_error PASS",
      "generate duck_rule FAIL",
      "execute no_error PASS",
      "execute rows_match PASS",
      "execute reference_rows PASS",
      "answer no_error PASS",
      "answer short_answer PASS",
    ]);
    assert.equal(card.verdict, "FAIL");
    assert.equal(card.failedStage, "generate");
  });

  const broken: [string, unknown, string][] = [
    ["turns a check that throws into an ERROR finding", {
      name: "boom",
      run: () => {
        throw new Error("bug");
      },
    }, "the check raised: bug"],
    [
      "turns a malformed finding into an ERROR finding",
      { name: "odd", run: () => 7 },
      "the check returned 7; return this.result(stage, status, detail)",
    ],
    ["turns an async check that rejects into an ERROR finding", {
      name: "late",
      run: () => Promise.reject(new Error("nope")),
    }, "the check raised: nope"],
  ];
  for (const [name, rule, detail] of broken) {
    it(`evaluate() ${name}`, async () => {
      const card = await evaluate(trace, { question: Q }, { rules: [rule as never] });
      const found = card.checks.find((c) => c.status === "ERROR");
      assert.equal(found?.detail, detail);
      assert.equal(card.verdict, "ERROR");
    });
  }

  it("evaluate() gives the judge to the checks' context", async () => {
    let judge: unknown;
    const judgeFn = () => "yes";
    await evaluate(trace, { question: Q }, {
      judge: judgeFn,
      rules: [{ name: "see", run: (_t, _c, ctx) => (judge = ctx.judge, []) }],
    });
    assert.equal(judge, judgeFn);
  });
});
