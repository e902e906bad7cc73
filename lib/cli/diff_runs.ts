/**
 * Placeholder until its issue lands: the command exists in cli.ts so that
 * the argument parser is in one place.
 *
 * @module
 */
import { UsageError } from "../errors.ts";

/** Not built yet. */
export function diffRunsCommand(..._args: unknown[]): Promise<number> {
  return Promise.reject(new UsageError("this command is not built yet"));
}
