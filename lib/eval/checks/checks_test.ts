import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { CheckContext, CheckResult } from "../check.ts";
import { type CaseInput, defineCase } from "../cases.ts";
import { Trace } from "../trace.ts";
import { Expected } from "./expected.ts";
import { NoError } from "./no_error.ts";
import { Recall } from "./recall.ts";
import { ReferenceNumbers } from "./reference_numbers.ts";
import { ReferenceRows } from "./reference_rows.ts";
import { RowsMatch } from "./rows_match.ts";

const Q = "How many orders are delivered?";
type Found = [stage: string, status: string, detail: string];
const brief = (results: CheckResult | readonly CheckResult[]): Found[] =>
  [results].flat().map((r) => [r.stage, r.status, r.detail]);

const STAGED = new Trace(Q, [
  { kind: "route", name: "classify", output: "data_question" },
  { kind: "route", name: "view", output: "orders" },
  { kind: "retrieve", output: ["orders.status", "amount"] },
  { kind: "generate", output: "SELECT COUNT(*) AS total FROM orders" },
  { kind: "execute", rows: [{ total: 2 }] },
  { kind: "answer", output: "There are 2." },
]);

describe("no_error", () => {
  const cases: [string, Trace, Found[]][] = [
    ["passes every stage without an error", Trace.simple(Q, { sql: "S", rows: [], answer: "0" }), [
      ["generate", "PASS", ""],
      ["execute", "PASS", ""],
      ["answer", "PASS", ""],
    ]],
    [
      "fails the stage with an error, with its text",
      Trace.simple(Q, { sql: "S", error: "no such table: x" }),
      [
        ["generate", "PASS", ""],
        ["execute", "FAIL", "no such table: x"],
      ],
    ],
    [
      "names stages by their name",
      new Trace(Q, [{ kind: "route", name: "classify", error: "timeout" }]),
      [
        ["classify", "FAIL", "timeout"],
      ],
    ],
    ["says nothing about an empty trace", new Trace(Q), []],
  ];
  for (const [name, trace, expected] of cases) {
    it(`no_error ${name}`, () => assert.deepEqual(brief(new NoError().run(trace)), expected));
  }
});

describe("expected and recall", () => {
  const cases: [string, Trace, Record<string, unknown>, Found[], Found[]][] = [
    [
      "pass when the named stages give the expected values",
      STAGED,
      {
        classify: "data_question",
        view: "orders",
        retrieve: ["status"],
      },
      [["classify", "PASS", '"data_question"'], ["view", "PASS", '"orders"']],
      [
        ["retrieve", "PASS", "1 of 1 found"],
      ],
    ],
    ["fail with both values when a stage gives another value", STAGED, { view: "customers" }, [
      ["view", "FAIL", 'got "orders", expected "customers"'],
    ], []],
    [
      "compare numbers as row comparison does",
      new Trace(Q, [{ kind: "plan", output: "2.00" }]),
      {
        plan: 2,
      },
      [["plan", "PASS", '"2.00"']],
      [],
    ],
    ["report a key that names no stage as an ERROR", STAGED, { clasify: "x" }, [
      [
        "clasify",
        "ERROR",
        "stage missing from trace; the trace has classify, view, retrieve, generate, execute, answer. Check the spelling of the key in expect",
      ],
    ], []],
    ["fail recall with the missing names", STAGED, { retrieve: ["status", "store_id"] }, [], [
      ["retrieve", "FAIL", 'missing ["store_id"]; found ["orders.status","amount"]'],
    ]],
    ["read recall names ignoring case", STAGED, { retrieve: ["AMOUNT"] }, [], [
      ["retrieve", "PASS", "1 of 1 found"],
    ]],
    [
      "report a missing retrieve stage as a recall ERROR",
      Trace.simple(Q, { answer: "2" }),
      {
        retrieve: ["status"],
      },
      [],
      [[
        "retrieve",
        "ERROR",
        "stage missing from trace; the trace has answer. Check the spelling of the key in expect",
      ]],
    ],
    ["leave rows to rows_match", STAGED, { rows: [] }, [], []],
  ];
  for (const [name, trace, expect, expected, recalled] of cases) {
    it(`expected and recall ${name}`, () => {
      const c = defineCase({ question: Q, expect });
      assert.deepEqual(brief(new Expected().run(trace, c)), expected);
      assert.deepEqual(brief(new Recall().run(trace, c)), recalled);
    });
  }
});

describe("rows_match", () => {
  const cases: [string, Trace, CaseInput, Found[]][] = [
    ["passes rows equal to expect.rows", Trace.simple(Q, { rows: [{ n: 2 }] }), {
      question: Q,
      expect: { rows: [{ total: 2 }] },
    }, [["execute", "PASS", "1 row(s)"]]],
    ["fails with both sides in JSON", Trace.simple(Q, { rows: [{ n: 3 }] }), {
      question: Q,
      expect: { rows: [{ total: 2 }] },
    }, [[
      "execute",
      "FAIL",
      'got 1 row(s), first: [{"n":3}]; expected 1 row(s), first: [{"total":2}]',
    ]]],
    [
      "passes one of several acceptable results",
      Trace.simple(Q, { rows: [{ c: "Electronics" }] }),
      {
        question: Q,
        expect: {
          rows: [[{ category: "Electronics", total: 2000 }], [{ category: "Electronics" }]],
        },
      },
      [["execute", "PASS", "1 row(s)"]],
    ],
    ["fails when none of several results match", Trace.simple(Q, { rows: [] }), {
      question: Q,
      expect: { rows: [[{ a: 1 }], [{ a: 2 }]] },
    }, [[
      "execute",
      "FAIL",
      'got 0 row(s), first: []; expected one of 2 results, none matches (the first: 1 row(s), first: [{"a":1}])',
    ]]],
    ["passes no rows against rows: []", Trace.simple(Q, { rows: [] }), {
      question: Q,
      expect: { rows: [] },
    }, [
      ["execute", "PASS", "0 row(s)"],
    ]],
    ["respects ordered", Trace.simple(Q, { rows: [{ n: 1 }, { n: 2 }] }), {
      question: Q,
      ordered: true,
      expect: { rows: [{ n: 2 }, { n: 1 }] },
    }, [[
      "execute",
      "FAIL",
      'got 2 row(s), first: [{"n":1}]; expected 2 row(s), first: [{"n":2}]',
    ]]],
    ["respects precision", Trace.simple(Q, { rows: [{ r: 0.1234 }] }), {
      question: Q,
      precision: 4,
      expect: { rows: [{ r: 0.1235 }] },
    }, [[
      "execute",
      "FAIL",
      'got 1 row(s), first: [{"r":0.1234}]; expected 1 row(s), first: [{"r":0.1235}]',
    ]]],
    ["skips when the SQL failed", Trace.simple(Q, { sql: "S", error: "boom" }), {
      question: Q,
      expect: { rows: [] },
    }, [["execute", "SKIP", "the SQL failed, so there are no rows to compare"]]],
    ["fails a trace without rows", Trace.simple(Q, { answer: "2" }), {
      question: Q,
      expect: { rows: [{ n: 2 }] },
    }, [[
      "execute",
      "FAIL",
      "the trace has no rows; put the rows your SQL returned in the trace (rows in Trace.simple, or an execute stage)",
    ]]],
    ["says nothing without expect.rows", Trace.simple(Q, { rows: [] }), { question: Q }, []],
    [
      "fails an extra column with strict_columns, saying so",
      Trace.simple(Q, {
        rows: [{ total: 2, store: "s1" }],
      }),
      { question: Q, strict_columns: true, expect: { rows: [{ total: 2 }] } },
      [[
        "execute",
        "FAIL",
        'got 1 row(s), first: [{"total":2,"store":"s1"}]; expected 1 row(s), first: [{"total":2}]; 2 columns for the expected 1: strict columns allow no extra column',
      ]],
    ],
    ["passes as many columns with strict_columns", Trace.simple(Q, { rows: [{ n: 2 }] }), {
      question: Q,
      strict_columns: true,
      expect: { rows: [{ total: 2 }] },
    }, [["execute", "PASS", "1 row(s)"]]],
  ];
  for (const [name, trace, input, expected] of cases) {
    it(`rows_match ${name}`, () => {
      assert.deepEqual(brief(new RowsMatch().run(trace, defineCase(input))), expected);
    });
  }
});

describe("reference_rows", () => {
  const cases: [string, Trace, CheckContext, Found[]][] = [
    ["passes rows equal to the reference rows", Trace.simple(Q, { rows: [{ total: 2 }] }), {
      referenceRows: [{ "COUNT(*)": 2 }],
    }, [["execute", "PASS", "1 row(s)"]]],
    ["fails in the documented words", Trace.simple(Q, { rows: [{ total: 11900 }] }), {
      referenceRows: [{ "SUM(amount)": 2000 }],
    }, [[
      "execute",
      "FAIL",
      'got 1 row(s), first: [{"total":11900}]; the reference query gives 1 row(s), first: [{"SUM(amount)":2000}]',
    ]]],
    ["prints bigints as numbers", Trace.simple(Q, { rows: [{ n: 9007199254740993n }] }), {
      referenceRows: [{ n: 1 }],
    }, [[
      "execute",
      "FAIL",
      'got 1 row(s), first: [{"n":9007199254740993}]; the reference query gives 1 row(s), first: [{"n":1}]',
    ]]],
    ["leaves an answer-only trace to reference_numbers", Trace.simple(Q, { answer: "2" }), {
      referenceRows: [{ n: 2 }],
    }, []],
    ["fails a trace with no rows and no answer", Trace.simple(Q, { sql: "S" }), {
      referenceRows: [],
    }, [[
      "execute",
      "FAIL",
      "the trace has no rows; put the rows your SQL returned in the trace (rows in Trace.simple, or an execute stage)",
    ]]],
    [
      "skips when the SQL failed",
      Trace.simple(Q, { sql: "S", error: "x" }),
      { referenceRows: [] },
      [[
        "execute",
        "SKIP",
        "the SQL failed, so there are no rows to compare",
      ]],
    ],
    ["says nothing without reference rows", Trace.simple(Q, { rows: [] }), {}, []],
  ];
  for (const [name, trace, context, expected] of cases) {
    it(`reference_rows ${name}`, () => {
      const c = defineCase({ question: Q });
      assert.deepEqual(brief(new ReferenceRows().run(trace, c, context)), expected);
    });
  }

  it("reference_rows fails an extra column with strict_columns, saying so", () => {
    const c = defineCase({ question: Q, strict_columns: true });
    const trace = Trace.simple(Q, { rows: [{ total: 2, store: "s1" }] });
    assert.deepEqual(brief(new ReferenceRows().run(trace, c, { referenceRows: [{ n: 2 }] })), [[
      "execute",
      "FAIL",
      'got 1 row(s), first: [{"total":2,"store":"s1"}]; the reference query gives 1 row(s), first: [{"n":2}]; 2 columns for the expected 1: strict columns allow no extra column',
    ]]);
  });
});

describe("reference_numbers", () => {
  const cases: [string, string, string, unknown[], Found][] = [
    ["passes an answer with the reference value", Q, "There are 2 delivered orders.", [{ n: 2 }], [
      "answer",
      "PASS",
      "the answer has the reference value 2",
    ]],
    ["reads thousands separators", "Total?", "The total is $1,234,567.", [{ s: 1234567 }], [
      "answer",
      "PASS",
      "the answer has the reference value 1234567",
    ]],
    ["rounds decimals to the precision", "Average?", "About 3.14 on average.", [{ a: 3.14159 }], [
      "answer",
      "PASS",
      "the answer has the reference value 3.14159",
    ]],
    ["reads negatives with their sign", "Change?", "It changed by -5.", [{ d: -5 }], [
      "answer",
      "PASS",
      "the answer has the reference value -5",
    ]],
    ["does not take a negative for a positive", "Change?", "It changed by -5.", [{ d: 5 }], [
      "answer",
      "FAIL",
      "the answer has -5, which the reference result does not have (it has [5])",
    ]],
    ["matches a percentage with its fraction", "Rate?", "The rate is 12.5%.", [{ r: 0.125 }], [
      "answer",
      "PASS",
      "the answer has the reference value 0.125",
    ]],
    ["fails an answer with another number too", Q, "3 of the 4 orders are delivered.", [{ n: 3 }], [
      "answer",
      "FAIL",
      "the answer has 4, which the reference result does not have (it has [3])",
    ]],
    ["fails an answer without the reference value", Q, "There are some orders.", [{ n: 3 }], [
      "answer",
      "FAIL",
      "the answer does not have the reference value 3",
    ]],
    [
      "allows numbers the question has",
      "How many orders in 2023?",
      "There were 7 orders in 2023.",
      [{
        n: 7,
      }],
      ["answer", "PASS", "the answer has the reference value 7"],
    ],
    ["finds a text reference value ignoring case", "Which store?", "Store S1 sells most.", [{
      s: "s1",
    }], [
      "answer",
      "PASS",
      'the answer has the reference value "s1"',
    ]],
    ["accepts some of many reference values", "Top stores?", "s1 with 2000 and s2 with 9900.", [
      { s: "s1", t: 2000 },
      { s: "s2", t: 9900 },
      { s: "s3", t: 10 },
    ], ["answer", "PASS", "the answer has 4 of the 6 reference values"]],
    ["accepts an answer with no number for an empty result", "Which?", "None.", [], [
      "answer",
      "PASS",
      "the reference result is empty, and so is the answer",
    ]],
  ];
  for (const [name, question, answer, rows, expected] of cases) {
    it(`reference_numbers ${name}`, () => {
      const trace = Trace.simple(question, { answer });
      const c = defineCase({ question });
      const found = brief(
        new ReferenceNumbers().run(trace, c, { referenceRows: rows as Record<string, unknown>[] }),
      );
      assert.deepEqual(found, [expected]);
    });
  }

  it("reference_numbers says nothing when the trace has rows", () => {
    const trace = Trace.simple(Q, { rows: [{ n: 2 }], answer: "2" });
    assert.deepEqual(
      new ReferenceNumbers().run(trace, defineCase({ question: Q }), { referenceRows: [] }),
      [],
    );
  });
});
