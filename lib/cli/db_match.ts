/**
 * `dbagenteval db match DIFF.json SELECTOR`: tests a saved diff document
 * (written by `db diff --json`) against a selector.
 *
 * @module
 */
import { readTextFile } from "../read_text_file.ts";
import { diffFromJson } from "../diff/json.ts";
import type { DatabaseDiff } from "../diff/types.ts";
import { UsageError } from "../errors.ts";
import { readSelector } from "../../selector/read.ts";
import { printSelection } from "./_select.ts";

/**
 * Prints whether the saved diff matches the selector, and why.
 *
 * @param diffPath the diff document's path
 * @param selector a selector file or inline JSON/YAML
 * @returns 0 when it matches, 1 when it does not
 * @throws {UsageError} when the diff file cannot be read or is not a diff document
 * @throws {SelectorError} when the selector has a mistake
 */
export async function dbMatchCommand(diffPath: string, selector: string): Promise<number> {
  // A bad selector is reported before the diff is read, whatever the diff holds.
  await readSelector(selector);
  let text: string;
  try {
    text = await readTextFile(diffPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT"
      ? "no such file"
      : code === "EISDIR"
      ? "it is a folder"
      : code === "ENOTREG"
      ? (error as Error).message
      : (error as Error).message;
    throw new UsageError(
      `Cannot read the diff document "${diffPath}": ${reason}; write one with "dbagenteval db diff BEFORE AFTER --json FILE"`,
      { cause: error },
    );
  }
  let diff: DatabaseDiff;
  try {
    diff = diffFromJson(text);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // diffFromJson knows the JSON path, not the file: name it here.
    const reason = error.message.charAt(0).toLowerCase() + error.message.slice(1);
    throw new UsageError(`Cannot use "${diffPath}": ${reason}`, { cause: error });
  }
  return await printSelection(diff, selector);
}
