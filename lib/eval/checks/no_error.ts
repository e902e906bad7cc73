/**
 * no_error: each stage finished without an error.
 *
 * @module
 */
import { Check, type CheckResult, FAIL, PASS } from "../check.ts";
import type { Trace } from "../trace.ts";

/**
 * One finding per stage: PASS, or FAIL with the stage's error text.
 *
 * @example
 * ```ts
 * import { NoError } from "./no_error.ts";
 * import { Trace } from "../trace.ts";
 * new NoError().run(Trace.simple("Q", { sql: "SELEC", error: "syntax error" }));
 * // generate PASS, execute FAIL "syntax error"
 * ```
 */
export class NoError extends Check {
  readonly name = "no_error";

  /**
   * @param trace what the agent did
   * @returns one finding per stage
   */
  run(trace: Trace): CheckResult[] {
    return trace.stages.map((stage) =>
      stage.error === undefined
        ? this.result(stage.name, PASS)
        : this.result(stage.name, FAIL, stage.error)
    );
  }
}
