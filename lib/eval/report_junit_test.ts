import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseCases } from "./cases.ts";
import { runSuite } from "./suite.ts";
import { toRunFile } from "./run_file.ts";
import { junitReport } from "./report_junit.ts";
import { xmlEscape } from "./_xml.ts";
import { findAll, parseXml } from "../../tests/xml.ts";

const CASES = parseCases(
  `- id: right
  question: How many apples?
  tags: [fruit, "a&b"]
  expect:
    rows: [{n: 2}]
- id: wrong
  question: How many pears?
  expect:
    rows: [{n: 3}]
- id: broken
  question: Broken?
- id: nothing
  question: Nothing?
`,
  "evals/cases.yaml",
);

/** Text an agent can return that XML cannot hold as it is. */
const NASTY =
  "ctl \u0000\u0001\u001b[31m\u0008 lone \ud800 \udfff pair \ud83d\ude00 <b>&amp;</b> \"q\" 'a' ]]> \ufffe\uffff\r\n";

const agent = (question: string) => {
  if (question === "Broken?") throw new Error(`boom ${NASTY}`);
  if (question === "Nothing?") return { answer: undefined } as unknown as string;
  const n = question.includes("apples") ? 2 : 4;
  return { sql: `SELECT ${n} -- ${NASTY}`, rows: [{ n }], answer: NASTY };
};

describe("junitReport()", () => {
  it("junitReport() parses, and its counts equal the run's totals", async () => {
    const run = { ...toRunFile(await runSuite(CASES, agent)), cases_file: "evals/cases.yaml" };
    const root = parseXml(junitReport(run));
    assert.equal(root.name, "testsuites");
    const [suite, ...more] = findAll(root, "testsuite");
    assert.equal(more.length, 0, "one testsuite per cases file");
    for (const element of [root, suite!]) {
      assert.equal(Number(element.attributes["tests"]), run.totals.total);
      assert.equal(Number(element.attributes["failures"]), run.totals.failed);
      assert.equal(Number(element.attributes["errors"]), run.totals.errors);
      assert.equal(Number(element.attributes["skipped"]), run.totals.skipped);
    }
    const testcases = findAll(root, "testcase");
    assert.equal(testcases.length, run.totals.total);
    assert.equal(findAll(root, "failure").length, run.totals.failed);
    assert.equal(findAll(root, "error").length, run.totals.errors);
    assert.equal(findAll(root, "skipped").length, run.totals.skipped);
    assert.deepEqual(run.totals, { total: 4, passed: 1, failed: 1, errors: 1, skipped: 1 });
  });

  it("junitReport() names each testcase by cases file, id, file, line and time", async () => {
    const run = { ...toRunFile(await runSuite(CASES, agent)), cases_file: "evals/cases.yaml" };
    const testcases = findAll(parseXml(junitReport(run)), "testcase");
    assert.deepEqual(
      testcases.map((
        t,
      ) => [
        t.attributes["classname"],
        t.attributes["name"],
        t.attributes["file"],
        t.attributes["line"],
      ]),
      [
        ["evals/cases.yaml", "right", "evals/cases.yaml", "1"],
        ["evals/cases.yaml", "wrong", "evals/cases.yaml", "6"],
        ["evals/cases.yaml", "broken", "evals/cases.yaml", "10"],
        ["evals/cases.yaml", "nothing", "evals/cases.yaml", "12"],
      ],
    );
    for (const t of testcases) assert.match(t.attributes["time"]!, /^\d+\.\d{3}$/);
    const tags = findAll(testcases[0]!, "property").map((
      p,
    ) => [p.attributes["name"], p.attributes["value"]]);
    assert.deepEqual(tags, [["tag", "fruit"], ["tag", "a&b"]]);
  });

  it("junitReport() gives a failure the first failing check as message and every check as body", async () => {
    const run = toRunFile(await runSuite(CASES, agent));
    const [failure] = findAll(parseXml(junitReport(run)), "failure");
    assert.match(failure!.attributes["message"]!, /^execute \/ rows_match: got 1 row/);
    assert.match(failure!.text, /PASS {2}generate \/ no_error/);
    assert.match(failure!.text, /FAIL {2}execute \/ rows_match/);
    const [error] = findAll(parseXml(junitReport(run)), "error");
    assert.match(error!.attributes["message"]!, /^agent raised: boom ctl /);
  });

  it("junitReport() keeps what XML can hold of any text and shows the rest as \\uXXXX", async () => {
    const run = toRunFile(await runSuite(CASES, agent));
    const out = findAll(parseXml(junitReport(run)), "system-out")[0]!.text;
    assert.ok(
      out.includes(
        "ctl \\u0000\\u0001\\u001b[31m\\u0008 lone \\ud800 \\udfff pair \ud83d\ude00 <b>&amp;</b> \"q\" 'a' ]]> \\ufffe\\uffff\r\n",
      ),
      out,
    );
  });

  it("junitReport() shows the case's reference SQL beside the agent's SQL, even when the reference failed", async () => {
    const cases = parseCases(
      `- id: counted
  question: How many fruits?
  reference_sql: SELECT count(*) AS n FROM fruit
- id: misspelt
  question: How many pears?
  reference_sql: SELECT count(*) AS n FROM pears
- id: chat
  question: Hello?
`,
      "cases.yaml",
    );
    const execute = (sql: string) => {
      if (sql.includes("pears")) throw new Error("no such table: pears");
      return [{ n: 2 }];
    };
    const run = toRunFile(
      await runSuite(cases, () => ({ sql: "SELECT 2 AS n", rows: [{ n: 2 }] }), { execute }),
    );
    const outs = findAll(parseXml(junitReport(run)), "system-out").map((o) => o.text);
    assert.deepEqual(outs, [
      "question: How many fruits?\nsql: SELECT 2 AS n\nreference_sql: SELECT count(*) AS n FROM fruit",
      "question: How many pears?\nsql: SELECT 2 AS n\nreference_sql: SELECT count(*) AS n FROM pears",
      "question: Hello?\nsql: SELECT 2 AS n",
    ]);
    assert.equal(run.cases[1]!.verdict, "ERROR");
  });

  const escapes: [string, string, boolean, string][] = [
    ["markup", '<a href="x">&\'', false, "&lt;a href=&quot;x&quot;&gt;&amp;&apos;"],
    ["a line break in an attribute", "a\nb\tc\rd", true, "a&#10;b&#9;c&#13;d"],
    ["a line break in text", "a\nb\rc", false, "a\nb&#13;c"],
    ["NUL and ESC", "\u0000\u001b", false, "\\u0000\\u001b"],
    ["a lone high surrogate", "x\ud83dy", false, "x\\ud83dy"],
    ["a lone low surrogate", "\ude00", false, "\\ude00"],
    ["a surrogate pair", "\ud83d\ude00", false, "\ud83d\ude00"],
    ["U+FFFE", "\ufffe", true, "\\ufffe"],
  ];
  for (const [name, input, attribute, expected] of escapes) {
    it(`xmlEscape() escapes ${name}`, () => {
      assert.equal(xmlEscape(input, attribute), expected);
      parseXml(`<a b="${xmlEscape(input, true)}">${xmlEscape(input)}</a>`);
    });
  }
});
