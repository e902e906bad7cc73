/**
 * The JUnit XML report (`--junit FILE`) that GitLab, Jenkins and the common
 * GitHub JUnit actions render: one `testsuite` per cases file, one
 * `testcase` per case.
 *
 * @module
 */
import { ERROR, FAIL, SKIP } from "./check.ts";
import { caseProblems } from "./suite.ts";
import type { RunFile, RunFileCase } from "./run_file.ts";
import { xmlEscape } from "./_xml.ts";
import type { ReportWriter } from "./report.ts";

const MESSAGE_CHARS = 1000;

function attr(name: string, value: string | number): string {
  return ` ${name}="${xmlEscape(String(value), true)}"`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function problems(c: RunFileCase): string[] {
  return caseProblems({
    verdict: c.verdict,
    error: c.error ?? undefined,
    failedStage: c.failed_stage ?? undefined,
    checks: c.checks,
  });
}

function clip(text: string): string {
  return text.length <= MESSAGE_CHARS ? text : `${text.slice(0, MESSAGE_CHARS)}...`;
}

function body(c: RunFileCase): string {
  const lines = c.checks.map((r) =>
    `${r.status.padEnd(6)}${r.stage} / ${r.name}${r.detail === "" ? "" : `: ${r.detail}`}`
  );
  if (c.error !== null) lines.unshift(`ERROR ${c.error}`);
  if (c.attempts !== undefined) {
    c.attempts.forEach((a, i) => {
      const why = a.error ?? a.checks.find((r) => r.status === a.verdict)?.detail ?? "";
      lines.push(`attempt ${i + 1}: ${a.verdict}${why === "" ? "" : ` (${why})`}`);
    });
  }
  return lines.join("\n");
}

function testcase(c: RunFileCase, file: string): string {
  const head = `    <testcase${attr("classname", file)}${attr("name", c.id)}${attr("file", file)}${
    c.line !== undefined ? attr("line", c.line) : ""
  }${attr("time", seconds(c.duration_ms))}>`;
  const props = c.tags.map((t) => `        <property${attr("name", "tag")}${attr("value", t)}/>`);
  if (c.attempts !== undefined) {
    props.push(`        <property${attr("name", "attempts")}${attr("value", c.attempts.length)}/>`);
    props.push(`        <property${attr("name", "passes")}${attr("value", c.passes ?? 0)}/>`);
    if (c.flaky === true) {
      props.push(`        <property${attr("name", "flaky")}${attr("value", "true")}/>`);
    }
  }
  const lines = [head];
  if (props.length > 0) lines.push("      <properties>", ...props, "      </properties>");
  const message = clip(problems(c)[0] ?? "");
  if (c.verdict === FAIL || c.verdict === ERROR) {
    const tag = c.verdict === FAIL ? "failure" : "error";
    lines.push(
      `      <${tag}${attr("message", message)}${attr("type", c.verdict)}>${
        xmlEscape(body(c))
      }</${tag}>`,
    );
  } else if (c.verdict === SKIP) {
    const why = c.checks.find((r) => r.detail !== "")?.detail ?? "no check applied";
    lines.push(`      <skipped${attr("message", clip(why))}/>`);
  }
  const out = [`question: ${c.question}`];
  if (c.sql !== null) out.push(`sql: ${c.sql}`);
  if (c.reference_sql !== undefined) out.push(`reference_sql: ${c.reference_sql}`);
  if (c.answer !== null) out.push(`answer: ${c.answer}`);
  lines.push(`      <system-out>${xmlEscape(out.join("\n"))}</system-out>`);
  lines.push("    </testcase>");
  return lines.join("\n");
}

/**
 * The JUnit XML of a run: a `testsuites` root, one `testsuite` named after
 * the cases file, one `testcase` per case (classname and file the cases
 * file, name the case id, line, time in seconds), with `failure` for FAIL
 * (message: the first failing check; body: every check), `error` for ERROR,
 * `skipped` for SKIP, and a `tag` property per tag. Any text an agent
 * returned is escaped, and characters XML cannot hold are written as
 * `\uXXXX`.
 *
 * @param run a run file (or `toRunFile(result)`)
 * @returns the XML document, ending with a newline
 * @example
 * ```ts
 * import { defineCase, junitReport, runSuite, toRunFile } from "../../mod.ts";
 * const cases = [defineCase({ id: "two", question: "1 + 1?", expect: { rows: [{ n: 2 }] } })];
 * const run = toRunFile(await runSuite(cases, () => ({ rows: [{ n: 3 }] })));
 * junitReport(run).includes('<testcase classname="cases" name="two"'); // true
 * ```
 */
export function junitReport(run: RunFile): string {
  const file = run.cases_file ?? "cases";
  const t = run.totals;
  const counts = `${attr("tests", t.total)}${attr("failures", t.failed)}${
    attr("errors", t.errors)
  }${attr("skipped", t.skipped)}${attr("time", seconds(run.duration_ms))}`;
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites${attr("name", "dbagenteval")}${counts}>`,
    `  <testsuite${attr("name", file)}${counts}${attr("timestamp", run.created_at)}${
      attr("file", file)
    }>`,
  ];
  if (run.shard !== undefined) {
    lines.push(
      "    <properties>",
      `      <property${attr("name", "shard")}${
        attr("value", `${run.shard.index}/${run.shard.total}`)
      }/>`,
      "    </properties>",
    );
  }
  for (const c of run.cases) lines.push(testcase(c, file));
  lines.push("  </testsuite>", "</testsuites>", "");
  return lines.join("\n");
}

/**
 * Writes the report of `--junit FILE` (lib/eval/reports.ts lists it).
 *
 * @param run the finished run
 * @param to where it goes
 * @example
 * ```ts
 * import { writeJunitReport } from "./report_junit.ts";
 * typeof writeJunitReport; // "function"
 * ```
 */
export const writeJunitReport: ReportWriter = (run, to) => to.writeFile(junitReport(run));
