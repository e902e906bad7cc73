/**
 * expected: a named stage gave the value written in `expect` (every key of
 * `expect` but `rows`, and but the retrieve stages, which recall checks).
 *
 * @module
 */
import { Check, type CheckResult, ERROR, FAIL, PASS } from "../check.ts";
import type { TestCase } from "../case.ts";
import { jsonText } from "../json_text.ts";
import { cellKey } from "../../compare/rows.ts";
import type { Stage, Trace } from "../trace.ts";
import { DB_EXPECT_KEYS } from "./db_expect.ts";

/**
 * The detail for an `expect` key that names no stage of the trace (spec, "Common problems").
 *
 * @param trace the trace
 * @returns the detail
 */
export function stageMissing(trace: Trace): string {
  const names = [...new Set(trace.stages.map((s) => s.name))];
  return `stage missing from trace; the trace has ${
    names.length === 0 ? "no stages" : names.join(", ")
  }. Check the spelling of the key in expect`;
}

/** The value a stage gave: its output, or for an execute stage without output, its rows. */
export function stageValue(stage: Stage): unknown {
  return stage.output === undefined && stage.kind === "execute" ? stage.rows : stage.output;
}

/**
 * Compares the value of each stage named in `expect` with the expected one:
 * numbers as in row comparison (2 = "2.00", rounded to the case's
 * precision), null = "", text exactly.
 *
 * @example
 * ```ts
 * import { Expected } from "./expected.ts";
 * import { defineCase } from "../cases.ts";
 * import { Trace } from "../trace.ts";
 * const trace = new Trace("Q", [{ kind: "route", name: "view", output: "orders" }]);
 * new Expected().run(trace, defineCase({ question: "Q", expect: { view: "orders" } })); // PASS
 * ```
 */
export class Expected extends Check {
  readonly name = "expected";

  /**
   * @param trace what the agent did
   * @param testCase the case, with `expect`
   * @returns one finding per stage key of expect
   */
  run(trace: Trace, testCase: TestCase): CheckResult[] {
    const results: CheckResult[] = [];
    for (const [key, expected] of Object.entries(testCase.expect ?? {})) {
      if (key === "rows" || (DB_EXPECT_KEYS as readonly string[]).includes(key)) continue;
      const stage = trace.stage(key);
      if (stage === undefined) {
        if (key !== "retrieve") results.push(this.result(key, ERROR, stageMissing(trace)));
        continue;
      }
      if (stage.kind === "retrieve") continue;
      const actual = stageValue(stage);
      const same = cellKey(actual, testCase.precision) === cellKey(expected, testCase.precision);
      results.push(
        same
          ? this.result(key, PASS, jsonText(actual))
          : this.result(key, FAIL, `got ${jsonText(actual)}, expected ${jsonText(expected)}`),
      );
    }
    return results;
  }
}
