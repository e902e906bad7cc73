/**
 * What the counterexample search did beside the checks (`run
 * --counterexamples`), as an observer of the case loop: the cases it could
 * not look at, and, for a run that writes no file to keep them in (no
 * --json, --md or --html), the script of each database it found.
 *
 * @module
 */
import type { TestCase } from "../eval/case.ts";
import type { CaseResult } from "../eval/suite.ts";
import type { RunObserver } from "../eval/run_loop.ts";
import { searchableQueries } from "../counterexample/check.ts";

/** The observer, and the lines it has to print when the run ends. */
export interface CounterexampleNotes extends RunObserver {
  lines(): string[];
}

/**
 * Counts the cases the search could not look at, and keeps the scripts it
 * found when asked.
 *
 * @param cases the run's cases (read on the first case: only --counterexamples counts)
 * @param keepScripts whether to print each database found
 * @returns the observer
 */
export function counterexampleNotes(
  cases: () => readonly TestCase[],
  keepScripts: boolean,
): CounterexampleNotes {
  let byId: Map<string, TestCase> | undefined;
  let n = 0;
  const scripts = new Map<string, string>();
  return {
    caseDone(c: CaseResult): void {
      byId ??= new Map(cases().map((t) => [t.id, t]));
      const testCase = byId.get(c.id);
      const trace = c.scorecard.trace;
      if (testCase === undefined || testCase.counterexample === false || trace === undefined) {
        return;
      }
      if (searchableQueries(trace, testCase) === undefined) n++;
      const found = c.checks.find((r) => r.counterexample !== undefined)?.counterexample;
      if (keepScripts && found !== undefined) scripts.set(c.id, found.database_sql);
    },
    lines: () => [
      ...(n === 0 ? [] : [
        `counterexample search: ${n} case(s) not searched (no reference_sql, or the agent gave no SQL)`,
      ]),
      // In the cases' order, whatever order they finished in.
      ...(scripts.size === 0 ? [] : [
        "counterexample databases (--json, --md or --html keeps them):",
        ...[...(byId ?? new Map()).keys()].flatMap((id) => {
          const sql = scripts.get(id);
          return sql === undefined ? [] : [`-- ${id}`, sql];
        }),
      ]),
    ],
  };
}
