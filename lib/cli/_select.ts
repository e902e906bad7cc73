/**
 * Applies a selector to a diff for `db diff --select` and `db match`.
 *
 * @module
 */
import process from "node:process";
import type { DatabaseDiff } from "../diff/types.ts";
import { explainMatch } from "../../selector/explain.ts";
import { readSelector } from "../../selector/read.ts";

/**
 * Prints whether `selector` matches `diff`, and why, and returns the exit
 * code: 0 when it matches, 1 when it does not.
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
  const explanation = explainMatch(diff, await readSelector(selector));
  out.write(`${explanation.text}\n`);
  return explanation.matched ? 0 : 1;
}
