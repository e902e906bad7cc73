import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { runCase } from "./evaluate.ts";
import { defineCase } from "./cases.ts";
import type { AgentContext } from "./agent.ts";
import { sqliteExecutor } from "../sqlite/executor.ts";
import { NotRunError } from "../errors.ts";

const DB = "tests/data/spider/database/concert_singer/concert_singer.sqlite";
const testCase = defineCase({
  id: "singers",
  question: "How many singers?",
  reference_sql: "SELECT count(*) FROM singer",
  db: "concert_singer",
  evidence: "a singer is a row of singer",
});

describe("an answer that is only SQL", () => {
  it("is run on the case's database, as the reference SQL is", async () => {
    const execute = sqliteExecutor(DB);
    try {
      const card = await runCase(testCase, () => ({ sql: "SELECT count(*) AS n FROM singer" }), {
        executeFor: () => execute,
      });
      assert.equal(card.verdict, "PASS");
      assert.deepEqual(card.trace?.stages.map((s) => s.kind), ["generate", "execute"]);
      assert.deepEqual(card.trace?.lastOf("execute")?.rows, [{ n: 6 }]);
    } finally {
      execute.close();
    }
  });

  it("that fails is the agent's FAIL at execute, not an ERROR", async () => {
    const execute = sqliteExecutor(DB);
    try {
      const card = await runCase(testCase, () => ({ sql: "SELECT count(*) FROM singers" }), {
        execute,
      });
      assert.equal(card.verdict, "FAIL");
      assert.equal(card.failedStage, "execute");
      assert.equal(card.error, undefined);
      assert.match(card.trace?.lastOf("execute")?.error ?? "", /no such table: singers/);
    } finally {
      execute.close();
    }
  });

  it("that its database did not run (another case held it) is the case's ERROR, not a FAIL", async () => {
    const busy = "pglite:shop.sql: the statement waited for the one before it past its own " +
      "deadline (3 s); it did not run";
    const execute = (sql: string) => {
      if (sql.includes("AS n")) throw new NotRunError(busy);
      return [{ n: 6 }];
    };
    const card = await runCase(testCase, () => ({ sql: "SELECT count(*) AS n FROM singer" }), {
      execute,
    });
    assert.equal(card.verdict, "ERROR");
    assert.equal(card.error, `the agent's SQL: ${busy}`);
    // The reference SQL's the same: no rows are known, the case says why.
    const reference = await runCase(testCase, () => ({ sql: "SELECT count(*) AS n FROM singer" }), {
      execute: (sql: string) => {
        if (sql.includes("AS n")) return [{ n: 6 }];
        throw new NotRunError(busy);
      },
    });
    assert.equal(reference.verdict, "ERROR");
    assert.equal(reference.error, `the reference SQL: ${busy}`);
  });

  it("whose case timed out while its reference SQL waited for its turn says it never ran", async () => {
    const busy = "pglite:shop.sql: the statement waited for the one before it until its case " +
      "was over; it did not run";
    // The reference SQL waits for a shared engine; the case's end is its signal.
    const execute = (sql: string, options?: { readonly signal?: AbortSignal }) =>
      sql.includes("AS n") ? [{ n: 6 }] : new Promise((_, reject) => {
        options?.signal?.addEventListener("abort", () => reject(new NotRunError(busy)));
      });
    const card = await runCase(testCase, () => ({ sql: "SELECT count(*) AS n FROM singer" }), {
      execute,
      timeoutMs: 50,
    });
    assert.equal(card.verdict, "ERROR");
    assert.equal(card.error, `timed out after 0.05 s: the reference SQL: ${busy}`);
  });

  it("is not run when the agent gave rows or an answer of its own", async () => {
    let ran = 0;
    const execute = (sql: string) => {
      ran++;
      return sql.includes("singer") ? [{ n: 6 }] : [];
    };
    await runCase(testCase, () => ({ sql: "SELECT 6 AS n", answer: "6" }), { execute });
    await runCase(testCase, () => ({ sql: "SELECT 6 AS n", rows: [{ n: 6 }] }), { execute });
    assert.equal(ran, 2); // the reference SQL, once per case
  });

  it("gives the agent the case's database name and evidence in its context", async () => {
    let seen: AgentContext | undefined;
    await runCase(testCase, (_q, context) => {
      seen = context;
      return { answer: "6" };
    }, { execute: () => [{ n: 6 }] });
    assert.equal(seen?.db, "concert_singer");
    assert.equal(seen?.evidence, "a singer is a row of singer");
  });
});
