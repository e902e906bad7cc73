/**
 * The HTML report (`--html FILE`): one self-contained file (no network, no
 * external script or style) with the totals, a chart of failures by stage,
 * a table of cases with filters, and per case the trace, every check, the
 * SQL, the agent's rows beside the reference rows with differing cells
 * marked, the database diff and the counterexample.
 *
 * The table is HTML (it shows without script); a case's details are built
 * by the page's script from the run's JSON when the case is opened, so a
 * report of thousands of cases opens quickly.
 *
 * @module
 */
import { FAIL, PASS } from "./check.ts";
import { caseProblems } from "./suite.ts";
import type { RunFile, RunFileCase } from "./run_file.ts";
import { PAGE_SCRIPT, PAGE_STYLE } from "./_report_html_page.ts";
import { errorSummary } from "./_error_stage.ts";
import { sqlLiteral } from "../sqlite/sql_text.ts";
import { escapeHtml, wellFormed } from "../html_page.ts";
import type { ReportWriter } from "./report.ts";

const esc = (text: string): string => escapeHtml(text);

/**
 * JSON that is safe inside a <script> element (no `</script>`, no `<!--`),
 * with every string well-formed, and the values of rows as the page shows
 * them: a bigint by its digits, a BLOB as `x'00ff'`, NaN and the
 * infinities by name.
 */
function scriptJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "string") return wellFormed(v);
    if (typeof v === "bigint") return v.toString();
    if (v instanceof Uint8Array) return sqlLiteral(v);
    if (typeof v === "number" && !Number.isFinite(v)) return String(v);
    return v;
  })
    .replaceAll("<", "\\u003c").replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

function chart(run: RunFile): string {
  const stages = Object.entries(run.failures_by_stage);
  const errors = errorSummary(run.cases);
  if (stages.length === 0) {
    const text = errors === undefined
      ? "No case failed or ended in ERROR."
      : `No case failed a check; ${errors}.`;
    return `<p class="muted" id="chart-empty">${esc(text)}</p>`;
  }
  const note = errors === undefined
    ? ""
    : `\n<p class="muted" id="chart-errors">Not in the chart: ${esc(errors)}.</p>`;
  const max = Math.max(...stages.map(([, n]) => n));
  const rowHeight = 26;
  const label = 110;
  const width = 520;
  const bars = stages.map(([stage, n], i) => {
    const w = Math.max(2, Math.round(((width - label - 50) * n) / max));
    const y = i * rowHeight;
    return `<g class="bar" data-stage="${esc(stage)}"><text x="${label - 8}" y="${
      y + 17
    }" text-anchor="end">${esc(stage)}</text><rect x="${label}" y="${y + 4}" width="${w}" height="${
      rowHeight - 8
    }" rx="3"></rect><text x="${label + w + 6}" y="${y + 17}">${n}</text></g>`;
  });
  return `<svg id="chart" role="img" aria-label="Failures by first failing stage" width="${width}" height="${
    stages.length * rowHeight
  }" viewBox="0 0 ${width} ${stages.length * rowHeight}">${bars.join("")}</svg>${note}`;
}

function why(c: RunFileCase): string {
  return caseProblems({
    verdict: c.verdict,
    error: c.error ?? undefined,
    failedStage: c.failed_stage ?? undefined,
    checks: c.checks,
  }).join("; ");
}

function row(c: RunFileCase, i: number): string {
  const rate = c.attempts !== undefined
    ? ` <span class="rate">${c.passes ?? 0}/${c.attempts.length}${
      c.flaky === true ? " flaky" : ""
    }</span>`
    : "";
  const problem = why(c);
  return `<tr class="case v-${c.verdict}" data-i="${i}" data-id="${
    esc(c.id)
  }" data-verdict="${c.verdict}" data-stage="${esc(c.failed_stage ?? "")}" data-tags="${
    esc(c.tags.join("\n"))
  }"${
    i >= FIRST_ROWS ? " hidden" : ""
  } tabindex="0"><td><span class="verdict">${c.verdict}</span>${rate}</td><td class="id">${
    esc(c.id)
  }</td><td>${esc(c.failed_stage ?? "")}</td><td>${
    c.tags.map((t) => `<span class="tag">${esc(t)}</span>`).join(" ")
  }</td><td class="num">${seconds(c.duration_ms)}</td><td class="why">${
    esc(problem.length > 300 ? `${problem.slice(0, 300)}...` : problem)
  }</td></tr>`;
}

/**
 * Rows shown as the page opens; the page's script shows the rest a few
 * hundred at a time right after, so a report of thousands of cases opens at
 * the speed of a short one (laying out the table is what costs).
 */
const FIRST_ROWS = 100;

/** With --score: each leaderboard's total beside ours and the questions where they disagree. */
function scores(run: RunFile): string {
  return (run.scores ?? []).map((s) => {
    const rows = s.disagreements.map((d) =>
      `<tr><td>${esc(d.id)}</td><td class="v-${d.official ? "PASS" : "FAIL"}">${
        d.official ? "PASS" : "FAIL"
      }</td><td class="v-${d.ours ? "PASS" : "FAIL"}">${d.ours ? "PASS" : "FAIL"}</td><td>${
        esc(d.reason)
      }</td></tr>`
    ).join("\n");
    const table = s.disagreements.length === 0 ? "" : `
<table class="scores"><thead><tr><th>Case</th><th>${
      esc(s.name)
    }</th><th>Ours</th><th>Why</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
    return `<section class="score">
<h2>Score: ${esc(s.name)}${s.variant === undefined ? "" : `, ${esc(s.variant)}`}</h2>
<p>${s.total.toFixed(1)}% over ${s.questions} questions (ours: ${
      s.ours.toFixed(1)
    }%); ${s.disagreements.length} disagree.</p>${table}
</section>
`;
  }).join("");
}

function options(values: readonly string[]): string {
  return values.map((v) => `<option value="${esc(v)}">${esc(v)}</option>`).join("");
}

/**
 * The HTML report of a run: a whole page in one string, with its style,
 * script and data inline; it loads nothing from anywhere.
 *
 * @param run a run file (or `toRunFile(result)`)
 * @returns the HTML document
 * @example
 * ```ts
 * import { defineCase, htmlReport, runSuite, toRunFile } from "../../mod.ts";
 * const cases = [defineCase({ id: "two", question: "1 + 1?", expect: { rows: [{ n: 2 }] } })];
 * const html = htmlReport(toRunFile(await runSuite(cases, () => ({ rows: [{ n: 3 }] }))));
 * html.startsWith("<!DOCTYPE html>"); // true
 * ```
 */
export function htmlReport(run: RunFile): string {
  const t = run.totals;
  const tags = [...new Set(run.cases.flatMap((c) => c.tags))].sort();
  const stages = [...new Set(run.cases.flatMap((c) => c.failed_stage ?? []))].sort();
  const pct = t.total === 0 ? 0 : Math.round((100 * t.passed) / t.total);
  const title = `dbagenteval: ${t.passed} of ${t.total} passed`;
  const notPassing = run.cases.filter((c) => c.verdict !== PASS).length;
  const flaky = run.cases.filter((c) => c.flaky === true).length;
  const meta = [
    run.cases_file !== undefined ? `<span>${esc(run.cases_file)}</span>` : "",
    `<span>${esc(run.created_at)}</span>`,
    `<span>${seconds(run.duration_ms)}</span>`,
    `<span>judge calls: ${run.judge_calls}</span>`,
    run.repeat !== undefined
      ? `<span>repeat ${run.repeat}, min pass rate ${run.min_pass_rate ?? 1}</span>`
      : "",
    run.shard !== undefined ? `<span>shard ${run.shard.index}/${run.shard.total}</span>` : "",
    `<span>dbagenteval ${esc(run.tool_version)}</span>`,
  ].filter((s) => s !== "").join("");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header>
<h1>dbagenteval report</h1>
<div class="meta">${meta}</div>
</header>
<section id="totals" class="totals">
<div class="total"><b id="total">${t.total}</b>cases</div>
<div class="total v-PASS"><b id="passed">${t.passed}</b>passed (${pct}%)</div>
<div class="total v-FAIL"><b id="failed">${t.failed}</b>failed</div>
<div class="total v-ERROR"><b id="errors">${t.errors}</b>errors</div>
<div class="total v-SKIP"><b id="skipped">${t.skipped}</b>skipped</div>${
    run.repeat !== undefined ? `<div class="total"><b id="flaky">${flaky}</b>flaky</div>` : ""
  }
</section>
<section class="chart">
<h2>Failures by first failing stage</h2>
${chart(run)}
</section>
${scores(run)}<section>
<h2>Cases</h2>
<form id="filters" class="filters" onsubmit="return false">
<label>Verdict <select id="f-verdict"><option value="">all</option>${
    options(["PASS", FAIL, "ERROR", "SKIP", "not PASS"])
  }</select></label>
<label>Tag <select id="f-tag"><option value="">all</option>${options(tags)}</select></label>
<label>Stage <select id="f-stage"><option value="">all</option>${options(stages)}</select></label>
<label>Case <input id="f-text" type="search" placeholder="id contains"></label>
<span id="shown" class="muted">${t.total} shown${
    notPassing > 0 ? `, ${notPassing} not passing` : ""
  }</span>
</form>
<table id="cases">
<colgroup><col class="c-verdict"><col class="c-id"><col class="c-stage"><col class="c-tags"><col class="c-time"><col class="c-why"></colgroup>
<thead><tr><th>Verdict</th><th>Case</th><th>First failing stage</th><th>Tags</th><th>Time</th><th>Why</th></tr></thead>
<tbody>
${run.cases.map(row).join("\n")}
</tbody>
</table>
</section>
${
    run.cases.length > FIRST_ROWS
      ? `<noscript><p>The first ${FIRST_ROWS} cases are shown; the rest need JavaScript.</p></noscript>\n`
      : ""
  }<script type="application/json" id="run-data">${scriptJson(run)}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}

/**
 * Writes the report of `--html FILE` (lib/eval/reports.ts lists it).
 *
 * @param run the finished run
 * @param to where it goes
 * @example
 * ```ts
 * import { writeHtmlReport } from "./report_html.ts";
 * typeof writeHtmlReport; // "function"
 * ```
 */
export const writeHtmlReport: ReportWriter = (run, to) => to.writeFile(htmlReport(run));
