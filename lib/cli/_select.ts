/**
 * Applies a selector to a diff for `db diff --select` and `db match`.
 *
 * @module
 */
import process from "node:process";
import type { DatabaseDiff } from "../diff/types.ts";
import { explainMatch, type MatchExplanation } from "../../selector/explain.ts";
import { readSelector } from "../../selector/read.ts";

/**
 * Prints an explanation and returns its exit code: 0 on a match, 1 on no
 * match, 2 when the rows the diff kept cannot tell (neither can be proven,
 * so a script or CI gate must not read it as either).
 *
 * @param explanation the selector's answer
 * @param out where to print
 * @returns the exit code
 */
export function printExplanation(
  explanation: MatchExplanation,
  out: NodeJS.WritableStream = process.stdout,
): number {
  out.write(`${explanation.text}\n`);
  if (explanation.matched === null) {
    out.write(
      "  ask while diffing (db diff BEFORE AFTER --select SELECTOR sees every row), or save the diff with a larger --max-rows\n",
    );
    return 2;
  }
  return explanation.matched ? 0 : 1;
}

/**
 * Prints whether `selector` matches `diff`, and why, and returns the exit
 * code: 0 when it matches, 1 when it does not, 2 when the rows the diff kept
 * cannot tell.
 *
 * @param diff the diff
 * @param selector a selector file or inline JSON/YAML
 * @param out where to print (stderr when the diff's JSON goes to stdout)
 * @returns the exit code
 * @throws {SelectorError} when the selector cannot be read or has a mistake
 */
export async function printSelection(
  diff: DatabaseDiff,
  selector: string,
  out: NodeJS.WritableStream = process.stdout,
): Promise<number> {
  return printExplanation(explainMatch(diff, await readSelector(selector)), out);
}
