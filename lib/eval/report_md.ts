/**
 * The short Markdown report of a run (`run --md`), to share in a pull
 * request or a chat.
 *
 * @module
 */
import { PASS, SKIP } from "./check.ts";
import { caseProblems, type SuiteResult } from "./suite.ts";
import { type RunFile, type RunFileScore, toRunFile } from "./run_file.ts";
import { jsonText } from "./json_text.ts";
import { passAtK, passHatK } from "./pass_at_k.ts";
import type { ReportWriter } from "./report.ts";

function cell(text: string): string {
  return text.replaceAll("\\", "\\\\").replaceAll("|", "\\|").replaceAll("\n", " ");
}

/**
 * A short Markdown report: the totals, a table of the cases that did not
 * pass (verdict, case, first failing stage, why), and the failures per stage.
 *
 * @param result what runSuite returned, or a run file
 * @returns the Markdown, without a final newline
 * @example
 * ```ts
 * import { markdownReport } from "./report_md.ts";
 * import { runSuite } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const result = await runSuite([defineCase({ question: "Q" })], () => "an answer");
 * markdownReport(result).split("\n")[0]; // "# dbagenteval report"
 * ```
 */
export function markdownReport(result: SuiteResult | RunFile): string {
  const run = "format" in result ? result : toRunFile(result);
  const t = run.totals;
  const pct = t.total === 0 ? 0 : Math.round((100 * t.passed) / t.total);
  const skipped = t.skipped > 0 ? `, ${t.skipped} skipped` : "";
  const lines = [
    "# dbagenteval report",
    "",
    `**${t.passed} of ${t.total} passed (${pct}%), ${t.failed} failed, ${t.errors} error${
      t.errors === 1 ? "" : "s"
    }${skipped}**`,
  ];
  if (run.judge_calls > 0) lines.push("", `Judge calls: ${run.judge_calls}`);
  const notPassing = run.cases.filter((c) => c.verdict !== PASS && c.verdict !== SKIP);
  if (notPassing.length > 0) {
    lines.push("", "## Cases that did not pass", "");
    lines.push("| Verdict | Case | First failing stage | Why |", "| --- | --- | --- | --- |");
    for (const c of notPassing) {
      const why = caseProblems({
        verdict: c.verdict,
        error: c.error ?? undefined,
        failedStage: c.failed_stage ?? undefined,
        checks: c.checks,
      }).join("; ");
      lines.push(`| ${c.verdict} | ${cell(c.id)} | ${cell(c.failed_stage ?? "")} | ${cell(why)} |`);
    }
  }
  const found = run.cases.filter((c) => c.counterexample !== undefined);
  if (found.length > 0) {
    lines.push("", "## Counterexamples", "");
    lines.push(
      "The agent's SQL gave the reference's rows, but not on these databases (each script builds one from nothing):",
    );
    for (const c of found) {
      const ce = c.counterexample!;
      lines.push("", `### ${c.id}`, "", "```sql", ce.database_sql.trimEnd(), "```", "");
      lines.push(`- reference rows: \`${jsonText(ce.reference_rows)}\``);
      lines.push(`- agent's rows: \`${jsonText(ce.candidate_rows)}\``);
    }
  }
  const stages = Object.entries(run.failures_by_stage);
  if (stages.length > 0) {
    lines.push("", "## First failing stage", "", "| Stage | Cases |", "| --- | ---: |");
    for (const [stage, n] of stages) lines.push(`| ${cell(stage)} | ${n} |`);
  }
  if (run.repeat !== undefined) lines.push(...repeatSection(run, run.repeat));
  for (const score of run.scores ?? []) lines.push(...scoreSection(score));
  return lines.join("\n");
}

/** With --score: the leaderboard's total beside ours, and where they disagree. */
function scoreSection(score: RunFileScore): string[] {
  const lines = [
    "",
    `## Score: ${score.name}${score.variant === undefined ? "" : `, ${score.variant}`}`,
    "",
    `${score.total.toFixed(1)}% over ${score.questions} questions (ours: ${
      score.ours.toFixed(1)
    }%); ${score.disagreements.length} disagree.`,
  ];
  if (score.disagreements.length > 0) {
    lines.push("", `| Case | ${cell(score.name)} | Ours | Why |`, "| --- | --- | --- | --- |");
    for (const d of score.disagreements) {
      lines.push(
        `| ${cell(d.id)} | ${d.official ? "PASS" : "FAIL"} | ${d.ours ? "PASS" : "FAIL"} | ${
          cell(d.reason)
        } |`,
      );
    }
  }
  return lines;
}

/** With --repeat: each case's passes, pass@k and pass^k (k = the repeat count), and flakiness. */
function repeatSection(run: RunFile, n: number): string[] {
  const lines = [
    "",
    `## Repeats (${n} attempts, min pass rate ${run.min_pass_rate ?? 1})`,
    "",
    `| Case | Verdict | Passed | pass@1 | pass@${n} | pass^${n} | Flaky |`,
    "| --- | --- | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const c of run.cases) {
    const tries = c.attempts?.length ?? 0;
    if (tries === 0) continue;
    const p = c.passes ?? 0;
    const k = Math.min(n, tries);
    lines.push(
      `| ${cell(c.id)} | ${c.verdict} | ${p}/${tries} | ${passAtK(tries, p, 1).toFixed(2)} | ${
        passAtK(tries, p, k).toFixed(2)
      } | ${passHatK(tries, p, k).toFixed(2)} | ${c.flaky === true ? "yes" : ""} |`,
    );
  }
  return lines;
}

/**
 * Writes the report of `--md FILE` (lib/eval/reports.ts lists it).
 *
 * @param run the finished run
 * @param to where it goes
 * @example
 * ```ts
 * import { writeMarkdownReport } from "./report_md.ts";
 * typeof writeMarkdownReport; // "function"
 * ```
 */
export const writeMarkdownReport: ReportWriter = (run, to) => to.writeFile(markdownReport(run));
