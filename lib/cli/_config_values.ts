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
import { prepareOutputFile } from "../run/output.ts";
import { moduleCandidates, parseModuleRef } from "../run/load_module.ts";
import { DATABASE_KINDS } from "../databases/registry.ts";
import { missingScript } from "../agents/missing_script.ts";
import { splitCommand } from "../agents/split_command.ts";
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

/** One config value to check, and where it is read from. */
export interface ConfigFileValue {
  /** The config key, e.g. `json`. */
  readonly key: string;
  readonly type: ConfigValueType;
  /** The value as the file has it. */
  readonly written: string;
  /** The value after conversion (paths relative to `cwd`). */
  readonly value: string;
  /** The current folder. */
  readonly cwd: string;
  /** The config file's folder. */
  readonly dir: string;
}

/**
 * Checks one converted config value that names a file, or (`agent_cmd`) a
 * command whose script must be in the config file's folder, where it runs.
 *
 * @param v the value, its key and type, and the folders
 * @throws {Error} saying what is wrong with the file (the caller adds the key, file and line)
 */
export function checkConfigFile(v: ConfigFileValue): void {
  const { key, type, written, value, cwd } = v;
  if (key === "agent_cmd") {
    const script = missingScript(splitCommand(value), path.resolve(cwd, v.dir));
    if (script !== undefined) {
      throw new Error(
        `${script}: no such file in ${
          path.resolve(cwd, v.dir)
        }; check the path (the command runs in the config file's folder)`,
      );
    }
    return;
  }
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
