/**
 * The row-text options of a judge check, from its options.
 *
 * @module
 */
import { ROWS_TEXT_DEFAULTS, type RowsTextOptions } from "./_values_text.ts";
import type { JudgeCheckOptions } from "./judge_checks.ts";

/**
 * @param options the check's options
 * @returns how many rows and how much text its prompt shows
 */
export function rowsTextOptions(options: JudgeCheckOptions): RowsTextOptions {
  return {
    maxRows: options.maxRows ?? ROWS_TEXT_DEFAULTS.maxRows,
    maxTextChars: options.maxTextChars ?? ROWS_TEXT_DEFAULTS.maxTextChars,
  };
}
