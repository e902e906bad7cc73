/**
 * db_unchanged: the agent did not change its database at all
 * (`expect.db_unchanged: true`). This is the proof behind ReadOnly: it sees
 * a write the agent made but never reported.
 *
 * @module
 */
import { matchesDiff } from "../../../selector/mod.ts";
import { Check, type CheckContext, type CheckResult, ERROR, FAIL, PASS } from "../check.ts";
import type { TestCase } from "../case.ts";
import type { Trace } from "../trace.ts";
import { dbStage, describeChanges, expectValue, missingDiff } from "./db_expect.ts";

/**
 * Passes when the diff of the agent's database copy has no change in either
 * plane; fails naming what changed.
 *
 * @example
 * ```ts
 * import { DbUnchanged } from "./db_unchanged.ts";
 * new DbUnchanged().name; // "db_unchanged"
 * ```
 */
export class DbUnchanged extends Check {
  readonly name = "db_unchanged";

  /**
   * @param trace what the agent did
   * @param testCase the case, with `expect.db_unchanged: true`
   * @param context the database diff
   * @returns one finding, or none when the case does not ask for it
   */
  run(trace: Trace, testCase: TestCase, context: CheckContext): CheckResult[] {
    if (expectValue(testCase, "db_unchanged") !== true) return [];
    const stage = dbStage(trace);
    if (context.dbDiff === undefined) {
      return [this.result(stage, ERROR, missingDiff("expect.db_unchanged", context))];
    }
    // The empty selector matches any change in either plane (docs/selector.md).
    const matched = matchesDiff(context.dbDiff, {});
    return [
      matched
        ? this.result(stage, FAIL, `the database changed: ${describeChanges(context.dbDiff)}`)
        : this.result(stage, PASS, "no change"),
    ];
  }
}
