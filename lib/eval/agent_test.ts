import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TraceError } from "../errors.ts";
import { toTrace } from "./agent.ts";
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
      "refuses rows that are tuples, with the spec's hint",
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
