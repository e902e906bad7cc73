/**
 * `dbagenteval diff BEFORE AFTER`: compares two saved runs and prints the
 * regressions, fixes, added and removed cases as Markdown.
 *
 * @module
 */
import process from "node:process";
import { readRunFile } from "../eval/run_file.ts";
import { diffRuns } from "../eval/run_diff.ts";

/**
 * Compares two run files written by `run --json`.
 *
 * @param before the earlier run file
 * @param after the later run file
 * @returns the exit code: 0 without a regression, 1 with one
 */
export async function diffRunsCommand(before: string, after: string): Promise<number> {
  const diff = diffRuns(await readRunFile(before), await readRunFile(after));
  const text = diff.markdown();
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  return diff.regressions.length > 0 ? 1 : 0;
}
