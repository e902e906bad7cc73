/**
 * Helpers the row checks share: the agent's rows in a trace, and the
 * "N row(s), first: [...]" text of the documented failure details.
 *
 * @module
 */
import { jsonText } from "../json_text.ts";
import { type RowSet, toRowSet } from "../../row_set.ts";
import type { CompareRowsOptions } from "../../compare/rows.ts";
import type { TestCase } from "../case.ts";
import type { Row, Stage, Trace } from "../trace.ts";

/**
 * How a case's rows are compared: its `ordered`, `precision` and
 * `strict_columns`.
 *
 * @param testCase the case
 * @returns the comparison's options
 */
export function rowOptions(testCase: TestCase): CompareRowsOptions {
  return {
    ordered: testCase.ordered,
    precision: testCase.precision,
    ...(testCase.strict_columns === true ? { strictColumns: true } : {}),
  };
}

/**
 * Why rows failed only for their extra columns, for a case with
 * `strict_columns`: `; 2 columns for the expected 1 (strict_columns)`, or "".
 *
 * @param got the agent's rows
 * @param expected the correct rows
 * @returns the note, or ""
 */
export function extraColumnsNote(got: RowSet, expected: RowSet): string {
  return got.columns.length > expected.columns.length && expected.columns.length > 0
    ? `; ${got.columns.length} columns for the expected ${expected.columns.length}: strict columns allow no extra column`
    : "";
}

/**
 * How many rows, and the first one as JSON.
 *
 * @param rows the rows
 * @returns e.g. `1 row(s), first: [{"total":11900}]`
 */
export function rowsText(rows: readonly object[]): string {
  return `${rows.length} row(s), first: ${jsonText(rows.slice(0, 1))}`;
}

/** What a trace offers to compare with correct rows. */
export type TraceRows =
  | {
    readonly kind: "rows";
    readonly stage: Stage;
    readonly rows: readonly Row[];
    /** The rows with every column, also repeated names, for the comparison. */
    readonly set: RowSet;
  }
  | { readonly kind: "failed"; readonly stage: Stage }
  | { readonly kind: "none" };

/**
 * The agent's rows: those of the last execute stage.
 *
 * @param trace the trace
 * @returns the rows and their stage, or why there are none
 */
export function traceRows(trace: Trace): TraceRows {
  const stage = trace.lastOf("execute");
  if (stage?.rows !== undefined) {
    return { kind: "rows", stage, rows: stage.rows, set: toRowSet(stage.rows, stage.columns) };
  }
  if (stage?.error !== undefined) return { kind: "failed", stage };
  return { kind: "none" };
}

/** The detail when a trace has no rows at all. */
export const NO_ROWS =
  "the trace has no rows; put the rows your SQL returned in the trace (rows in Trace.simple, or an execute stage)";

/** The detail when the SQL failed, so rows cannot be compared. */
export const SQL_FAILED = "the SQL failed, so there are no rows to compare";
