/**
 * reference_rows: the agent's rows are the rows of the reference SQL.
 *
 * @module
 */
import { Check, type CheckContext, type CheckResult, FAIL, PASS, SKIP } from "../check.ts";
import type { TestCase } from "../case.ts";
import { compareRows } from "../../compare/rows.ts";
import { toRowSet } from "../../row_set.ts";
import type { Trace } from "../trace.ts";
import {
  extraColumnsNote,
  NO_ROWS,
  rowOptions,
  rowsText,
  SQL_FAILED,
  traceRows,
} from "./trace_rows.ts";

/**
 * Compares the last execute stage's rows with `context.referenceRows` (see
 * {@link compareRows}). Nothing to say without reference rows, or when the
 * trace has no rows but an answer (reference_numbers checks that).
 *
 * @example
 * ```ts
 * import { ReferenceRows } from "./reference_rows.ts";
 * import { defineCase } from "../cases.ts";
 * import { Trace } from "../trace.ts";
 * const trace = Trace.simple("Q", { rows: [{ total: 11900 }] });
 * new ReferenceRows().run(trace, defineCase({ question: "Q" }), { referenceRows: [{ "SUM(amount)": 2000 }] });
 * // FAIL: got 1 row(s), first: [{"total":11900}]; the reference query gives 1 row(s), first: [{"SUM(amount)":2000}]
 * ```
 */
export class ReferenceRows extends Check {
  readonly name = "reference_rows";

  /**
   * @param trace what the agent did
   * @param testCase the case (ordered, precision)
   * @param context the reference rows
   * @returns the finding, or none
   */
  run(trace: Trace, testCase: TestCase, context: CheckContext): CheckResult[] {
    const reference = context.referenceRows;
    if (reference === undefined) return [];
    const got = traceRows(trace);
    if (got.kind === "failed") return [this.result(got.stage.name, SKIP, SQL_FAILED)];
    if (got.kind === "none") {
      return trace.lastOf("answer")?.output !== undefined
        ? []
        : [this.result("execute", FAIL, NO_ROWS)];
    }
    const options = rowOptions(testCase);
    const want = toRowSet(reference, context.referenceColumns);
    if (compareRows(got.set, want, options)) {
      return [this.result(got.stage.name, PASS, `${got.rows.length} row(s)`)];
    }
    const note = options.strictColumns === true &&
        compareRows(got.set, want, { ...options, strictColumns: false })
      ? extraColumnsNote(got.set, want)
      : "";
    return [
      this.result(
        got.stage.name,
        FAIL,
        `got ${rowsText(got.rows)}; the reference query gives ${rowsText(reference)}${note}`,
      ),
    ];
  }
}
