/**
 * Placeholder until the selector issue lands: applies `--select` to a diff.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import type { DatabaseDiff } from "../diff/types.ts";

/**
 * Prints whether `selector` matches `diff` and returns the exit code (0 match, 1 no match).
 *
 * @param _diff the diff
 * @param _selector a selector file or inline JSON/YAML
 * @returns the exit code
 */
export function printSelection(_diff: DatabaseDiff, _selector: string): Promise<number> {
  return Promise.reject(new UsageError("--select is not built yet"));
}
