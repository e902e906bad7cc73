import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { defineCase } from "./cases.ts";
import { parsePredictions, predictionsAgent } from "./predictions.ts";
import { Trace } from "./trace.ts";

const cases = ["0", "1", "2"].map((id) => defineCase({ id, question: `q${id}`, db: "schools" }));
const bird = (entries: unknown[]): string =>
  JSON.stringify(Object.fromEntries(entries.map((e, i) => [String(i), e])));
const SQL = "SELECT 1\t----- bird -----\tschools";

describe("parsePredictions() on BIRD's entries that are not SQL", () => {
  // BIRD's published predict_dev.json (its ChatGPT baseline) holds 0 for
  // the questions its model did not answer.
  const entries: [string, unknown, string | null][] = [
    ["0, as BIRD's published predictions hold it", 0, null],
    ["null", null, null],
    ["false", false, null],
    ["text", SQL, "SELECT 1"],
  ];
  for (const [name, entry, expected] of entries) {
    it(`reads ${name} as ${expected === null ? "an unanswered question" : "its SQL"}`, () => {
      assert.equal(parsePredictions(bird([SQL, entry, SQL]), "p.json", cases).get("1"), expected);
    });
  }

  it("refuses an object or a list: a file of another shape", () => {
    assert.throws(
      () => parsePredictions(bird([SQL, { sql: "SELECT 1" }, SQL]), "p.json", cases),
      /^UsageError: p\.json\["1"\]: each prediction must be text, .* or 0 for an unanswered question$/,
    );
  });
});

describe("predictionsAgent()", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-pred-"));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("counts the unanswered questions and answers each with an error at generate, never SQL to run", async () => {
    const file = path.join(dir, "predict_dev.json");
    fs.writeFileSync(file, bird([SQL, 0, 0]));
    const agent = await predictionsAgent(file, cases);
    assert.equal(agent.unanswered, 2);
    assert.deepEqual(await agent("q0", { caseId: "0" }), { sql: "SELECT 1" });
    const trace = await agent("q1", { caseId: "1" });
    assert.ok(trace instanceof Trace);
    assert.deepEqual(trace.stages, [{
      kind: "generate",
      name: "generate",
      output: "",
      error: `unanswered: ${file}["1"] is 0, not SQL`,
    }]);
  });
});
