import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type SimpleTraceInput, Trace } from "./trace.ts";

describe("Trace", () => {
  const simple: [string, SimpleTraceInput, [string, unknown][]][] = [
    ["records sql, rows and answer as three stages", { sql: "S", rows: [], answer: "A" }, [
      ["generate", "S"],
      ["execute", []],
      ["answer", "A"],
    ]],
    ["records an SQL error on the execute stage", { sql: "S", error: "E" }, [
      ["generate", "S"],
      ["execute", "E"],
    ]],
    ["records an error without SQL on the answer stage", { error: "E" }, [["answer", "E"]]],
    ["records only an answer", { answer: "A" }, [["answer", "A"]]],
    ["records nothing for nothing", {}, []],
  ];
  for (const [name, input, expected] of simple) {
    it(`Trace.simple() ${name}`, () => {
      const t = Trace.simple("Q", input);
      assert.deepEqual(
        t.stages.map((s) => [s.kind, s.output ?? s.rows ?? s.error]),
        expected,
      );
    });
  }

  const trace = new Trace("Q", [
    { kind: "route", name: "classify", output: "data" },
    { kind: "route", name: "view", output: "orders" },
    { kind: "generate", output: "S" },
    { kind: "answer", output: "A" },
  ]);
  const lookups: [string, () => unknown, unknown][] = [
    ["lastOf() gives the last stage of a kind", () => trace.lastOf("route")?.name, "view"],
    ["lastOf() gives undefined for a missing kind", () => trace.lastOf("execute"), undefined],
    ["stage() finds a stage by name", () => trace.stage("classify")?.output, "data"],
    ["stage() defaults a name to the kind", () => trace.stage("generate")?.output, "S"],
    ["allOf() gives every stage of a kind", () => trace.allOf("route").length, 2],
    ["order() places a named stage by its position", () => trace.order("view"), 1],
    [
      "order() places a missing stage after the trace's own, by kind",
      () => trace.order("execute") > trace.order("answer"),
      true,
    ],
  ];
  for (const [name, lookup, expected] of lookups) {
    it(`Trace ${name}`, () => assert.equal(lookup(), expected));
  }
});
