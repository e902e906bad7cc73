/**
 * Comparing two saved runs: regressions, fixes, added and removed cases,
 * printed as Markdown (docs/ci.md shows it).
 *
 * @module
 */
import { PASS, type Status } from "./check.ts";
import { caseProblems, type SuiteResult } from "./suite.ts";
import { type RunFile, type RunFileCase, toRunFile } from "./run_file.ts";

/**
 * A case in both runs whose verdict changed.
 *
 * @example
 * ```ts
 * import { diffRuns, type RunChange } from "./run_diff.ts";
 * import { runSuite } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const cases = [defineCase({ id: "two", question: "1 + 1?", expect: { rows: [{ n: 2 }] } })];
 * const before = await runSuite(cases, () => ({ rows: [{ n: 2 }] }));
 * const after = await runSuite(cases, () => ({ rows: [{ n: 3 }] }));
 * const [regression]: readonly RunChange[] = diffRuns(before, after).regressions;
 * [regression?.id, regression?.before, regression?.after]; // ["two", "PASS", "FAIL"]
 * ```
 */
export interface RunChange {
  readonly id: string;
  readonly before: Status;
  readonly after: Status;
  /** Why it does not pass now, when it does not (`stage / check: detail`). */
  readonly problems: readonly string[];
  /** When both runs repeated the case: passes / attempts before. */
  readonly beforeRate?: string | undefined;
  /** When both runs repeated the case: passes / attempts now. */
  readonly afterRate?: string | undefined;
}

/**
 * A case in only one of the runs.
 *
 * @example
 * ```ts
 * import { diffRuns, type RunEntry } from "./run_diff.ts";
 * import { runSuite } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const before = await runSuite([defineCase({ id: "a", question: "Hi?" })], () => "Hello");
 * const after = await runSuite([defineCase({ id: "b", question: "Bye?" })], () => "Bye");
 * const added: readonly RunEntry[] = diffRuns(before, after).added; // [{ id: "b", verdict: "PASS" }]
 * ```
 */
export interface RunEntry {
  readonly id: string;
  readonly verdict: Status;
}

function problemsOf(c: RunFileCase): string[] {
  return caseProblems({
    verdict: c.verdict,
    error: c.error ?? undefined,
    failedStage: c.failed_stage ?? undefined,
    checks: c.checks,
  });
}

/**
 * The difference between two runs, by case id.
 *
 * @example
 * ```ts
 * import { defineCase, diffRuns, runSuite } from "../../mod.ts";
 * const cases = [defineCase({ id: "two", question: "1 + 1?", expect: { rows: [{ n: 2 }] } })];
 * const before = await runSuite(cases, () => ({ rows: [{ n: 2 }] }));
 * const after = await runSuite(cases, () => ({ rows: [{ n: 3 }] }));
 * const diff = diffRuns(before, after);
 * diff.exitCode; // 1: a regression
 * ```
 */
export class RunDiff {
  /** Passed before, not passing now. */
  readonly regressions: readonly RunChange[];
  /** Not passing before, passing now. */
  readonly fixes: readonly RunChange[];
  /** Other verdict changes, e.g. FAIL -> ERROR. */
  readonly changed: readonly RunChange[];
  /** Only in the later run. */
  readonly added: readonly RunEntry[];
  /** Only in the earlier run. */
  readonly removed: readonly RunEntry[];

  /**
   * @param before the earlier run
   * @param after the later run
   */
  constructor(before: RunFile, after: RunFile) {
    const old = new Map(before.cases.map((c) => [c.id, c]));
    const now = new Set(after.cases.map((c) => c.id));
    const regressions: RunChange[] = [];
    const fixes: RunChange[] = [];
    const changed: RunChange[] = [];
    const added: RunEntry[] = [];
    for (const c of after.cases) {
      const b = old.get(c.id);
      if (b === undefined) {
        added.push({ id: c.id, verdict: c.verdict });
        continue;
      }
      if (b.attempts !== undefined && c.attempts !== undefined) {
        // Repeated runs: compare pass rates, not one attempt's verdict.
        const was = (b.passes ?? 0) / Math.max(1, b.attempts.length);
        const now = (c.passes ?? 0) / Math.max(1, c.attempts.length);
        if (was === now && b.verdict === c.verdict) continue;
        const change = {
          id: c.id,
          before: b.verdict,
          after: c.verdict,
          problems: problemsOf(c),
          beforeRate: `${b.passes ?? 0}/${b.attempts.length}`,
          afterRate: `${c.passes ?? 0}/${c.attempts.length}`,
        };
        if (now < was) regressions.push(change);
        else if (now > was) fixes.push(change);
        else changed.push(change);
        continue;
      }
      if (b.verdict === c.verdict) continue;
      const change = { id: c.id, before: b.verdict, after: c.verdict, problems: problemsOf(c) };
      if (b.verdict === PASS) regressions.push(change);
      else if (c.verdict === PASS) fixes.push(change);
      else changed.push(change);
    }
    this.regressions = regressions;
    this.fixes = fixes;
    this.changed = changed;
    this.added = added;
    this.removed = before.cases.filter((c) => !now.has(c.id)).map((c) => ({
      id: c.id,
      verdict: c.verdict,
    }));
  }

  /** 1 when there is a regression, else 0 (the `diff` command's exit code). */
  get exitCode(): 0 | 1 {
    return this.regressions.length > 0 ? 1 : 0;
  }

  /**
   * The diff as a plain object for `diff --json`: counts, then each group
   * (pass rates included for repeated runs).
   *
   * @returns a JSON-safe object
   */
  toJSON(): Record<string, unknown> {
    const change = (c: RunChange) => ({
      id: c.id,
      before: c.before,
      after: c.after,
      problems: [...c.problems],
      ...(c.beforeRate !== undefined ? { before_rate: c.beforeRate, after_rate: c.afterRate } : {}),
    });
    return {
      format: "dbagenteval-run-diff",
      counts: {
        regressions: this.regressions.length,
        fixes: this.fixes.length,
        changed: this.changed.length,
        added: this.added.length,
        removed: this.removed.length,
      },
      regressions: this.regressions.map(change),
      fixes: this.fixes.map(change),
      changed: this.changed.map(change),
      added: this.added.map((c) => ({ ...c })),
      removed: this.removed.map((c) => ({ ...c })),
    };
  }

  /**
   * The diff as docs/ci.md shows it: a title, the counts in bold, then a
   * section per non-empty group (Regressions, Fixes, Other changes, Added,
   * Removed).
   *
   * @returns the Markdown, without a final newline
   */
  markdown(): string {
    // The four counts are labels, as the Python tool prints them ("1 fixes",
    // tests/golden/diff.txt): "regressions" does not change at 1 either.
    const lines = [
      "# dbagenteval diff",
      "",
      `**${this.regressions.length} regressions, ${this.fixes.length} fixes, ${this.added.length} added, ${this.removed.length} removed**`,
    ];
    const section = (title: string, items: string[]) => {
      if (items.length === 0) return;
      lines.push("", `## ${title}`, "", ...items);
    };
    const change = (c: RunChange) => [
      c.beforeRate === undefined
        ? `- ${c.id} (${c.before} -> ${c.after})`
        : `- ${c.id} (passed ${c.beforeRate} -> ${c.afterRate}, ${c.before} -> ${c.after})`,
      ...c.problems.map((p) => `  - ${p}`),
    ];
    section("Regressions", this.regressions.flatMap(change));
    section("Fixes", this.fixes.flatMap(change));
    section("Other changes", this.changed.flatMap(change));
    section("Added", this.added.map((c) => `- ${c.id} (${c.verdict})`));
    section("Removed", this.removed.map((c) => `- ${c.id} (was ${c.verdict})`));
    return lines.join("\n");
  }
}

/**
 * Compares two runs by case id.
 *
 * @param before the earlier run (a run file, or a suite result)
 * @param after the later run
 * @returns the diff; print `diff.markdown()`, exit with `diff.exitCode`
 * @example
 * ```ts
 * import { diffRuns } from "./run_diff.ts";
 * import { runSuite } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const cases = [defineCase({ id: "two", question: "1 + 1?", expect: { rows: [{ n: 2 }] } })];
 * const before = await runSuite(cases, () => ({ rows: [{ n: 3 }] }));
 * const after = await runSuite(cases, () => ({ rows: [{ n: 2 }] }));
 * console.log(diffRuns(before, after).markdown()); // ... **0 regressions, 1 fixes, 0 added, 0 removed** ...
 * ```
 */
export function diffRuns(before: RunFile | SuiteResult, after: RunFile | SuiteResult): RunDiff {
  const file = (r: RunFile | SuiteResult) => ("format" in r ? r : toRunFile(r));
  return new RunDiff(file(before), file(after));
}
