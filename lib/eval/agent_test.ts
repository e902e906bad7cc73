import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TraceError } from "../errors.ts";
import { readRows, toTrace } from "./agent.ts";
import { Trace } from "./trace.ts";

const Q = "How many orders are delivered?";

/** A trace as another copy of the library would build it: same shape, different class. */
class ForeignTrace {
  constructor(readonly question: string, readonly stages: unknown[]) {}
}

describe("toTrace()", () => {
  const shapes: [string, unknown, [string, string][]][] = [
    ["reads a string as an answer-only trace", "There are 2.", [["answer", "answer"]]],
    ["keeps a Trace's stages", Trace.simple(Q, { sql: "SELECT 2", rows: [{ n: 2 }] }), [
      ["generate", "generate"],
      ["execute", "execute"],
    ]],
    ["reads a plain { answer, sql, rows } object", { answer: "2", sql: "SELECT 2", rows: [] }, [
      ["generate", "generate"],
      ["execute", "execute"],
      ["answer", "answer"],
    ]],
    [
      "reads a plain error as a failed execute stage",
      { sql: "SELECT x", error: "no such column" },
      [
        ["generate", "generate"],
        ["execute", "execute"],
      ],
    ],
    ["reads a plain { question, stages } object", {
      question: Q,
      stages: [{ kind: "route", name: "classify", output: "data" }, {
        kind: "answer",
        output: "2",
      }],
    }, [["route", "classify"], ["answer", "answer"]]],
    [
      "reads a trace built by another copy of the library",
      new ForeignTrace(Q, [{
        kind: "generate",
        name: "generate",
        output: "SELECT 1",
      }]),
      [["generate", "generate"]],
    ],
    [
      "accepts rows with a null prototype",
      { rows: [Object.assign(Object.create(null), { n: 1 })] },
      [
        ["execute", "execute"],
      ],
    ],
  ];
  for (const [name, value, stages] of shapes) {
    it(`toTrace() ${name}`, () => {
      const trace = toTrace(Q, value);
      assert.equal(trace.question, Q);
      assert.deepEqual(trace.stages.map((s) => [s.kind, s.name]), stages);
    });
  }

  const bad: [string, unknown, RegExp][] = [
    ["refuses a number", 42, /^the agent returned a number \(42\); return a Trace/],
    ["refuses undefined", undefined, /^the agent returned nothing \(undefined\)/],
    ["refuses null", null, /^the agent returned null/],
    ["refuses a list", [1], /^the agent returned a list/],
    ["refuses an object without known keys", { text: "2" }, /unknown key\(s\) \['text'\]/],
    [
      "refuses rows that are tuples, with the documented hint",
      { rows: [[2]] },
      /^rows must be a list of objects: rows\[0\] is a list \(\[2\]\); your rows are arrays \(tuples\): turn each into an object with Object\.fromEntries/,
    ],
    [
      "refuses rows that are not a list",
      { rows: { total: 2 } },
      /^rows must be a list of objects, got an object \(\{"total":2\}\)/,
    ],
    [
      "refuses rows that are Maps",
      { rows: [new Map()] },
      /^rows must be a list of objects: rows\[0\] is a Map; turn each into an object with Object\.fromEntries\(row\)$/,
    ],
    [
      "refuses rows that are class instances (a driver's row class), saying how to copy them",
      {
        rows: [
          new (class RowDataPacket {
            total = 2;
          })(),
        ],
      },
      /^rows must be a list of objects: rows\[0\] is a RowDataPacket; copy each into a plain object, e\.g\. rows\.map\(\(row\) => \(\{ \.\.\.row \}\)\)$/,
    ],
    [
      "refuses tuple rows inside stages",
      { stages: [{ kind: "execute", rows: [[1]] }] },
      /^stages\[0\]\.rows must be a list of objects/,
    ],
    [
      "refuses an unknown stage kind",
      { stages: [{ kind: "think" }] },
      /^stages\[0\]\.kind must be one of route, plan, retrieve, generate, execute, answer, got "think"/,
    ],
    [
      "refuses an answer that is not text",
      { answer: 2 },
      /^answer must be text, got a number \(2\)/,
    ],
    ["refuses stages that are not a list", { stages: "x" }, /^stages must be a list of stages/],
  ];
  for (const [name, value, message] of bad) {
    it(`toTrace() ${name}`, () => {
      assert.throws(() => toTrace(Q, value), (e: unknown) => {
        assert.ok(e instanceof TraceError);
        assert.match(e.message, message);
        return true;
      });
    });
  }
});

describe("readRows()", () => {
  const read: [string, unknown, unknown, unknown][] = [
    ["reads a list of objects as it is", [{ n: 1 }], undefined, { rows: [{ n: 1 }] }],
    [
      "reads a row set and keeps a repeated name",
      { columns: ["Name", "Name"], rows: [["Rock", "AC/DC"]] },
      undefined,
      { rows: [{ Name: "Rock", "Name (2)": "AC/DC" }], columns: ["Name", "Name"] },
    ],
    [
      "reads value lists with the columns given beside them",
      [[1, 2]],
      ["a", "b"],
      { rows: [{ a: 1, b: 2 }] },
    ],
    [
      "keeps the column list a list of objects carries (the SQLite executor's rows)",
      Object.assign([{ n: 1, "n (2)": 2 }], { columns: ["n", "n"] }),
      undefined,
      { rows: [{ n: 1, "n (2)": 2 }], columns: ["n", "n"] },
    ],
    [
      "ignores a carried column list that does not fit the keys (a driver's own result)",
      Object.assign([{ n: 2 }], { columns: ["n", "n"] }),
      undefined,
      { rows: [{ n: 2 }] },
    ],
  ];
  for (const [name, rows, columns, expected] of read) {
    it(`readRows() ${name}`, () => {
      const read = readRows(rows, "rows", columns);
      const plain = { rows: [...read.rows], ...(read.columns ? { columns: read.columns } : {}) };
      assert.deepEqual(plain, expected);
    });
  }

  const refused: [string, unknown, unknown, string][] = [
    [
      "a row with too few values",
      { columns: ["a", "b"], rows: [[1]] },
      undefined,
      "rows.rows[0] has 1 value(s) for 2 column(s)",
    ],
    [
      "a column name that is not text",
      [[1]],
      [7],
      "columns[0] must be a column name (text), got 7",
    ],
    [
      "a row that is not a list",
      { columns: ["a"], rows: [{ a: 1 }] },
      undefined,
      'rows.rows[0] must be a list of values in column order, like [1, "a"]',
    ],
    [
      "columns that are not a list",
      [[1]],
      "a",
      'columns must be a list of column names, got a string ("a")',
    ],
  ];
  for (const [name, rows, columns, message] of refused) {
    it(`readRows() refuses ${name}, naming it`, () => {
      assert.throws(() => readRows(rows, "rows", columns), (e: unknown) => {
        assert.ok(e instanceof TraceError);
        assert.equal(e.message, message);
        return true;
      });
    });
  }

  it("toTrace() reads a reply with columns beside value rows into an execute stage", () => {
    const trace = toTrace("Q", { sql: "SELECT 1, 1", columns: ["x", "x"], rows: [[1, 2]] });
    const stage = trace.lastOf("execute");
    assert.deepEqual(stage?.rows, [{ x: 1, "x (2)": 2 }]);
    assert.deepEqual(stage?.columns, ["x", "x"]);
  });

  it("toTrace() reads a stage whose rows are a row set", () => {
    const trace = toTrace("Q", {
      stages: [{ kind: "execute", rows: { columns: ["x", "x"], rows: [[1, 2]] } }],
    });
    assert.deepEqual(trace.lastOf("execute")?.columns, ["x", "x"]);
  });
});
