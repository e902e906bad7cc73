/**
 * `dbagenteval validate CASES`: reads a cases file and reports its first
 * mistake with file and line, without running any agent.
 *
 * @module
 */
import process from "node:process";
import { CasesFileError } from "../errors.ts";
import { loadCases } from "../eval/cases.ts";

/**
 * Checks a cases file.
 *
 * @param file the cases file (.yaml, .yml, .json or .jsonl)
 * @returns the exit code: 0 when every case is valid, 2 otherwise
 */
export async function validateCommand(file: string): Promise<number> {
  try {
    const cases = await loadCases(file);
    process.stdout.write(`${file}: ${cases.length} case(s) OK\n`);
    return 0;
  } catch (error) {
    // The guide prints a mistake in a cases file as `file:line: message`,
    // the way compilers do, so that editors can jump to it.
    if (!(error instanceof CasesFileError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
}
