import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { VALUES } from "../../tests/value_table.ts";
import { sqliteExecutor } from "../sqlite/executor.ts";
import { defineCase } from "./cases.ts";
import { parseRunFile, readRunFile, runFileCase, toRunFile } from "./run_file.ts";
import { runFileJson } from "./run_file_json.ts";
import { RunFileWriter } from "./run_stream.ts";
import { runSuite } from "./suite.ts";

const dir = tempDir("dbagenteval-run-file-values-");
after(() => dir.cleanup());

/** One row holding every value of the table, a column each. */
const ROW = Object.fromEntries(VALUES.map(([, value], i) => [`v${i}`, value]));

const db = makeDb(dir.file("values.db"), "CREATE TABLE t(x);");
const REFERENCE = "SELECT x'00ff10' AS b, 9007199254740993 AS n, 1.0 AS r, 'x''y' AS t";

async function runWithValues() {
  const execute = sqliteExecutor(db);
  try {
    return await runSuite(
      [defineCase({ id: "values", question: "Q", reference_sql: REFERENCE })],
      () => ({ sql: "SELECT 1", rows: [ROW] }),
      { execute },
    );
  } finally {
    execute.close();
  }
}

describe("a run file's rows", () => {
  it("read back to the same values (BLOBs, integers past 2^53, 1.0, NaN, -0)", async () => {
    const result = await runWithValues();
    const read = parseRunFile(runFileJson(toRunFile(result), 2), "run.json");
    const c = read.cases[0]!;
    assert.deepEqual(c.trace?.find((s) => s.kind === "execute")?.rows, [{ ...ROW }]);
    assert.deepEqual(c.reference_rows, [{
      b: new Uint8Array([0, 255, 16]),
      n: 9007199254740993n,
      r: 1,
      t: "x'y",
    }]);
  });

  it("read back the same from a file written case by case (run --json)", async () => {
    const result = await runWithValues();
    const file = dir.file("streamed.json");
    const header = {
      format: "dbagenteval-run",
      version: 1,
      tool_version: "0",
      created_at: "x",
    } as const;
    const writer = new RunFileWriter(file, header);
    writer.add(0, runFileCase(result.cases[0]!));
    writer.close(); // a run stopped before its end reads too
    const c = (await readRunFile(file)).cases[0]!;
    assert.deepEqual(c.trace?.find((s) => s.kind === "execute")?.rows, [{ ...ROW }]);
  });

  it("are plain JSON when they hold only values JSON has literals for", async () => {
    const result = await runSuite([defineCase({ id: "a", question: "Q" })], () => ({
      rows: [{ n: 1, s: "x", z: null }],
    }));
    const file = toRunFile(result);
    assert.equal(runFileJson(file), JSON.stringify(file));
  });

  it("of a file written before the codec still read, as what they say", () => {
    // That version wrote a bigint as its digits and a BLOB as the text x'..'.
    const old = JSON.stringify({
      format: "dbagenteval-run",
      version: 1,
      tool_version: "0.1.0",
      created_at: "x",
      totals: { total: 1, passed: 1, failed: 0, errors: 0, skipped: 0 },
      failures_by_stage: {},
      judge_calls: 0,
      duration_ms: 1,
      cases: [{
        id: "a",
        question: "Q",
        tags: [],
        verdict: "PASS",
        failed_stage: null,
        error: null,
        duration_ms: 1,
        answer: null,
        sql: null,
        checks: [],
        reference_rows: [{ b: "x'00ff'", n: 42 }],
      }],
    });
    fs.writeFileSync(dir.file("old.json"), old);
    const read = parseRunFile(old, "old.json");
    assert.deepEqual(read.cases[0]?.reference_rows, [{ b: "x'00ff'", n: 42 }]);
  });
});
