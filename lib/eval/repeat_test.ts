import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseCases } from "./cases.ts";
import { toRunFile } from "./run_file.ts";
import { repeatedVerdict, runRepeated } from "./repeat.ts";
import { passAtK, passHatK } from "./pass_at_k.ts";
import { verboseReport } from "./report_text.ts";
import { diffRuns } from "./run_diff.ts";
import { markdownReport } from "./report_md.ts";
import { mulberry32 } from "../counterexample/random.ts";

const CASES = parseCases(
  `- {id: easy, question: "0.9", expect: {rows: [{ok: 1}]}}
- {id: coin, question: "0.5", expect: {rows: [{ok: 1}]}}
- {id: hard, question: "0.2", expect: {rows: [{ok: 1}]}}
- {id: never, question: "0", expect: {rows: [{ok: 1}]}}
`,
  "cases.yaml",
);

/** An agent right with the probability its question names, from one seeded stream per case. */
function randomAgent(seed: number) {
  const streams = new Map<string, () => number>();
  return (question: string) => {
    let next = streams.get(question);
    if (next === undefined) {
      next = mulberry32(seed + Number(question) * 1000);
      streams.set(question, next);
    }
    return { rows: [{ ok: next() < Number(question) ? 1 : 0 }] };
  };
}

/** What the agent does for one case over n attempts: how many pass. */
function expectedPasses(seed: number, p: number, n: number): number {
  const next = mulberry32(seed + p * 1000);
  let c = 0;
  for (let i = 0; i < n; i++) if (next() < p) c++;
  return c;
}

describe("passAtK() and passHatK()", () => {
  const table: [number, number, number, number, number][] = [
    // n, c, k, pass@k, pass^k
    [5, 0, 1, 0, 0],
    [5, 5, 3, 1, 1],
    [5, 2, 1, 0.4, 0.4],
    [5, 2, 3, 0.9, 0],
    [5, 4, 2, 1, 0.6],
    [5, 3, 2, 0.9, 0.3],
    [10, 3, 5, 1 - 21 / 252, 0],
  ];
  for (const [n, c, k, at, hat] of table) {
    it(`passAtK(${n}, ${c}, ${k}) is ${at} and passHatK is ${hat}`, () => {
      assert.ok(Math.abs(passAtK(n, c, k) - at) < 1e-12);
      assert.ok(Math.abs(passHatK(n, c, k) - hat) < 1e-12);
    });
  }
  it("passAtK() refuses k past n", () => {
    assert.throws(() => passAtK(3, 1, 4), RangeError);
  });
});

describe("runRepeated()", () => {
  it("runRepeated() with a seeded random agent keeps every attempt and gives the documented pass@k", async () => {
    const seed = 42;
    const result = await runRepeated(CASES, randomAgent(seed), {
      repeat: 5,
      minPassRate: 0.6,
      concurrency: 2,
    });
    const run = toRunFile(result);
    const text = verboseReport({ ...run, repeat: 5 }, { k: 2 });
    for (const c of run.cases) {
      const p = Number(c.question);
      const passes = expectedPasses(seed, p, 5);
      assert.equal(c.attempts?.length, 5);
      assert.equal(c.passes, passes, c.id);
      assert.equal(c.flaky, passes > 0 && passes < 5);
      assert.equal(c.verdict, passes / 5 >= 0.6 ? "PASS" : "FAIL");
      const line = `passed ${passes} of 5, pass@2 ${passAtK(5, passes, 2).toFixed(2)}, pass^2 ${
        passHatK(5, passes, 2).toFixed(2)
      }`;
      assert.ok(text.includes(line), `${line}\n${text}`);
    }
    assert.equal(run.cases.find((c) => c.id === "never")?.passes, 0);
    assert.equal(result.exitCode, run.cases.every((c) => c.verdict === "PASS") ? 0 : 1);
  });

  const verdicts: [string[], number, string][] = [
    [["PASS", "FAIL", "PASS", "PASS", "PASS"], 0.8, "PASS"],
    [["PASS", "FAIL", "PASS", "PASS", "PASS"], 1, "FAIL"],
    [["PASS", "ERROR", "ERROR"], 0.7, "ERROR"],
    [["PASS", "PASS", "FAIL"], 0.66, "PASS"],
    [["SKIP", "SKIP"], 1, "SKIP"],
    [["FAIL", "FAIL"], 0, "PASS"],
  ];
  for (const [attempts, rate, expected] of verdicts) {
    it(`repeatedVerdict(${attempts.join(",")}, ${rate}) is ${expected}`, () => {
      assert.equal(repeatedVerdict(attempts as ("PASS" | "FAIL")[], rate), expected);
    });
  }

  it("markdownReport() of a repeated run gives each case's passes, pass@k, pass^k and flakiness", async () => {
    const run = {
      ...toRunFile(await runRepeated(CASES, randomAgent(7), { repeat: 5 })),
      repeat: 5,
      min_pass_rate: 1,
    };
    const md = markdownReport(run);
    assert.match(md, /## Repeats \(5 attempts, min pass rate 1\)/);
    for (const c of run.cases) {
      const p = c.passes!;
      const row = `| ${c.id} | ${c.verdict} | ${p}/5 | ${passAtK(5, p, 1).toFixed(2)} | ${
        passAtK(5, p, 5).toFixed(2)
      } | ${passHatK(5, p, 5).toFixed(2)} | ${p > 0 && p < 5 ? "yes" : ""} |`;
      assert.ok(md.includes(row), `${row}\n${md}`);
    }
  });

  it("diffRuns() of two repeated runs compares pass rates", async () => {
    const before = toRunFile(await runRepeated(CASES, randomAgent(1), { repeat: 5 }));
    const better = (q: string) => ({ rows: [{ ok: 1 }], answer: q });
    const after = toRunFile(await runRepeated(CASES, better, { repeat: 5 }));
    const diff = diffRuns(after, before);
    const dropped = before.cases.filter((c) => (c.passes ?? 0) < 5).map((c) => c.id);
    assert.deepEqual(diff.regressions.map((r) => r.id), dropped);
    assert.match(diff.markdown(), /passed 5\/5 -> \d\/5/);
  });
});
