/**
 * `dbagenteval merge A.json B.json ...`: merges the run files of a sharded
 * run into one and writes its reports; `dbagenteval report RUN.json`: writes
 * the reports of a saved run.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { readRunFile } from "../eval/run_file.ts";
import { mergeRuns } from "../eval/merge_runs.ts";
import { suiteSummary } from "../eval/suite.ts";
import { PASS, SKIP } from "../eval/check.ts";
import {
  checkReportPaths,
  githubWanted,
  type ReportOptions,
  reportOutputs,
  writeReports,
} from "../run/reports.ts";
import { humanStream } from "../run/output.ts";
import type { RunFile } from "../eval/run_file.ts";

function exitCodeOf(run: RunFile): number {
  return run.totals.failed === 0 && run.totals.errors === 0 ? 0 : 1;
}

function wantsSomething(options: ReportOptions, command: string): void {
  const any = options.json !== undefined || options.md !== undefined ||
    options.junit !== undefined || options.html !== undefined || githubWanted(options);
  if (!any) {
    throw new UsageError(
      `${command}: say what to write, e.g. --json all.json, --junit junit.xml or --md report.md`,
    );
  }
}

/**
 * Merges shard run files and writes the merged run's reports; prints its totals.
 *
 * @param files the shards' run files
 * @param options the reports to write
 * @returns 0 when every case passed, 1 otherwise (as the unsharded run would)
 */
export async function mergeCommand(
  files: readonly string[],
  options: ReportOptions,
): Promise<number> {
  wantsSomething(options, "merge");
  checkReportPaths(options);
  const runs = [];
  for (const name of files) runs.push({ name, run: await readRunFile(name) });
  const run = mergeRuns(runs);
  const human = humanStream(Object.values(reportOutputs(options)));
  // The cases that did not pass, with why, as run prints them: the shards'
  // logs are in other jobs, and the totals alone do not say what to look at.
  const notPassed = run.cases.filter((c) => c.verdict !== PASS && c.verdict !== SKIP).map((c) => ({
    id: c.id,
    verdict: c.verdict,
    error: c.error ?? undefined,
    failedStage: c.failed_stage ?? undefined,
    checks: c.checks,
  }));
  human.write(`${suiteSummary(notPassed, run.totals, run.failures_by_stage).trimStart()}\n`);
  await writeReports(run, options);
  return exitCodeOf(run);
}

/**
 * Writes the reports of a saved run file.
 *
 * @param file the run file
 * @param options the reports to write
 * @returns 0 when every case of the run passed, 1 otherwise
 */
export async function reportCommand(file: string, options: ReportOptions): Promise<number> {
  wantsSomething(options, "report");
  checkReportPaths(options);
  const run = await readRunFile(file);
  await writeReports(run, options);
  return exitCodeOf(run);
}
