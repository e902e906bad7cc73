/**
 * The check interface: every built-in check, SQL rule, judge check and user
 * rule is a {@link Check} that returns findings as data.
 *
 * @module
 */
import type { DiffOptions } from "../diff/options.ts";
import type { Row, Trace } from "./trace.ts";
import type { TestCase } from "./case.ts";
import type { DatabaseDiff } from "../diff/types.ts";
import type { MatchExplanation } from "../../selector/explain.ts";

/**
 * A check passed.
 *
 * @example
 * ```ts
 * import { PASS, Scorecard } from "../../mod.ts";
 * const card = new Scorecard({ question: "Hi?", checks: [{ name: "mine", stage: "answer", status: PASS, detail: "" }] });
 * card.verdict; // "PASS"
 * ```
 */
export const PASS = "PASS";
/**
 * A check failed.
 *
 * @example
 * ```ts
 * import { FAIL, verdictOf } from "../../mod.ts";
 * verdictOf([{ name: "mine", stage: "answer", status: FAIL, detail: "wrong" }]); // "FAIL"
 * ```
 */
export const FAIL = "FAIL";
/**
 * The check itself could not run.
 *
 * @example
 * ```ts
 * import { ERROR, verdictOf } from "../../mod.ts";
 * verdictOf([{ name: "mine", stage: "answer", status: ERROR, detail: "could not run" }]); // "ERROR"
 * ```
 */
export const ERROR = "ERROR";
/**
 * The check had nothing to check.
 *
 * @example
 * ```ts
 * import { SKIP, verdictOf } from "../../mod.ts";
 * verdictOf([{ name: "mine", stage: "answer", status: SKIP, detail: "no answer" }]); // "SKIP"
 * ```
 */
export const SKIP = "SKIP";

/**
 * The outcome of one check, and the verdict of a case.
 *
 * @example
 * ```ts
 * import { PASS, type Status, verdictOf } from "../../mod.ts";
 * const verdict: Status = verdictOf([{ name: "mine", stage: "answer", status: PASS, detail: "" }]);
 * verdict; // "PASS"
 * ```
 */
export type Status = typeof PASS | typeof FAIL | typeof ERROR | typeof SKIP;

/**
 * One check's finding.
 *
 * @example
 * ```ts
 * import { type CheckResult, FAIL, Scorecard } from "../../mod.ts";
 * const finding: CheckResult = { name: "polite", stage: "answer", status: FAIL, detail: "no greeting" };
 * new Scorecard({ question: "Hi?", checks: [finding] }).failedStage; // "answer"
 * ```
 */
export interface CheckResult {
  /** The check's name, e.g. `reference_rows`. */
  readonly name: string;
  /** The stage it concerns, by name, e.g. `execute`. */
  readonly stage: string;
  readonly status: Status;
  /** Why, for a person; empty when there is nothing to say. */
  readonly detail: string;
  /** The counterexample check's evidence, when it found a database. */
  readonly counterexample?: CounterexampleFinding;
}

/**
 * A database on which the agent's SQL and the reference SQL differ, as the
 * run file keeps it.
 *
 * @example
 * ```ts
 * import type { CounterexampleFinding } from "./check.ts";
 * const finding: CounterexampleFinding = {
 *   database_sql: "CREATE TABLE t (x INTEGER);\nINSERT INTO t VALUES (20);\n",
 *   reference_rows: [{ n: 0 }],
 *   candidate_rows: [{ n: 1 }],
 *   tried: 3,
 *   seed: 1,
 * };
 * ```
 */
export interface CounterexampleFinding {
  /** The SQL script that builds the database from nothing. */
  readonly database_sql: string;
  /** The reference SQL's rows on it. */
  readonly reference_rows: readonly Record<string, unknown>[];
  /** The agent's SQL's rows on it. */
  readonly candidate_rows: readonly Record<string, unknown>[];
  /** Databases tried before it was found. */
  readonly tried: number;
  /** The search's seed. */
  readonly seed: number;
}

/**
 * A judge: takes a prompt, returns the model's reply text.
 *
 * @example
 * ```ts
 * import { defineCase, type Judge, runSuite } from "../../mod.ts";
 * const judge: Judge = (prompt) => "PASS\nthe answer addresses the question";
 * const cases = [defineCase({ id: "hi", question: "Say hello" })];
 * (await runSuite(cases, () => "Hello", { judge })).judgeCalls; // 1 (relevant)
 * ```
 */
export type Judge = (prompt: string) => string | Promise<string>;

/**
 * What the harness knows beyond the trace and the case, for checks that need it.
 *
 * @example
 * ```ts
 * import { Check, type CheckContext, type CheckResult, FAIL, PASS, SKIP } from "./check.ts";
 * import { defineCase } from "./cases.ts";
 * import { Trace } from "./trace.ts";
 * // Fails an answer that gives no number when the reference rows hold one.
 * class MentionsCount extends Check {
 *   readonly name = "mentions_count";
 *   run(trace: Trace, _testCase: unknown, context: CheckContext): CheckResult {
 *     const n = context.referenceRows?.[0]?.["n"];
 *     if (n === undefined) return this.result("answer", SKIP, "no reference rows");
 *     const answer = String(trace.lastOf("answer")?.output ?? "");
 *     return this.result("answer", answer.includes(String(n)) ? PASS : FAIL);
 *   }
 * }
 * const context: CheckContext = { referenceRows: [{ n: 4 }] };
 * const testCase = defineCase({ question: "How many users?" });
 * const trace = Trace.simple("How many users?", { answer: "4 users." });
 * new MentionsCount().run(trace, testCase, context).status; // "PASS"
 * ```
 */
export interface CheckContext {
  /** The rows of the case's reference_sql, when it has one and it ran. */
  readonly referenceRows?: readonly Row[];
  /**
   * The reference rows' true column names, in order, when a name repeats
   * (the rows then key the later ones `Name (2)`, ...).
   */
  readonly referenceColumns?: readonly string[];
  /** The judge, when the run has one. */
  readonly judge?: Judge;
  /** The diff of the agent's database copy, before and after, with --agent-db. */
  readonly dbDiff?: DatabaseDiff;
  /**
   * The answer of a selector asked while that diff ran (the case's
   * `expect.db_change` and `expect.db_no_change`, a db_change check's own):
   * it read every row change, not only the ones the diff kept. Undefined for
   * a selector that was not asked then; use `explainMatch(dbDiff, ...)`.
   */
  readonly explainDb?: (selector: unknown) => MatchExplanation | undefined;
  /** The original database given with --agent-db (only ever read), for reference agents. */
  readonly agentDb?: string;
  /**
   * The options the `dbDiff` was made with (`keys`, `ignore`, `ignoreTables`:
   * --agent-db-key, --agent-db-ignore, --agent-db-ignore-table): a reference
   * agent's diff is made with them too, so the two diffs pair alike.
   */
  readonly agentDbDiff?: DiffOptions;
  /**
   * The SQLite file the run reads (`--db`, else `--agent-db`), only ever read:
   * the SQL rules on SQLite compile the agent's SQL on its schema (never run it).
   */
  readonly database?: string;
  /**
   * The SQL dialect of the database the reference SQL runs on (`postgres`
   * with `--db postgres://...` or `--db pglite:...`): SQL rules given no
   * dialect of their own read the agent's SQL in it.
   */
  readonly dialect?: string;
}

/**
 * A check on a trace. Subclass it, give it a `name`, and implement `run`.
 * Return findings; throw only for a bug or broken input.
 *
 * @example
 * ```ts
 * import { Check, FAIL, PASS, SKIP, type CheckResult } from "./check.ts";
 * import type { Trace } from "./trace.ts";
 *
 * class ShortAnswer extends Check {
 *   readonly name = "short_answer";
 *   run(trace: Trace): CheckResult {
 *     const stage = trace.lastOf("answer");
 *     if (stage === undefined) return this.result("answer", SKIP);
 *     const length = String(stage.output).length;
 *     return this.result(stage.name, length <= 400 ? PASS : FAIL, `${length} characters`);
 *   }
 * }
 * ```
 */
export abstract class Check {
  /** The name shown in scorecards. */
  abstract readonly name: string;

  /**
   * Checks one trace.
   *
   * @param trace what the agent did
   * @param testCase the case being checked
   * @param context reference rows, the judge and the database diff, when known
   * @returns one finding or several
   */
  abstract run(
    trace: Trace,
    testCase: TestCase,
    context: CheckContext,
  ): CheckResult | readonly CheckResult[] | Promise<CheckResult | readonly CheckResult[]>;

  /**
   * Builds a finding of this check.
   *
   * @param stage the stage name the finding concerns
   * @param status PASS, FAIL, ERROR or SKIP
   * @param detail why, for a person
   * @returns the finding
   */
  result(stage: string, status: Status, detail = ""): CheckResult {
    return { name: this.name, stage, status, detail };
  }
}
