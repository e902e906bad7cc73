/**
 * Output files of the commands, where `-` means stdout everywhere. When a
 * machine-readable output goes to stdout, the human text goes to stderr, so
 * that `run --json - | jq` reads JSON only.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { UsageError } from "../errors.ts";

/** Whether an output path means stdout. */
export function isStdout(file: string | undefined): boolean {
  return file === "-";
}

/**
 * Refuses, before any work, outputs that cannot be written: two of them on
 * stdout, a folder, a missing folder, no permission. A long run must not be
 * lost to a typo in an output path.
 *
 * @param outputs option name -> path (undefined when not given)
 */
export function checkOutputs(outputs: Readonly<Record<string, string | undefined>>): void {
  const toStdout = Object.entries(outputs).filter(([, file]) => isStdout(file)).map(([o]) => o);
  if (toStdout.length > 1) {
    throw new UsageError(
      `${toStdout.join(" and ")} both write to stdout (-); send all but one to a file`,
    );
  }
  for (const [option, file] of Object.entries(outputs)) {
    if (file === undefined || isStdout(file)) continue;
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat?.isDirectory()) {
      const ext = option === "--md" ? "report.md" : `report.${option.replace(/^--/, "")}`;
      throw new UsageError(
        `${option} ${file}: it is a folder; give a file name, e.g. ${
          path.join(file, option === "--json" ? "run.json" : ext)
        }`,
      );
    }
    const folder = path.dirname(path.resolve(file));
    if (fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory() !== true) {
      throw new UsageError(
        `${option} ${file}: the folder ${folder} does not exist; create it first`,
      );
    }
    try {
      fs.accessSync(stat === undefined ? folder : file, fs.constants.W_OK);
    } catch (error) {
      throw new UsageError(`${option} ${file}: cannot write the file (permission denied)`, {
        cause: error,
      });
    }
  }
}

/**
 * Writes an output: to stdout for `-`, else to the file (ending with a newline).
 *
 * @param option the option's name, for the message
 * @param file the path, or `-`
 * @param text what to write
 * @throws {UsageError} when the file cannot be written
 */
export function writeOutput(option: string, file: string, text: string): void {
  const body = text.endsWith("\n") ? text : `${text}\n`;
  if (isStdout(file)) {
    process.stdout.write(body);
    return;
  }
  try {
    fs.writeFileSync(file, body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${option} ${file}: cannot write the file (${reason})`, { cause: error });
  }
}

/**
 * Where the human text goes: stdout, or stderr when an output takes stdout.
 *
 * @param outputs the output paths given
 * @returns the stream to print text for a person on
 */
export function humanStream(
  outputs: readonly (string | undefined)[],
): NodeJS.WritableStream {
  return outputs.some(isStdout) ? process.stderr : process.stdout;
}
