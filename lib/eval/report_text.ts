/**
 * The verbose text report (`run --verbose`): every case with its time and
 * every check, passing ones too, then the totals and the slowest cases. The
 * default output stays the documented one (SuiteResult.summary()); this one is for
 * a person reading a CI log.
 *
 * @module
 */
import { suiteSummary } from "./suite.ts";
import type { RunFile, RunFileCase } from "./run_file.ts";
import { passAtK, passHatK } from "./pass_at_k.ts";

/**
 * A duration as the text report prints it: `1.2 s`.
 *
 * @param ms milliseconds
 * @returns the text
 * @example
 * ```ts
 * import { formatSeconds } from "../../mod.ts";
 * formatSeconds(1234); // "1.2 s"
 * ```
 */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function indent(text: string, by: string): string {
  return by + text.replaceAll("\n", `\n${by}`);
}

function repeatLine(c: RunFileCase, k: number): string | undefined {
  if (c.attempts === undefined) return undefined;
  const n = c.attempts.length;
  const p = c.passes ?? 0;
  const kk = Math.min(k, n);
  return `passed ${p} of ${n}, pass@${kk} ${passAtK(n, p, kk).toFixed(2)}, pass^${kk} ${
    passHatK(n, p, kk).toFixed(2)
  }${c.flaky === true ? ", flaky" : ""}`;
}

/**
 * Options of {@link verboseReport}.
 *
 * @example
 * ```ts
 * import type { VerboseReportOptions } from "../../mod.ts";
 * const options: VerboseReportOptions = { slowest: 3 };
 * options.slowest; // 3
 * ```
 */
export interface VerboseReportOptions {
  /** How many of the slowest cases to list (default 5; 0 for none). */
  readonly slowest?: number | undefined;
  /** The k of pass@k and pass^k for repeated runs (default: the repeat count). */
  readonly k?: number | undefined;
}

/**
 * The verbose run report: `VERDICT  id  (1.2 s)` per case, then every
 * check as `STATUS  stage / name: detail` (and the test-level error), then
 * the totals as the default output prints them, then the slowest cases.
 *
 * @param run a run file
 * @param options how many slowest cases, the k of pass@k
 * @returns the text, without a final newline
 * @example
 * ```ts
 * import { defineCase, runSuite, toRunFile, verboseReport } from "../../mod.ts";
 * const run = toRunFile(await runSuite([defineCase({ id: "hi", question: "Hi?" })], () => "Hello"));
 * verboseReport(run).split("\n")[0]?.startsWith("PASS  hi  ("); // true
 * ```
 */
export function verboseReport(run: RunFile, options: VerboseReportOptions = {}): string {
  const lines: string[] = [];
  for (const c of run.cases) {
    lines.push(`${c.verdict.padEnd(6)}${c.id}  (${formatSeconds(c.duration_ms)})`);
    const rates = repeatLine(c, options.k ?? run.repeat ?? 1);
    if (rates !== undefined) lines.push(`      ${rates}`);
    if (c.error !== null) lines.push(indent(`ERROR ${c.error}`, "      "));
    for (const r of c.checks) {
      const text = `${r.status.padEnd(6)}${r.stage} / ${r.name}${
        r.detail === "" ? "" : `: ${r.detail}`
      }`;
      lines.push(indent(text, "      "));
    }
  }
  lines.push(
    suiteSummary([], run.totals, run.failures_by_stage),
  );
  const n = options.slowest ?? 5;
  const slow = [...run.cases].sort((a, b) => b.duration_ms - a.duration_ms).slice(0, n);
  if (slow.length > 0) {
    lines.push("", `Slowest ${slow.length === 1 ? "case" : `${slow.length} cases`}:`);
    for (const c of slow) lines.push(`  ${formatSeconds(c.duration_ms).padStart(8)}  ${c.id}`);
  }
  return lines.join("\n");
}
