/**
 * `dbagenteval run CASES --agent file:export ...`: the options cli.ts
 * parsed, handed to the library's run (lib/run/run.ts), which prints the
 * results and the summary and saves them on request; the exit code back.
 *
 * @module
 */
import process from "node:process";
import { setTimeout } from "node:timers";
import { UsageError } from "../errors.ts";
import { progressLine, progressObserver } from "../run/progress.ts";
import { runEval } from "../run/run.ts";
import { aliasOwnPackage } from "../run/load_module.ts";
import type { RunOptions } from "../run/run_setup.ts";

export type { RunOptions };

/**
 * An agent that hung past --timeout (or left a timer or socket open) would
 * keep the process alive after the results are printed, and a CI job would
 * hang. An unref'd timer does not keep the process alive itself: when
 * nothing else is pending the process ends as usual; otherwise it ends one
 * second after the run, with the run's exit code.
 *
 * @param code the exit code
 */
function exitSoonAfter(code: number): void {
  setTimeout(() => process.exit(code), 1000).unref();
}

/** A word as a POSIX shell reads it back. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * The command that finishes this run from its run file: the same
 * arguments, and `--resume FILE` unless they have it.
 *
 * @param file the run file
 * @returns the command line
 */
function resumeCommand(file: string): string {
  const args = process.argv.slice(2);
  const rest = args.includes("--resume") ? args : [...args, "--resume", file];
  return ["dbagenteval", ...rest].map(shellWord).join(" ");
}

/**
 * Runs a cases file against an agent.
 *
 * @param file the cases file
 * @param options the parsed command-line options
 * @returns the exit code: 0 when every case passed, 1 otherwise
 */
export async function runCommand(file: string | undefined, options: RunOptions): Promise<number> {
  if (file === undefined) {
    throw new UsageError(
      "give a cases file: dbagenteval run cases.yaml, or cases: in dbagenteval.yaml",
    );
  }
  // A module the run loads (--execute, --rules, --judge) that imports the
  // package gets this copy of it (lib/run/load_module.ts).
  aliasOwnPackage(() => import("../../mod.ts"));
  const { exitCode } = await runEval(file, options, {
    observers: [progressObserver(progressLine())],
    resumeCommand,
  });
  exitSoonAfter(exitCode);
  return exitCode;
}
