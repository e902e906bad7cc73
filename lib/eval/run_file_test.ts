import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tempDir } from "../../tests/fixtures.ts";
import { UsageError } from "../errors.ts";
import { defineCase, parseCases } from "./cases.ts";
import { diffRuns } from "./run_diff.ts";
import {
  parseRunFile,
  readRunFile,
  RUN_FILE_MAX_TEXT,
  type RunFile,
  toRunFile,
} from "./run_file.ts";
import { markdownReport } from "./report_md.ts";
import { runSuite } from "./suite.ts";

const dir = tempDir();
after(() => dir.cleanup());

const CASES = parseCases(
  `- {id: delivered-count, question: count, expect: {rows: [{total: 2}]}}
- {id: delivered-amount, question: amount, expect: {rows: [{total: 2000}]}}
- {id: delivered-count-fixed, question: count, expect: {rows: [{total: 2}]}}
`,
  "cases.yaml",
);
const agent = (amount: number) => (q: string) => ({
  sql: "SELECT ...",
  rows: [{ total: q === "count" ? 2 : amount }],
  answer: `The answer is ${q === "count" ? 2 : amount}.`,
});

async function run(amount: number, cases = CASES): Promise<RunFile> {
  const file = toRunFile(await runSuite(cases, agent(amount)), new Date(0));
  return parseRunFile(JSON.stringify(file, null, 2), "run.json");
}

describe("run files", () => {
  it("toRunFile() records totals, verdicts, checks, answer and SQL, and reads back the same", async () => {
    const file = await run(11900);
    assert.equal(file.format, "dbagenteval-run");
    assert.equal(file.version, 1);
    assert.equal(file.created_at, "1970-01-01T00:00:00.000Z");
    assert.deepEqual(file.totals, { total: 3, passed: 2, failed: 1, errors: 0, skipped: 0 });
    assert.deepEqual(file.failures_by_stage, { execute: 1 });
    const amount = file.cases[1]!;
    assert.deepEqual(
      [amount.id, amount.verdict, amount.failed_stage, amount.answer, amount.sql],
      ["delivered-amount", "FAIL", "execute", "The answer is 11900.", "SELECT ..."],
    );
    assert.deepEqual(amount.checks.map((c) => c.name), [
      "no_error",
      "no_error",
      "rows_match",
      "no_error",
    ]);
  });

  it("readRunFile() reads a file written with JSON.stringify", async () => {
    const path = dir.file("before.json");
    fs.writeFileSync(path, JSON.stringify(await run(2000)));
    assert.equal((await readRunFile(path)).totals.passed, 3);
  });

  const bad: [string, string, RegExp][] = [
    [
      "refuses text that is not JSON",
      "{",
      /^x\.json: not a dbagenteval run file \(not valid JSON: .*\); write one with run --json$/,
    ],
    [
      "names the line of a JSON mistake, in one line",
      '{"format": "dbagenteval-run",\n "version": 1,,\n}',
      /^x\.json: not a dbagenteval run file \(not valid JSON: line 2: expected a key in double quotes, found ","\); write one with run --json$/,
    ],
    [
      "refuses JSON of another format",
      '{"format": "other"}',
      /^x\.json: not a dbagenteval run file \("format" is not "dbagenteval-run"\)/,
    ],
    [
      "refuses a newer version",
      '{"format": "dbagenteval-run", "version": 2}',
      /^x\.json: run file version 2 is newer than this dbagenteval reads \(1\); upgrade dbagenteval$/,
    ],
    [
      "names the bad field",
      '{"format": "dbagenteval-run", "version": 1, "tool_version": "x", "created_at": "x", "totals": {"total": 1, "passed": 0, "failed": 0, "errors": 0, "skipped": 0}, "failures_by_stage": {}, "judge_calls": 0, "duration_ms": 1, "cases": [{"id": "a"}]}',
      /^x\.json: not a dbagenteval run file \(cases\.0\.question: /,
    ],
  ];
  for (const [name, text, message] of bad) {
    it(`parseRunFile() ${name}`, () => {
      assert.throws(() => parseRunFile(text, "x.json"), (e: unknown) => {
        assert.ok(e instanceof UsageError);
        assert.match(e.message, message);
        return true;
      });
    });
  }

  it("toRunFile() keeps at most RUN_FILE_MAX_TEXT characters of an answer, and says how long it was", async () => {
    const huge = "x".repeat(RUN_FILE_MAX_TEXT * 3);
    const file = toRunFile(await runSuite([defineCase({ question: "Q" })], () => huge));
    const answer = file.cases[0]!.answer!;
    assert.ok(answer.length < RUN_FILE_MAX_TEXT + 100, `kept ${answer.length} characters`);
    assert.match(answer, /\.\.\. \[cut: 300000 characters in all\]$/);
    assert.ok(
      JSON.stringify(file).length < 3 * RUN_FILE_MAX_TEXT,
      "the trace keeps the whole answer",
    );
  });

  it("parseRunFile() reads a run file that starts with a byte-order mark, as cases files are read", async () => {
    const file = toRunFile(await runSuite(CASES, agent(11900)), new Date(0));
    const read = parseRunFile(`\ufeff${JSON.stringify(file)}`, "bom.json");
    assert.equal(read.totals.total, file.totals.total);
  });

  const unreadable: [string, string, RegExp][] = [
    ["names a missing file", "nope.json", /nope\.json: no such file; check the path$/],
    [
      "names a folder given as a run file",
      ".",
      /: it is a folder, not a run file; give the file run --json wrote$/,
    ],
  ];
  for (const [name, file, message] of unreadable) {
    it(`readRunFile() ${name}`, async () => {
      await assert.rejects(readRunFile(dir.file(file)), message);
    });
  }
});

describe("diffRuns()", () => {
  it("diffRuns() prints the documented Markdown for a fix", async () => {
    const diff = diffRuns(await run(11900), await run(2000));
    assert.equal(
      diff.markdown(),
      [
        "# dbagenteval diff",
        "",
        "**0 regressions, 1 fixes, 0 added, 0 removed**",
        "",
        "## Fixes",
        "",
        "- delivered-amount (FAIL -> PASS)",
      ].join("\n"),
    );
    assert.equal(diff.exitCode, 0);
  });

  it("diffRuns() lists regressions with why, and added and removed cases", async () => {
    const before = await run(2000, CASES.slice(0, 2));
    const after = await run(11900, CASES.slice(1));
    const diff = diffRuns(before, after);
    assert.equal(
      diff.markdown(),
      [
        "# dbagenteval diff",
        "",
        "**1 regressions, 0 fixes, 1 added, 1 removed**",
        "",
        "## Regressions",
        "",
        "- delivered-amount (PASS -> FAIL)",
        '  - execute / rows_match: got 1 row(s), first: [{"total":11900}]; expected 1 row(s), first: [{"total":2000}]',
        "",
        "## Added",
        "",
        "- delivered-count-fixed (PASS)",
        "",
        "## Removed",
        "",
        "- delivered-count (was PASS)",
      ].join("\n"),
    );
    assert.equal(diff.exitCode, 1);
  });

  const verdicts: [string, string, string, "regressions" | "fixes" | "changed" | "none"][] = [
    ["counts PASS -> FAIL as a regression", "PASS", "FAIL", "regressions"],
    ["counts PASS -> ERROR as a regression", "PASS", "ERROR", "regressions"],
    ["counts PASS -> SKIP as a regression", "PASS", "SKIP", "regressions"],
    ["counts ERROR -> PASS as a fix", "ERROR", "PASS", "fixes"],
    ["counts FAIL -> ERROR as another change", "FAIL", "ERROR", "changed"],
    ["ignores an unchanged verdict", "FAIL", "FAIL", "none"],
  ];
  for (const [name, b, a, group] of verdicts) {
    it(`diffRuns() ${name}`, async () => {
      const base = await run(2000, CASES.slice(0, 1));
      const withVerdict = (v: string): RunFile => ({
        ...base,
        cases: [{ ...base.cases[0]!, verdict: v as "PASS" }],
      });
      const diff = diffRuns(withVerdict(b), withVerdict(a));
      const groups = { regressions: diff.regressions, fixes: diff.fixes, changed: diff.changed };
      for (const [g, list] of Object.entries(groups)) {
        assert.equal(list.length, g === group ? 1 : 0, g);
      }
    });
  }
});

describe("markdownReport()", () => {
  it("markdownReport() gives the totals, the cases that did not pass and the stages", async () => {
    const result = await runSuite(CASES, agent(11900));
    assert.equal(
      markdownReport(result),
      [
        "# dbagenteval report",
        "",
        "**2 of 3 passed (67%), 1 failed, 0 errors**",
        "",
        "## Cases that did not pass",
        "",
        "| Verdict | Case | First failing stage | Why |",
        "| --- | --- | --- | --- |",
        '| FAIL | delivered-amount | execute | execute / rows_match: got 1 row(s), first: [{"total":11900}]; expected 1 row(s), first: [{"total":2000}] |',
        "",
        "## First failing stage",
        "",
        "| Stage | Cases |",
        "| --- | ---: |",
        "| execute | 1 |",
      ].join("\n"),
    );
  });

  it("markdownReport() escapes pipes in table cells", async () => {
    const cases = parseCases("- {id: 'a|b', question: q, expect: {rows: [{n: 1}]}}\n", "c.yaml");
    const text = markdownReport(await runSuite(cases, () => ({ rows: [{ n: "x|y" }] })));
    assert.match(text, /\| FAIL \| a\\\|b \| execute \| .*x\\\|y/);
  });
});
