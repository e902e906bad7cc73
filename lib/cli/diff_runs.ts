/**
 * `dbagenteval diff BEFORE AFTER`: compares two saved runs and prints the
 * regressions, fixes, added and removed cases as Markdown (or JSON).
 *
 * @module
 */
import process from "node:process";
import { readRunFile } from "../eval/run_file.ts";
import { diffRuns } from "../eval/run_diff.ts";
import { checkOutputs, writeOutput } from "../run/output.ts";

/** The options of `diff`. */
export interface DiffRunsOptions {
  /** Write the comparison as JSON to this file; `-` prints it instead of the Markdown. */
  readonly json?: string;
  /** Regressions tolerated before the exit code is 1 (default 0). */
  readonly maxRegressions?: number;
}

/**
 * Compares two run files written by `run --json`.
 *
 * @param before the earlier run file
 * @param after the later run file
 * @param options --json and --max-regressions
 * @returns the exit code: 1 with more regressions than allowed, else 0
 */
export async function diffRunsCommand(
  before: string,
  after: string,
  options: DiffRunsOptions = {},
): Promise<number> {
  checkOutputs({ "--json": options.json });
  const diff = diffRuns(await readRunFile(before), await readRunFile(after));
  const json = JSON.stringify(diff.toJSON(), null, 2);
  if (options.json === "-") {
    process.stdout.write(`${json}\n`);
  } else {
    const text = diff.markdown();
    process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
    if (options.json !== undefined) writeOutput("--json", options.json, json);
  }
  return diff.regressions.length > (options.maxRegressions ?? 0) ? 1 : 0;
}
