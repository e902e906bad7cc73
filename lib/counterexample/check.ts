/**
 * counterexample: the agent's SQL gave the reference's rows, but is there a
 * database on which it would not? Runs the counterexample search when
 * `run --counterexamples` asks for it. A run is handed the check as a
 * source (`COUNTEREXAMPLE_CHECK_SOURCE`); the harness never imports this room.
 *
 * @module
 */
import { findCounterexampleIsolated } from "./isolated.ts";
import {
  Check,
  type CheckContext,
  type CheckResult,
  type CounterexampleFinding,
  FAIL,
  PASS,
  SKIP,
} from "../eval/check.ts";
import type { CheckSource, CounterexampleSettings } from "../eval/check_sources.ts";
import type { TestCase } from "../eval/case.ts";
import { compareRows } from "../compare/rows.ts";
import type { Trace } from "../eval/trace.ts";
import { rowOptions, rowsText, traceRows } from "../eval/checks/trace_rows.ts";

/**
 * Whether a case is one the search looks at: it has reference SQL, the
 * agent gave the SQL it ran, and the case does not opt out.
 *
 * @param trace what the agent did
 * @param testCase the case
 * @returns the two queries, or undefined
 */
export function searchableQueries(
  trace: Trace,
  testCase: TestCase,
): { readonly reference: string; readonly candidate: string } | undefined {
  const reference = testCase.reference_sql;
  const sql = trace.lastOf("generate")?.output;
  if (reference === undefined || typeof sql !== "string" || sql.trim() === "") return undefined;
  return { reference, candidate: sql };
}

/** Two queries written the same, but for spacing and a final semicolon. */
function sameText(a: string, b: string): boolean {
  const norm = (sql: string) => sql.replace(/\s+/g, " ").trim().replace(/\s*;$/, "");
  return norm(a) === norm(b);
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * FAIL at generate when a database is found on which the agent's SQL and
 * the reference SQL differ; PASS when none is found. Only for cases whose
 * rows already match the reference's (reference_rows passed): a case that
 * fails there needs no further proof. A case with `counterexample: false`,
 * without reference SQL, or whose agent gave no SQL, gets no finding.
 *
 * @example
 * ```ts
 * import { CounterexampleCheck } from "./check.ts";
 * import { defineCase } from "../eval/cases.ts";
 * import { Trace } from "../eval/trace.ts";
 * const check = new CounterexampleCheck({ db: "examples/chinook/Chinook_Sqlite.sqlite" });
 * const testCase = defineCase({ question: "Long tracks?", reference_sql: "SELECT count(*) AS n FROM Track WHERE Milliseconds > 300000" });
 * const trace = Trace.simple("Long tracks?", { sql: "SELECT count(*) AS n FROM Track WHERE Milliseconds >= 300000", rows: [{ n: 1069 }] });
 * const [finding] = await check.run(trace, testCase, { referenceRows: [{ n: 1069 }] });
 * finding?.status; // "FAIL"
 * ```
 */
export class CounterexampleCheck extends Check {
  readonly name = "counterexample";
  readonly #settings: CounterexampleSettings;

  /** @param settings the database and the search's bounds */
  constructor(settings: CounterexampleSettings) {
    super();
    this.#settings = settings;
  }

  /**
   * @param trace what the agent did
   * @param testCase the case (reference_sql, ordered, precision, counterexample)
   * @param context the reference rows
   * @returns the finding, or none
   */
  async run(trace: Trace, testCase: TestCase, context: CheckContext): Promise<CheckResult[]> {
    if (testCase.counterexample === false) return [];
    const queries = searchableQueries(trace, testCase);
    const reference = context.referenceRows;
    if (queries === undefined || reference === undefined) return [];
    const got = traceRows(trace);
    const options = rowOptions(testCase);
    if (got.kind !== "rows" || !compareRows(got.rows, reference, options)) return [];
    const stage = trace.lastOf("generate")?.name ?? "generate";
    // The same query as the reference: no database tells them apart, and a
    // search would only spend its time limit finding none.
    if (sameText(queries.reference, queries.candidate)) {
      return [this.result(stage, PASS, "the agent's SQL is the reference SQL")];
    }
    let found;
    try {
      found = await findCounterexampleIsolated({
        db: this.#settings.db,
        allowSuperuser: this.#settings.allowSuperuser,
        ...queries,
        ...options,
        seed: this.#settings.seed,
        budget: this.#settings.budget,
        timeLimit: this.#settings.timeLimit,
      });
    } catch (e) {
      return [this.result(stage, SKIP, `could not search: ${message(e)}`)];
    }
    if (!found.found) {
      return [
        this.result(
          stage,
          PASS,
          `no difference found in ${found.tried} database${
            found.tried === 1 ? "" : "s"
          } (seed ${found.seed})`,
        ),
      ];
    }
    const rows = (found.changes ?? []).reduce((n, c) => n + c.rows, 0);
    const evidence: CounterexampleFinding = {
      database_sql: found.databaseSql!,
      // The values as they are: the run file writes them exactly.
      reference_rows: (found.referenceRows ?? []).map((row) => ({ ...row })),
      candidate_rows: (found.candidateRows ?? []).map((row) => ({ ...row })),
      tried: found.tried,
      seed: found.seed,
    };
    const detail = `right only on this data: on a database of ${rows} row(s) the reference gives ${
      rowsText(evidence.reference_rows)
    } and the agent's SQL ${
      rowsText(evidence.candidate_rows)
    }; the script that builds it is kept by --json (counterexample.database_sql), --md and --html`;
    return [{ ...this.result(stage, FAIL, detail), counterexample: evidence }];
  }
}

/**
 * The counterexample check as a run's source of checks: for a run with
 * --counterexamples (API: `counterexamples`), after the built-in checks and
 * before the rules.
 *
 * @example
 * ```ts
 * import { COUNTEREXAMPLE_CHECK_SOURCE } from "./check.ts";
 * COUNTEREXAMPLE_CHECK_SOURCE.checks({}).length; // 0
 * ```
 */
export const COUNTEREXAMPLE_CHECK_SOURCE: CheckSource = {
  name: "counterexample",
  place: "before-rules",
  checks: (options) =>
    options.counterexamples === undefined ? [] : [new CounterexampleCheck(options.counterexamples)],
};
