import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { AgentError } from "../errors.ts";
import { toTrace } from "../eval/agent.ts";
import { agentRequest, readReply } from "./_protocol.ts";

describe("agentRequest()", () => {
  it("sends the case id, the question, the tags and the database copy as db_path", () => {
    const request = agentRequest("How many?", { caseId: "c1", tags: ["a"], dbPath: "/tmp/x.db" });
    assert.deepEqual(request, {
      id: "c1",
      question: "How many?",
      context: { tags: ["a"], db_path: "/tmp/x.db" },
    });
  });

  it("sends no db_path without a database copy, and an empty tag list", () => {
    assert.deepEqual(agentRequest("Q", { caseId: "c1" }).context, { tags: [] });
  });
});

describe("readReply()", () => {
  const good: [string, unknown, number][] = [
    ["the simple form", { id: "c", sql: "SELECT 1 AS n", rows: [{ n: 1 }], answer: "1" }, 3],
    ["nulls for missing parts", { id: "c", sql: null, rows: null, answer: "1", error: null }, 1],
    [
      "rows as columns and value lists",
      { id: "c", rows: { columns: ["n", "n"], rows: [[1, 2]] } },
      1,
    ],
    ["value lists with columns beside them", { id: "c", columns: ["n"], rows: [[1]] }, 1],
    ["a full trace", {
      id: "c",
      stages: [{ kind: "generate", output: "SELECT 1" }, { kind: "answer", output: "1" }],
    }, 2],
  ];
  for (const [name, reply, stages] of good) {
    it(`reads ${name}`, () => {
      assert.equal(toTrace("Q", readReply(reply, "c")).stages.length, stages);
    });
  }

  it("keeps a row's __proto__ column as a column, not as the row's prototype", () => {
    const reply = JSON.parse('{"id": "c", "rows": [{"__proto__": {"x": 1}, "n": 1}]}');
    const row = toTrace("Q", readReply(reply, "c")).lastOf("execute")?.rows?.[0];
    assert.equal(Object.getPrototypeOf(row), Object.prototype);
    assert.deepEqual(Object.keys(row ?? {}), ["__proto__", "n"]);
  });

  const bad: [string, unknown, RegExp][] = [
    ["a list", [1], /reply is not a JSON object: \[1\]/],
    ["no id", { answer: "1" }, /reply\.id: missing, and required/],
    ["another case's id", { id: "d", answer: "1" }, /answered case "d" when asked case "c"/],
    ["a misspelt field", { id: "c", anwser: "1" }, /reply\.anwser: unknown field/],
    [
      "an answer that is a number",
      { id: "c", answer: 2 },
      /reply\.answer: expected .*string.*, got 2/,
    ],
    [
      "a row that is a number",
      { id: "c", rows: [{ n: 1 }, 7] },
      /reply\.rows: expected a list of objects/,
    ],
    [
      "a stage of an unknown kind",
      { id: "c", stages: [{ kind: "answer" }, { kind: "think" }] },
      /reply\.stages\[1\]\.kind: expected one of route, plan/,
    ],
    [
      "a stage with a misspelt field",
      { id: "c", stages: [{ kind: "answer", outptu: "x" }] },
      /reply\.stages\[0\]\.outptu: unknown field/,
    ],
  ];
  for (const [name, reply, message] of bad) {
    it(`names the field for ${name}`, () => {
      assert.throws(
        () => readReply(reply, "c"),
        (e: unknown) => e instanceof AgentError && message.test(e.message),
      );
    });
  }
});
