import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseCases } from "./cases.ts";
import { runSuite } from "./suite.ts";
import { type RunFile, toRunFile } from "./run_file.ts";
import { githubAnnotations, githubSummary } from "./report_github.ts";

const YAML = `# a comment first, so case lines are not the item numbers
- id: ok
  question: Two?
  expect:
    rows: [{n: 2}]

- id: "wrong, really: yes"
  question: Three?
  expect:
    rows: [{n: 3}]
- question: Four?
  expect:
    rows: [{n: 4}]
`;
const agent = (question: string) => ({
  rows: [{ n: question === "Two?" ? 2 : 0 }],
  answer: "100%\r\nsure",
});

async function run(): Promise<RunFile> {
  const cases = parseCases(YAML, "cases.yaml");
  return { ...toRunFile(await runSuite(cases, agent)), cases_file: "cases.yaml" };
}

describe("githubAnnotations()", () => {
  it("githubAnnotations() points each case that did not pass at its line in the cases file", async () => {
    const lines = githubAnnotations(await run(), { file: "evals/cases.yaml" });
    assert.equal(lines.length, 2);
    const where = lines.map((l) =>
      /^::error file=([^,]*),line=(\d+),title=([^:]*)::/.exec(l)?.slice(1)
    );
    assert.deepEqual(where, [
      ["evals/cases.yaml", "7", "FAIL wrong%2C really%3A yes"],
      ["evals/cases.yaml", "11", "FAIL four"],
    ]);
    const yamlLines = YAML.split("\n");
    assert.match(yamlLines[6]!, /wrong, really/);
    assert.match(yamlLines[10]!, /Four\?/);
  });

  it("githubAnnotations() escapes %, CR and LF in the message", async () => {
    const base = await run();
    const wrong = base.cases[1]!;
    const edited: RunFile = {
      ...base,
      cases: [{
        ...wrong,
        checks: [{ ...wrong.checks.find((c) => c.status === "FAIL")!, detail: "50%\r\nof it" }],
      }],
    };
    const [line] = githubAnnotations(edited);
    assert.match(line!, /::execute \/ rows_match: 50%25%0D%0Aof it$/);
    assert.doesNotMatch(line!, /[\r\n]/);
  });

  it("githubAnnotations() emits at most max annotations, then one line with how many more", async () => {
    const base = await run();
    const failing = base.cases[1]!;
    const many: RunFile = {
      ...base,
      cases: Array.from({ length: 13 }, (_, i) => ({ ...failing, id: `c${i}`, line: i + 1 })),
    };
    const lines = githubAnnotations(many);
    assert.equal(lines.length, 11);
    assert.equal(lines.filter((l) => l.startsWith("::error ")).length, 10);
    assert.match(lines[10]!, /^::notice title=dbagenteval::3 more case\(s\) did not pass/);
    assert.equal(githubAnnotations(many, { max: 13 }).length, 13);
  });
});

describe("githubSummary()", () => {
  it("githubSummary() keeps a huge run under the byte limit and says what it left out", async () => {
    const base = await run();
    const failing = base.cases[1]!;
    const huge: RunFile = {
      ...base,
      cases: Array.from({ length: 3000 }, (_, i) => ({
        ...failing,
        id: `case-${i}`,
        error: "é".repeat(400),
        verdict: "ERROR" as const,
      })),
    };
    const text = githubSummary(huge, 100_000);
    assert.ok(new TextEncoder().encode(text).length <= 100_000);
    assert.match(text, /^# dbagenteval report/);
    assert.match(text, /more line\(s\) left out to stay under GitHub's 1 MiB summary limit/);
    assert.equal(githubSummary(base), `${(await import("./report_md.ts")).markdownReport(base)}\n`);
  });
});
