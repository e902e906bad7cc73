/**
 * Where a case that ended in ERROR stopped, for the reports' summaries: a
 * check that could not run has a stage; a case that could not be tested at
 * all says why in its error, whose opening words runCase and runSuite write
 * (evaluate.ts, suite.ts).
 *
 * @module
 */
import { ERROR } from "./check.ts";
import type { RunFileCase } from "./run_file.ts";

/** Where an ERROR case stopped, as words that follow "N cases ended in ERROR: 3 ...". */
export function errorStage(c: Pick<RunFileCase, "error" | "checks">): string {
  const error = c.error;
  if (error === null) {
    const stage = c.checks.find((r) => r.status === ERROR)?.stage;
    return stage === undefined ? "with no reason given" : `in a check at stage ${stage}`;
  }
  if (/^the reference SQL|: the reference SQL did not finish/.test(error)) {
    return "running the reference SQL";
  }
  if (/^the case (setup|teardown) failed/.test(error)) return "setting up or tearing down the case";
  if (error.startsWith("internal error")) return "inside dbagenteval";
  // Everything else runCase reports comes from the agent: it raised, timed
  // out, its process or service failed, or its reply could not be read.
  return "calling the agent";
}

/**
 * One sentence on the ERROR cases of a run, grouped by where they stopped
 * (most first), or undefined when none ended in ERROR:
 * `3 cases ended in ERROR: 2 calling the agent, 1 running the reference SQL`.
 */
export function errorSummary(
  cases: readonly Pick<RunFileCase, "verdict" | "error" | "checks">[],
): string | undefined {
  const counts = new Map<string, number>();
  for (const c of cases) {
    if (c.verdict !== ERROR) continue;
    const stage = errorStage(c);
    counts.set(stage, (counts.get(stage) ?? 0) + 1);
  }
  if (counts.size === 0) return undefined;
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const parts = [...counts].sort((a, b) => b[1] - a[1]).map(([stage, n]) => `${n} ${stage}`);
  return `${total} case${total === 1 ? "" : "s"} ended in ERROR: ${parts.join(", ")}`;
}
