/**
 * Writing a finished run's reports (`--json`, `--md`, `--junit`, `--html`, GitHub),
 * shared by `run`, `merge` and `report`: every reporter takes the run file's
 * data, so shards and merged runs get the same reports as one run.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { UsageError } from "../errors.ts";
import { checkOutputs, humanStream, writeOutput } from "./output.ts";
import type { RunFile } from "../eval/run_file.ts";
import type { ReportOptionValues } from "../eval/run_options.ts";
import { runFileJson } from "../eval/run_file_json.ts";
import { markdownReport } from "../eval/report_md.ts";
import { junitReport } from "../eval/report_junit.ts";
import { htmlReport } from "../eval/report_html.ts";
import { GITHUB_SUMMARY_LIMIT, githubAnnotations, githubSummary } from "../eval/report_github.ts";

/** The report options, as cli.ts parses them (rows of lib/eval/run_options.ts). */
export type ReportOptions = ReportOptionValues;

/**
 * The report files of the options, by flag (`-` is stdout).
 *
 * @param options the report options
 * @returns flag -> path, for checkOutputs() and humanStream()
 */
export function reportOutputs(options: ReportOptions): Record<string, string | undefined> {
  return {
    "--json": options.json,
    "--md": options.md,
    "--junit": options.junit,
    "--html": options.html,
  };
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
  return options.github === true || process.env["GITHUB_ACTIONS"] === "true";
}

/** The cases file as GitHub names it: relative to the workspace, with / separators. */
function workspaceRelative(file: string): string {
  const workspace = process.env["GITHUB_WORKSPACE"];
  const absolute = path.resolve(file);
  const base = workspace !== undefined && workspace !== "" ? workspace : process.cwd();
  const relative = path.relative(base, absolute);
  const inside = relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
  return (inside ? relative : file).split(path.sep).join("/");
}

/**
 * GitHub output of a run: annotations on stdout, and the Markdown summary
 * appended to $GITHUB_STEP_SUMMARY within what is left of its 1 MiB.
 *
 * @param run the run file
 * @param options the report options (where stdout goes)
 */
export function writeGithub(run: RunFile, options: ReportOptions = {}): void {
  const file = run.cases_file === undefined ? undefined : workspaceRelative(run.cases_file);
  // Beside a report on stdout (-), annotations go to stderr, which GitHub reads too.
  const out = humanStream(Object.values(reportOutputs(options)));
  for (const line of githubAnnotations(run, { file })) out.write(`${line}\n`);
  const summary = process.env["GITHUB_STEP_SUMMARY"];
  if (summary === undefined || summary === "") {
    process.stderr.write("GITHUB_STEP_SUMMARY is not set; no job summary written\n");
    return;
  }
  const used = fs.statSync(summary, { throwIfNoEntry: false })?.size ?? 0;
  const room = GITHUB_SUMMARY_LIMIT - used - 4096;
  if (room < 1024) {
    process.stderr.write(`${summary}: the job summary is nearly full (1 MiB); no summary added\n`);
    return;
  }
  try {
    fs.appendFileSync(summary, githubSummary(run, room));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`GITHUB_STEP_SUMMARY ${summary}: cannot write the file (${reason})`, {
      cause: error,
    });
  }
}

/**
 * Writes every report the options ask for.
 *
 * @param run the run file
 * @param options the report options
 */
export function writeReports(run: RunFile, options: ReportOptions): void {
  if (options.json !== undefined) writeOutput("--json", options.json, runFileJson(run, 2));
  if (options.md !== undefined) writeOutput("--md", options.md, markdownReport(run));
  if (options.junit !== undefined) writeOutput("--junit", options.junit, junitReport(run));
  if (options.html !== undefined) writeOutput("--html", options.html, htmlReport(run));
  if (githubWanted(options)) writeGithub(run, options);
}
