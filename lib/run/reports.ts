/**
 * Writing a finished run's reports (`--json`, `--md`, `--junit`, `--html`, GitHub),
 * shared by `run`, `merge` and `report`: every reporter takes the run file's
 * data, so shards and merged runs get the same reports as one run.
 *
 * @module
 */
import { checkOutputs, humanStream, writeOutput } from "./output.ts";
import type { RunFile } from "../eval/run_file.ts";
import type { ReportOptionValues } from "../eval/run_options.ts";
import { REPORT_OPTIONS, REPORT_WRITERS, reportWanted } from "../eval/reports.ts";
import type { OptionRow } from "../option_values.ts";

/** The report options, as cli.ts parses them (rows of lib/eval/run_options.ts). */
export type ReportOptions = ReportOptionValues;

/** A report's long flag: `--md` of `--md <file>`. */
function flagOf(row: OptionRow): string {
  return row.flags.split(" ")[0]!;
}

/**
 * The report files of the options, by flag (`-` is stdout).
 *
 * @param options the report options
 * @returns flag -> path, for checkOutputs() and humanStream()
 */
export function reportOutputs(options: ReportOptions): Record<string, string | undefined> {
  const values = options as Readonly<Record<string, unknown>>;
  const rows: readonly OptionRow[] = REPORT_OPTIONS;
  return Object.fromEntries(
    rows.filter((r) => r.kind === "output").map((r) => [
      flagOf(r),
      values[r.key] as string | undefined,
    ]),
  );
}

/**
 * Refuses, before any case runs, report paths that cannot be written (see
 * checkOutputs(): at most one on stdout, no folder, no missing folder).
 *
 * @param options the report options
 */
export function checkReportPaths(options: ReportOptions): void {
  checkOutputs(reportOutputs(options));
}

/**
 * Whether to speak to GitHub Actions: `--github`, or `GITHUB_ACTIONS=true`
 * (which GitHub sets in every workflow step).
 *
 * @param options the report options
 * @returns true to emit annotations and the job summary
 */
export function githubWanted(options: ReportOptions): boolean {
  return reportWanted("github", options.github);
}

/**
 * Writes every report the options ask for, in the order of
 * lib/eval/reports.ts.
 *
 * @param run the run file
 * @param options the report options
 */
export async function writeReports(run: RunFile, options: ReportOptions): Promise<void> {
  const values = options as Readonly<Record<string, unknown>>;
  // Beside a report on stdout (-), a person's lines (GitHub's annotations) go to stderr.
  const human = humanStream(Object.values(reportOutputs(options)));
  for (const row of REPORT_OPTIONS) {
    const value = values[row.key];
    if (!reportWanted(row.key, value)) continue;
    const write = await REPORT_WRITERS[row.key]();
    write(run, {
      value: value as string | boolean,
      human,
      writeFile: (text) => writeOutput(flagOf(row), String(value), text),
    });
  }
}
