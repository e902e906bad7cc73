import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseCases } from "./cases.ts";
import { casesFingerprint, parseShard, shardCases } from "./shard.ts";
import { mergeRuns } from "./merge_runs.ts";
import { runSuite } from "./suite.ts";
import { type RunFile, toRunFile } from "./run_file.ts";
import { idMatches, selectCases } from "./select.ts";
import { UsageError } from "../errors.ts";

// From a cases file, so each case has its line (merge restores file order by it).
const CASES = parseCases(
  Array.from(
    { length: 23 },
    (_, i) =>
      `- id: case-${i}\n  question: ${i} + 1?\n  tags: [${
        i % 2 ? "odd" : ""
      }]\n  expect:\n    rows: [{n: ${i + 1}}]\n`,
  ).join(""),
  "cases.yaml",
);
/** Right for most, wrong when i is a multiple of 5, raises for 7. */
const agent = (question: string) => {
  const i = Number(question.split(" ")[0]);
  if (i === 7) throw new Error("down");
  return { rows: [{ n: i % 5 === 0 ? 0 : i + 1 }] };
};

describe("shardCases()", () => {
  it("shardCases() splits into disjoint shards that hold every case, balanced by count", () => {
    for (const total of [1, 2, 3, 5, 30]) {
      const shards = Array.from(
        { length: total },
        (_, i) => shardCases(CASES, { index: i + 1, total }),
      );
      const ids = shards.flat().map((c) => c.id).sort();
      assert.deepEqual(ids, CASES.map((c) => c.id).sort());
      const sizes = shards.map((s) => s.length);
      assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `${total}: ${sizes}`);
    }
  });

  it("shardCases() gives the same split whatever the order of the cases file", () => {
    const reversed = [...CASES].reverse();
    for (const index of [1, 2, 3]) {
      const a = shardCases(CASES, { index, total: 3 }).map((c) => c.id).sort();
      const b = shardCases(reversed, { index, total: 3 }).map((c) => c.id).sort();
      assert.deepEqual(a, b);
    }
  });

  it("shardCases() keeps file order within a shard", () => {
    const shard = shardCases(CASES, { index: 2, total: 3 });
    const positions = shard.map((c) => CASES.indexOf(c));
    assert.deepEqual(positions, [...positions].sort((a, b) => a - b));
  });

  it("shardCases() balances by duration when given a previous run's times", () => {
    const durations = new Map(CASES.map((c, i) => [c.id, i === 0 ? 10_000 : 100]));
    const shards = [1, 2].map((index) => shardCases(CASES, { index, total: 2 }, { durations }));
    const slow = shards.find((s) => s.some((c) => c.id === "case-0"))!;
    assert.equal(slow.length, 1, "the 10 s case is alone on its shard");
    assert.equal(shards.flat().length, CASES.length);
  });

  const bad: [string][] = [["0/3"], ["4/3"], ["1/0"], ["a/b"], ["1-3"], [""]];
  for (const [text] of bad) {
    it(`parseShard() refuses "${text}"`, () => {
      assert.throws(() => parseShard(text), UsageError);
    });
  }
});

async function shardRuns(total: number): Promise<{ name: string; run: RunFile }[]> {
  const fingerprint = casesFingerprint(CASES.map((c) => c.id));
  const out = [];
  for (let index = 1; index <= total; index++) {
    const run = toRunFile(await runSuite(shardCases(CASES, { index, total }), agent));
    out.push({
      name: `shard-${index}.json`,
      run: {
        ...run,
        cases_file: "cases.yaml",
        shard: { index, total, of: CASES.length, fingerprint },
      },
    });
  }
  return out;
}

describe("mergeRuns()", () => {
  it("mergeRuns() of three shards gives the same verdicts and totals as one unsharded run", async () => {
    const whole = toRunFile(await runSuite(CASES, agent));
    const merged = mergeRuns(await shardRuns(3));
    assert.deepEqual(
      merged.cases.map((c) => [c.id, c.verdict, c.failed_stage]),
      whole.cases.map((c) => [c.id, c.verdict, c.failed_stage]),
    );
    assert.deepEqual(merged.totals, whole.totals);
    assert.deepEqual(merged.failures_by_stage, whole.failures_by_stage);
    assert.equal(merged.shard, undefined);
  });

  const refusals: [
    string,
    (runs: { name: string; run: RunFile }[]) => { name: string; run: RunFile }[],
    RegExp,
  ][] = [
    [
      "a shard given twice",
      (r) => [...r, r[0]!],
      /shard-1.json and shard-1.json are both shard 1\/3/,
    ],
    ["a missing shard", (r) => r.slice(0, 2), /shard 3\/3 missing/],
    [
      "shards of a different split",
      (
        r,
      ) => [...r.slice(0, 2), {
        ...r[2]!,
        run: { ...r[2]!.run, shard: { ...r[2]!.run.shard!, total: 4 } },
      }],
      /are shards of different runs/,
    ],
    [
      "shards of a different selection",
      (
        r,
      ) => [...r.slice(0, 2), {
        ...r[2]!,
        run: { ...r[2]!.run, shard: { ...r[2]!.run.shard!, fingerprint: "0" } },
      }],
      /are shards of different runs/,
    ],
    [
      "overlapping shards",
      (
        r,
      ) => [r[0]!, r[1]!, {
        ...r[2]!,
        run: { ...r[2]!.run, cases: [...r[2]!.run.cases, r[0]!.run.cases[0]!] },
      }],
      /case "case-\d+" is in both shard-1.json and shard-3.json/,
    ],
    [
      "another cases file",
      (r) => [r[0]!, r[1]!, { ...r[2]!, run: { ...r[2]!.run, cases_file: "other.yaml" } }],
      /ran other.yaml and shard-1.json ran cases.yaml/,
    ],
    [
      "a run that is not a shard",
      (r) => [r[0]!, { ...r[1]!, run: { ...r[1]!.run, shard: undefined } as unknown as RunFile }],
      /shard-2.json is not a shard's run file/,
    ],
  ];
  for (const [name, edit, message] of refusals) {
    it(`mergeRuns() refuses ${name}`, async () => {
      const runs = edit(await shardRuns(3));
      assert.throws(
        () => mergeRuns(runs),
        (e: unknown) => e instanceof UsageError && message.test(e.message),
      );
    });
  }
});

describe("selectCases()", () => {
  const globs: [string, string, boolean][] = [
    ["case-1", "case-1", true],
    ["case-12", "case-1*", true],
    ["case-12", "case-1?", true],
    ["case-123", "case-1?", false],
    ["a.b", "a?b", true],
    ["axb", "a.b", false],
    ["x(1)", "x(*)", true],
  ];
  for (const [id, pattern, expected] of globs) {
    it(`idMatches() says ${expected} for "${id}" and "${pattern}"`, () => {
      assert.equal(idMatches(id, pattern), expected);
    });
  }

  it("selectCases() keeps the cases matching any --case pattern and any tag, in file order", () => {
    const ids = selectCases(CASES, { ids: ["case-2*", "case-3"], tags: ["odd"] }).map((c) => c.id);
    assert.deepEqual(ids, ["case-3", "case-21"]);
  });

  it("selectCases() refuses a --case pattern that matches nothing", () => {
    assert.throws(
      () => selectCases(CASES, { ids: ["case-1", "nope*"] }),
      /--case nope\*: no case has this id/,
    );
  });

  it("selectCases() keeps only the cases that failed or errored in a saved run (--rerun-failed)", async () => {
    const saved = toRunFile(await runSuite(CASES, agent));
    const ids = selectCases(CASES, { rerunFailed: saved }).map((c) => c.id);
    assert.deepEqual(ids, ["case-0", "case-5", "case-7", "case-10", "case-15", "case-20"]);
  });
});
