/**
 * GitHub Actions output: `::error` annotations at each failing case's line
 * in the cases file, and a Markdown job summary for `$GITHUB_STEP_SUMMARY`
 * kept under GitHub's 1 MiB limit.
 *
 * @module
 */
import { PASS, SKIP } from "./check.ts";
import { caseProblems } from "./suite.ts";
import type { RunFile } from "./run_file.ts";
import { markdownReport } from "./report_md.ts";
import type { ReportWriter } from "./report.ts";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { UsageError } from "../errors.ts";

/**
 * GitHub shows at most this many annotations of one type (error) per step;
 * the rest are dropped, so the reporter says how many more there were.
 *
 * @example
 * ```ts
 * import { GITHUB_MAX_ANNOTATIONS } from "../../mod.ts";
 * GITHUB_MAX_ANNOTATIONS; // 10
 * ```
 */
export const GITHUB_MAX_ANNOTATIONS = 10;

/**
 * GitHub's limit on one step's summary, in bytes.
 *
 * @example
 * ```ts
 * import { GITHUB_SUMMARY_LIMIT } from "../../mod.ts";
 * GITHUB_SUMMARY_LIMIT; // 1048576
 * ```
 */
export const GITHUB_SUMMARY_LIMIT = 1024 * 1024;

/** A workflow command's message: %, CR and LF are escaped. */
function escapeData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** A workflow command's property: also : and , (they separate properties). */
function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/**
 * Options of {@link githubAnnotations}.
 *
 * @example
 * ```ts
 * import type { GithubAnnotationOptions } from "../../mod.ts";
 * const options: GithubAnnotationOptions = { file: "evals/cases.yaml", max: 5 };
 * options.max; // 5
 * ```
 */
export interface GithubAnnotationOptions {
  /** The cases file as GitHub should name it: relative to the repository root. */
  readonly file?: string | undefined;
  /** Annotations to emit before the "N more" line (default {@link GITHUB_MAX_ANNOTATIONS}). */
  readonly max?: number | undefined;
}

/**
 * The workflow commands that annotate each case that did not pass: an
 * `::error file=...,line=...,title=...::message` at the case's line in the
 * cases file, up to `max`, then one `::notice` saying how many more cases
 * did not pass.
 *
 * @param run a run file
 * @param options the file name to point at, the most annotations
 * @returns the lines to print (stdout), without newlines
 * @example
 * ```ts
 * import { defineCase, githubAnnotations, runSuite, toRunFile } from "../../mod.ts";
 * const cases = [defineCase({ id: "two", question: "1 + 1?", expect: { rows: [{ n: 2 }] } })];
 * const run = toRunFile(await runSuite(cases, () => ({ rows: [{ n: 3 }] })));
 * githubAnnotations(run, { file: "cases.yaml" })[0]?.startsWith("::error file=cases.yaml,"); // true
 * ```
 */
export function githubAnnotations(run: RunFile, options: GithubAnnotationOptions = {}): string[] {
  const max = options.max ?? GITHUB_MAX_ANNOTATIONS;
  const file = options.file ?? run.cases_file;
  const notPassing = run.cases.filter((c) => c.verdict !== PASS && c.verdict !== SKIP);
  const lines = notPassing.slice(0, max).map((c) => {
    const props = [
      ...(file !== undefined ? [`file=${escapeProperty(file)}`] : []),
      ...(file !== undefined && c.line !== undefined ? [`line=${c.line}`] : []),
      `title=${escapeProperty(`${c.verdict} ${c.id}`)}`,
    ];
    const why = caseProblems({
      verdict: c.verdict,
      error: c.error ?? undefined,
      failedStage: c.failed_stage ?? undefined,
      checks: c.checks,
    });
    const rate = c.attempts !== undefined
      ? [`passed ${c.passes ?? 0} of ${c.attempts.length} attempts`]
      : [];
    return `::error ${props.join(",")}::${escapeData([...rate, ...why].join("\n") || c.verdict)}`;
  });
  const more = notPassing.length - lines.length;
  if (more > 0) {
    lines.push(
      `::notice title=dbagenteval::${more} more case(s) did not pass; GitHub shows ${max} annotations, the step summary lists them all`,
    );
  }
  return lines;
}

/**
 * The Markdown job summary of a run: the Markdown report (`--md`), cut at a
 * line so that it fits in `maxBytes` (GitHub drops a step summary past
 * 1 MiB), with a last line saying what was left out.
 *
 * @param run a run file
 * @param maxBytes the most UTF-8 bytes (default {@link GITHUB_SUMMARY_LIMIT} less a margin)
 * @returns the Markdown, ending with a newline
 * @example
 * ```ts
 * import { defineCase, githubSummary, runSuite, toRunFile } from "../../mod.ts";
 * const run = toRunFile(await runSuite([defineCase({ question: "Hi?" })], () => "Hello"));
 * githubSummary(run).startsWith("# dbagenteval report"); // true
 * ```
 */
export function githubSummary(run: RunFile, maxBytes = GITHUB_SUMMARY_LIMIT - 4096): string {
  const text = `${markdownReport(run)}\n`;
  const encoder = new TextEncoder();
  if (encoder.encode(text).length <= maxBytes) return text;
  const lines = text.split("\n");
  const note = (n: number) =>
    `\n_${n} more line(s) left out to stay under GitHub's 1 MiB summary limit; the run file (--json) has every case._\n`;
  let size = encoder.encode(note(lines.length)).length;
  const kept: string[] = [];
  for (const line of lines) {
    const bytes = encoder.encode(line).length + 1;
    if (size + bytes > maxBytes) break;
    size += bytes;
    kept.push(line);
  }
  return `${kept.join("\n")}\n${note(lines.length - kept.length)}`;
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
 * Writes GitHub's output of a run (`--github`, or on by itself when
 * `GITHUB_ACTIONS=true`): annotations on a person's stream, and the Markdown
 * summary appended to $GITHUB_STEP_SUMMARY within what is left of its 1 MiB.
 *
 * @param run the finished run
 * @param to where a person's lines go
 * @example
 * ```ts
 * import { writeGithubReport } from "./report_github.ts";
 * typeof writeGithubReport; // "function"
 * ```
 */
export const writeGithubReport: ReportWriter = (run, to) => {
  const file = run.cases_file === undefined ? undefined : workspaceRelative(run.cases_file);
  for (const line of githubAnnotations(run, { file })) to.human.write(`${line}\n`);
  const summary = process.env["GITHUB_STEP_SUMMARY"];
  if (summary === undefined || summary === "") {
    process.stderr.write("GITHUB_STEP_SUMMARY is not set; no job summary written\n");
    return;
  }
  const used = fs.statSync(summary, { throwIfNoEntry: false })?.size ?? 0;
  const room = GITHUB_SUMMARY_LIMIT - used - 4096;
  if (room < 1024) {
    process.stderr.write(
      `${summary}: the job summary is nearly full (1 MiB); no summary added\n`,
    );
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
};
