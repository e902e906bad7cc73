/**
 * Checks the config file's file values as soon as the file is read, so that
 * a mistake is reported at its key and line (`dbagenteval.yaml:7: json:
 * ...`) rather than as a flag the user never typed: an input file that is
 * not there, an output that cannot be written (whose missing folders are
 * created here, as for the flags).
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { prepareOutputFile } from "./_output.ts";
import { moduleCandidates, parseModuleRef } from "./_load_module.ts";
import { DATABASE_KINDS } from "../databases/registry.ts";
import type { ConfigValueType } from "./config.ts";

/** Path keys that name a folder the run creates, not a file that must exist. */
const CREATED_FOLDERS: ReadonlySet<string> = new Set(["cache"]);

function missing(value: string, resolved: string, cwd: string): Error {
  const where = path.resolve(cwd, resolved) === path.resolve(cwd, value)
    ? ""
    : ` (looked for ${resolved}: paths are relative to the config file's folder)`;
  return new Error(`${value}: no such file${where}; check the path`);
}

function exists(file: string, cwd: string): boolean {
  return fs.existsSync(path.resolve(cwd, file));
}

/**
 * Checks one converted config value that names a file.
 *
 * @param key the config key, e.g. `json`
 * @param type its value type
 * @param written the value as the file has it
 * @param value the value after conversion (paths relative to `cwd`)
 * @param cwd the current folder
 * @throws {Error} saying what is wrong with the file (the caller adds the key, file and line)
 */
export function checkConfigFile(
  key: string,
  type: ConfigValueType,
  written: string,
  value: string,
  cwd: string,
): void {
  switch (type) {
    case "output":
      if (value !== "-") {
        try {
          prepareOutputFile(
            path.resolve(cwd, value),
            key === "json" ? "run.json" : `report.${key}`,
          );
        } catch (error) {
          throw new Error(`${written}: ${(error as Error).message}`, { cause: error });
        }
      }
      return;
    case "path":
      if (!CREATED_FOLDERS.has(key) && !exists(value, cwd)) throw missing(written, value, cwd);
      return;
    case "module": {
      const { module } = parseModuleRef(key, value);
      if (!moduleCandidates(module, cwd).some((f) => fs.existsSync(f))) {
        throw missing(parseModuleRef(key, written).module, module, cwd);
      }
      return;
    }
    case "database": {
      const kind = DATABASE_KINDS.find((k) => k.matches(value));
      const file = kind?.name === "sqlite"
        ? value
        : kind?.name === "pglite"
        ? value.slice("pglite:".length)
        : undefined;
      if (file !== undefined && !exists(file, cwd)) {
        throw missing(written.replace(/^pglite:/, ""), file, cwd);
      }
      return;
    }
  }
}
