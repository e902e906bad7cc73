/**
 * Turns an error that escaped a command into one line on stderr and an exit
 * code: 2 for bad input (the command could not run), 2 for a bug as well, with
 * the stack, since the run did not happen either way.
 *
 * @module
 */
import process from "node:process";
import {
  CasesFileError,
  ConfigFileError,
  DiffKeyError,
  PoolJobError,
  SelectorError,
  SqliteOpenError,
  SqliteQueryError,
  UsageError,
} from "../errors.ts";
import { hidePasswords } from "../databases/database_name.ts";

/**
 * Prints `error` for a person and returns the exit code.
 *
 * @param error what a command threw
 * @returns the exit code, always 2
 */
export function reportError(error: unknown): number {
  const known = error instanceof UsageError || error instanceof SqliteOpenError ||
    error instanceof SelectorError || error instanceof CasesFileError ||
    error instanceof SqliteQueryError || error instanceof ConfigFileError ||
    error instanceof PoolJobError || error instanceof DiffKeyError;
  // A URL's password never reaches the terminal, even quoted by a library's error.
  if (known) {
    process.stderr.write(`error: ${hidePasswords(error.message)}\n`);
  } else {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`error: internal error, please report it: ${hidePasswords(text)}\n`);
  }
  return 2;
}
