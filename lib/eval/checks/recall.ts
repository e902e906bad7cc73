/**
 * recall: a retrieve stage found every name written for it in `expect`.
 *
 * @module
 */
import { Check, type CheckResult, ERROR, FAIL, PASS } from "../check.ts";
import type { TestCase } from "../case.ts";
import { jsonText } from "../json_text.ts";
import type { Trace } from "../trace.ts";
import { stageMissing, stageValue } from "./expected.ts";

function names(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map((v) => String(v));
  if (typeof value === "string") return value.split(/[\s,]+/).filter((s) => s !== "");
  return [String(value)];
}

/** `status` is found by `status`, `STATUS` and `orders.status`; `orders.status` only by itself. */
function found(name: string, among: readonly string[]): boolean {
  const want = name.toLowerCase();
  return among.some((n) => {
    const have = n.toLowerCase();
    return have === want || (!want.includes(".") && have.endsWith(`.${want}`));
  });
}

/**
 * For each `expect` key naming a retrieve stage: PASS when the stage's
 * output (a list of names) has every expected name, ignoring case; extra
 * names are fine.
 *
 * @example
 * ```ts
 * import { Recall } from "./recall.ts";
 * import { defineCase } from "../cases.ts";
 * import { Trace } from "../trace.ts";
 * const trace = new Trace("Q", [{ kind: "retrieve", output: ["orders.status", "amount"] }]);
 * new Recall().run(trace, defineCase({ question: "Q", expect: { retrieve: ["status"] } })); // PASS
 * ```
 */
export class Recall extends Check {
  readonly name = "recall";

  /**
   * @param trace what the agent did
   * @param testCase the case, with `expect`
   * @returns one finding per retrieve key of expect
   */
  run(trace: Trace, testCase: TestCase): CheckResult[] {
    const results: CheckResult[] = [];
    for (const [key, expected] of Object.entries(testCase.expect ?? {})) {
      if (key === "rows") continue;
      const stage = trace.stage(key);
      if (stage === undefined) {
        if (key === "retrieve") results.push(this.result(key, ERROR, stageMissing(trace)));
        continue;
      }
      if (stage.kind !== "retrieve") continue;
      const want = names(expected);
      const have = names(stageValue(stage));
      const missing = want.filter((n) => !found(n, have));
      results.push(
        missing.length === 0
          ? this.result(key, PASS, `${want.length} of ${want.length} found`)
          : this.result(key, FAIL, `missing ${jsonText(missing)}; found ${jsonText(have)}`),
      );
    }
    return results;
  }
}
