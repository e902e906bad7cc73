/**
 * The script a command names that is not there. `python3 agent.py` with no
 * agent.py starts Python fine, and Python then fails every case with "can't
 * open file": the harness looks for the script once, before any worker
 * starts, and says so in one line.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** Source files an interpreter is given to run. */
const SCRIPT = /\.(py|js|mjs|cjs|ts|mts|cts|tsx|rb|pl|php|sh|bash|lua|r|jl|jar)$/i;

/**
 * The first argument that names a script file (by its extension) which does
 * not exist, relative to `cwd`; arguments that are options (`-m`), hold
 * spaces (`sh -c '...'`) or carry no such extension are not looked at.
 *
 * @param argv the command, split into words
 * @param cwd the folder the command runs in
 * @returns the missing script as written, or undefined when there is none
 * @example
 * ```ts
 * import { missingScript } from "./missing_script.ts";
 * missingScript(["python3", "no-such-agent.py"], "."); // "no-such-agent.py"
 * missingScript(["python3", "-m", "agent"], "."); // undefined
 * ```
 */
export function missingScript(argv: readonly string[], cwd: string): string | undefined {
  const script = argv.slice(1).find((a) => !a.startsWith("-") && !/\s/.test(a) && SCRIPT.test(a));
  if (script === undefined) return undefined;
  return fs.existsSync(path.resolve(cwd, script)) ? undefined : script;
}
