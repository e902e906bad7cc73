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
 * Readies one output file before any work: creates its folder (and the
 * folders above it) when missing, and refuses a path that is a folder or
 * cannot be written. A long run must not be lost to an output path.
 *
 * @param file the path (not `-`)
 * @param example a file name to suggest when `file` is a folder, e.g. `run.json`
 * @throws {Error} saying why the file cannot be written (the caller names the option or key)
 */
export function prepareOutputFile(file: string, example = "report.txt"): void {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(file, { throwIfNoEntry: false });
  } catch (error) {
    // ENOTDIR: a file stands where a folder of the path should be.
    throw new Error(`cannot create its folder (${path.dirname(file)} is not a folder)`, {
      cause: error,
    });
  }
  if (stat?.isDirectory()) {
    throw new Error(`it is a folder; give a file name, e.g. ${path.join(file, example)}`);
  }
  const folder = path.dirname(path.resolve(file));
  try {
    fs.mkdirSync(folder, { recursive: true });
  } catch (error) {
    const reason = (error as { code?: string }).code === "EEXIST" ||
        (error as { code?: string }).code === "ENOTDIR"
      ? "a file is in the way"
      : error instanceof Error
      ? error.message
      : String(error);
    throw new Error(`cannot create the folder ${folder} (${reason})`, { cause: error });
  }
  try {
    fs.accessSync(stat === undefined ? folder : file, fs.constants.W_OK);
  } catch (error) {
    throw new Error("cannot write the file (permission denied)", { cause: error });
  }
}

/**
 * Refuses, before any work, outputs that cannot be written (two of them on
 * stdout, a folder, no permission), and creates the folders they go in.
 *
 * @param outputs option name -> path (undefined when not given)
 * @throws {UsageError} naming the option and the path
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
    const name = option.replace(/^--/, "");
    try {
      prepareOutputFile(file, name === "json" ? "run.json" : `report.${name}`);
    } catch (error) {
      throw new UsageError(`${option} ${file}: ${(error as Error).message}`, { cause: error });
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
