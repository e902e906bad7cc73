/**
 * rows_match: the agent's rows are the rows written in `expect.rows` (or
 * one of several acceptable results).
 *
 * @module
 */
import { Check, type CheckResult, FAIL, PASS, SKIP } from "../check.ts";
import type { TestCase } from "../case.ts";
import { acceptableResults } from "../cases.ts";
import { matchesAny } from "../../compare/rows.ts";
import type { Trace } from "../trace.ts";
import {
  extraColumnsNote,
  NO_ROWS,
  rowOptions,
  rowsText,
  SQL_FAILED,
  traceRows,
} from "./trace_rows.ts";
import { toRowSet } from "../../row_set.ts";

/**
 * Compares the last execute stage's rows with `expect.rows` (see
 * {@link matchesAny}); nothing to say without `expect.rows`.
 *
 * @example
 * ```ts
 * import { RowsMatch } from "./rows_match.ts";
 * import { defineCase } from "../cases.ts";
 * import { Trace } from "../trace.ts";
 * const c = defineCase({ question: "Q", expect: { rows: [{ total: 2 }] } });
 * new RowsMatch().run(Trace.simple("Q", { rows: [{ n: 2 }] }), c); // PASS "1 row(s)"
 * ```
 */
export class RowsMatch extends Check {
  readonly name = "rows_match";

  /**
   * @param trace what the agent did
   * @param testCase the case, with `expect.rows`
   * @returns the finding, or none when the case has no expect.rows
   */
  run(trace: Trace, testCase: TestCase): CheckResult[] {
    const results = acceptableResults(testCase.expect);
    if (results === undefined) return [];
    const got = traceRows(trace);
    if (got.kind === "failed") return [this.result(got.stage.name, SKIP, SQL_FAILED)];
    if (got.kind === "none") return [this.result("execute", FAIL, NO_ROWS)];
    const options = rowOptions(testCase);
    if (matchesAny(got.set, results, options)) {
      return [this.result(got.stage.name, PASS, `${got.rows.length} row(s)`)];
    }
    const loose = { ...options, strictColumns: false };
    const extra = results.find((r) => matchesAny(got.set, [r], loose));
    const note = extra === undefined ? "" : extraColumnsNote(got.set, toRowSet(extra));
    const wanted = results.length === 1
      ? `expected ${rowsText(results[0]!)}`
      : `expected one of ${results.length} results, none matches (the first: ${
        rowsText(results[0]!)
      })`;
    return [this.result(got.stage.name, FAIL, `got ${rowsText(got.rows)}; ${wanted}${note}`)];
  }
}
