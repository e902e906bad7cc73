import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { CheckResult, Status } from "./check.ts";
import { Scorecard, type ScorecardInput, verdictOf } from "./scorecard.ts";
import { Trace } from "./trace.ts";

const r = (stage: string, name: string, status: Status, detail = ""): CheckResult => ({
  stage,
  name,
  status,
  detail,
});

describe("verdictOf()", () => {
  // One row per verdict rule of the documented "The verdicts" table.
  const cases: [string, CheckResult[], string | undefined, Status][] = [
    [
      "gives PASS when at least one check ran and none failed",
      [r("answer", "no_error", "PASS")],
      undefined,
      "PASS",
    ],
    [
      "gives PASS when skipped checks sit beside passed ones",
      [
        r("execute", "rows_match", "SKIP"),
        r("answer", "no_error", "PASS"),
      ],
      undefined,
      "PASS",
    ],
    [
      "gives FAIL when one check failed",
      [r("answer", "no_error", "PASS"), r("execute", "reference_rows", "FAIL")],
      undefined,
      "FAIL",
    ],
    ["gives ERROR when the test itself could not run", [], "agent raised: boom", "ERROR"],
    [
      "gives ERROR over FAIL when the reference SQL failed",
      [r("generate", "read_only", "FAIL")],
      "the reference SQL failed to run: x",
      "ERROR",
    ],
    [
      "gives ERROR when a check could not run and none failed",
      [r("answer", "faithful", "ERROR"), r("answer", "no_error", "PASS")],
      undefined,
      "ERROR",
    ],
    [
      "gives FAIL over a check that could not run when another check failed",
      [r("answer", "faithful", "ERROR"), r("execute", "reference_rows", "FAIL")],
      undefined,
      "FAIL",
    ],
    ["gives SKIP when there was nothing to check", [], undefined, "SKIP"],
    [
      "gives SKIP when every check skipped",
      [r("answer", "short_answer", "SKIP")],
      undefined,
      "SKIP",
    ],
  ];
  for (const [name, checks, error, expected] of cases) {
    it(`verdictOf() ${name}`, () => assert.equal(verdictOf(checks, error), expected));
  }
});

describe("Scorecard", () => {
  const trace = Trace.simple("Q", { sql: "S", rows: [{ n: 1 }], answer: "1" });
  const cases: [string, CheckResult[], string[], string | undefined][] = [
    [
      "sorts checks by stage in trace order, keeping run order within a stage",
      [
        r("generate", "no_error", "PASS"),
        r("execute", "no_error", "PASS"),
        r("answer", "no_error", "PASS"),
        r("execute", "reference_rows", "PASS"),
        r("generate", "read_only", "PASS"),
      ],
      [
        "generate no_error",
        "generate read_only",
        "execute no_error",
        "execute reference_rows",
        "answer no_error",
      ],
      undefined,
    ],
    [
      "names the first failing stage in trace order: a rule on the SQL fails at generate, before execute",
      [r("execute", "reference_rows", "FAIL"), r("generate", "tenant_filter", "FAIL")],
      ["generate tenant_filter", "execute reference_rows"],
      "generate",
    ],
    [
      "puts stages the trace lacks after its own, by kind",
      [r("view", "expected", "ERROR"), r("answer", "no_error", "FAIL")],
      ["answer no_error", "view expected"],
      "answer",
    ],
  ];
  for (const [name, checks, order, failedStage] of cases) {
    it(`Scorecard ${name}`, () => {
      const card = new Scorecard({ question: "Q", checks, trace });
      assert.deepEqual(card.checks.map((c) => `${c.stage} ${c.name}`), order);
      assert.equal(card.failedStage, failedStage);
    });
  }

  it("Scorecard.summary() prints the documented layout for a PASS", () => {
    const card = new Scorecard({
      question: "How many orders are delivered?",
      trace,
      checks: [
        r("generate", "no_error", "PASS"),
        r("execute", "no_error", "PASS"),
        r("execute", "reference_rows", "PASS", "1 row(s)"),
        r("answer", "no_error", "PASS"),
      ],
    });
    assert.equal(
      card.summary(),
      [
        "Q: How many orders are delivered?",
        "  generate     no_error           PASS",
        "  execute      no_error           PASS",
        "  execute      reference_rows     PASS  1 row(s)",
        "  answer       no_error           PASS",
        "  VERDICT      PASS",
      ].join("\n"),
    );
  });

  it("Scorecard.summary() names the first failing stage on the verdict line", () => {
    const card = new Scorecard({
      question: "Q",
      trace,
      checks: [r("execute", "reference_rows", "FAIL", "got 1 row(s)")],
    });
    assert.equal(
      card.summary(),
      "Q: Q\n  execute      reference_rows     FAIL  got 1 row(s)\n  VERDICT      FAIL  (first failing stage: execute)",
    );
  });

  it("Scorecard.summary() prints the test-level error", () => {
    const card = new Scorecard({ question: "Q", checks: [], error: "agent raised: boom" });
    assert.equal(card.summary(), "Q: Q\n  ERROR        agent raised: boom\n  VERDICT      ERROR");
  });

  const multiline: [string, ScorecardInput, string[]][] = [
    [
      "indents the further lines of a detail under its first",
      {
        question: "Q",
        trace,
        checks: [r("execute", "no_error", "FAIL", "near line 1:\nsyntax error")],
      },
      [
        "Q: Q",
        "  execute      no_error           FAIL  near line 1:",
        "                                        syntax error",
        "  VERDICT      FAIL  (first failing stage: execute)",
      ],
    ],
    [
      "indents the further lines of a test-level error under its first",
      { question: "Q", checks: [], error: "agent raised: refused\nhint: start it" },
      [
        "Q: Q",
        "  ERROR        agent raised: refused",
        "               hint: start it",
        "  VERDICT      ERROR",
      ],
    ],
  ];
  for (const [name, input, expected] of multiline) {
    it(`Scorecard.summary() ${name}`, () => {
      assert.equal(new Scorecard(input).summary(), expected.join("\n"));
    });
  }
});
