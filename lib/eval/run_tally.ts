/**
 * What a run keeps of its cases while it streams them to the run file: the
 * totals, the FAIL cases by first failing stage, and for the printed summary
 * each case's id and verdict (and, for a case that did not pass, the checks
 * that say why). Nothing grows with a case's trace or rows.
 *
 * @module
 */
import type { CheckResult, Status } from "./check.ts";
import { suiteSummary, type SuiteTotals } from "./suite.ts";

/** One case as the summary prints it. */
export interface TallyCase {
  readonly id: string;
  readonly verdict: Status;
  readonly failedStage: string | undefined;
  readonly error: string | undefined;
  readonly checks: readonly Pick<CheckResult, "stage" | "name" | "status" | "detail">[];
}

const NONE: readonly CheckResult[] = [];
const VERDICTS: readonly Status[] = ["PASS", "FAIL", "ERROR", "SKIP"];

/**
 * Counts cases as they finish, in any order, and prints the run's summary
 * in the cases' order.
 *
 * @example
 * ```ts
 * import { RunTally } from "./run_tally.ts";
 * const tally = new RunTally(["a", "b"]);
 * tally.add(1, { id: "b", verdict: "FAIL", failedStage: "execute", error: undefined, checks: [
 *   { stage: "execute", name: "rows_match", status: "FAIL", detail: "got 3" },
 * ] });
 * tally.add(0, { id: "a", verdict: "PASS", failedStage: undefined, error: undefined, checks: [] });
 * tally.totals.failed; // 1
 * tally.summary(); // "PASS  a\nFAIL  b\n      execute / rows_match: got 3\n\n1 of 2 passed (50%), ..."
 * ```
 */
export class RunTally {
  // Per case only a verdict code (the ids are the run's); the cases that
  // did not pass keep what explains them, so passing cases hold no object.
  readonly #ids: readonly string[];
  /** 1 + the verdict's index in VERDICTS; 0 for a case not run (yet). */
  readonly #verdicts: Uint8Array;
  readonly #details = new Map<number, TallyCase>();
  readonly #byStage = new Map<string, number>();
  #total = 0;
  #passed = 0;
  #failed = 0;
  #errors = 0;
  #skipped = 0;

  /** @param ids the ids of the run's cases, by position */
  constructor(ids: readonly string[]) {
    this.#ids = ids;
    this.#verdicts = new Uint8Array(ids.length);
  }

  /**
   * Counts one case.
   *
   * @param index its position among the run's cases
   * @param c the case (its id is the run's at that position)
   */
  add(index: number, c: TallyCase): void {
    this.#total++;
    if (c.verdict === "PASS") this.#passed++;
    else if (c.verdict === "FAIL") this.#failed++;
    else if (c.verdict === "ERROR") this.#errors++;
    else this.#skipped++;
    if (c.verdict === "FAIL" && c.failedStage !== undefined) {
      this.#byStage.set(c.failedStage, (this.#byStage.get(c.failedStage) ?? 0) + 1);
    }
    this.#verdicts[index] = VERDICTS.indexOf(c.verdict) + 1;
    if (c.verdict === "FAIL" || c.verdict === "ERROR") {
      this.#details.set(index, {
        id: c.id,
        verdict: c.verdict,
        failedStage: c.failedStage,
        error: c.error,
        checks: c.checks.filter((r) => r.status === "FAIL" || r.status === "ERROR"),
      });
    }
  }

  /** The totals so far. */
  get totals(): SuiteTotals {
    return {
      total: this.#total,
      passed: this.#passed,
      failed: this.#failed,
      errors: this.#errors,
      skipped: this.#skipped,
    };
  }

  /** FAIL cases by their first failing stage, most frequent first. */
  get failuresByStage(): Record<string, number> {
    return Object.fromEntries([...this.#byStage].sort((a, b) => b[1] - a[1]));
  }

  /** 0 when no case failed or errored, else 1. */
  get exitCode(): 0 | 1 {
    return this.#failed === 0 && this.#errors === 0 ? 0 : 1;
  }

  /**
   * The documented run output, as {@link suiteSummary} prints it.
   *
   * @returns the text, without a final newline
   */
  summary(): string {
    const cases: TallyCase[] = [];
    this.#verdicts.forEach((code, i) => {
      if (code === 0) return;
      cases.push(
        this.#details.get(i) ?? {
          id: this.#ids[i]!,
          verdict: VERDICTS[code - 1]!,
          failedStage: undefined,
          error: undefined,
          checks: NONE,
        },
      );
    });
    return suiteSummary(cases, this.totals, this.failuresByStage);
  }
}
