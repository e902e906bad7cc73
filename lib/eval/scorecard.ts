/**
 * The result for one question: every check, in stage order, and the verdict.
 *
 * @module
 */
import { type CheckResult, ERROR, FAIL, PASS, SKIP, type Status } from "./check.ts";
import { type Row, Trace } from "./trace.ts";
import type { DatabaseDiff } from "../diff/types.ts";

/**
 * What a scorecard is built from.
 *
 * @example
 * ```ts
 * import { Scorecard, type ScorecardInput } from "./scorecard.ts";
 * const input: ScorecardInput = {
 *   id: "c1",
 *   question: "How many orders?",
 *   checks: [
 *     { name: "no_error", stage: "answer", status: "PASS", detail: "" },
 *     { name: "rows_match", stage: "execute", status: "FAIL", detail: "expected 2 rows, got 3" },
 *   ],
 * };
 * new Scorecard(input).verdict; // "FAIL"
 * ```
 */
export interface ScorecardInput {
  /** The question asked. */
  readonly question: string;
  /** The case id, when the scorecard belongs to a case. */
  readonly id?: string;
  /** The findings, in the order the checks ran. */
  readonly checks: readonly CheckResult[];
  /** Why the test itself could not run (agent raised, reference SQL failed, timeout). */
  readonly error?: string;
  /** The trace, which orders the stages; without it, stages sort by kind. */
  readonly trace?: Trace;
  /** The diff of the agent's database copy, with --agent-db. */
  readonly dbDiff?: DatabaseDiff | undefined;
  /** The rows of the case's reference_sql, when it ran (reports show them beside the agent's). */
  readonly referenceRows?: readonly Row[] | undefined;
  /** The reference rows' true column names, when a name repeats (keys `Name (2)`, ...). */
  readonly referenceColumns?: readonly string[] | undefined;
  /** The case's reference_sql, when it has one (reports show it beside the agent's SQL). */
  readonly referenceSql?: string | undefined;
}

/**
 * The verdict of a list of findings and a test-level error:
 * ERROR when the test could not run; else FAIL when a check failed; else
 * ERROR when a check could not run; else PASS when at least one check
 * passed; else SKIP.
 *
 * @param checks the findings
 * @param error the test-level error, if any
 * @returns the verdict
 * @example
 * ```ts
 * import { verdictOf } from "./scorecard.ts";
 * verdictOf([{ name: "no_error", stage: "answer", status: "PASS", detail: "" }]); // "PASS"
 * verdictOf([]); // "SKIP"
 * ```
 */
export function verdictOf(checks: readonly CheckResult[], error?: string): Status {
  if (error !== undefined) return ERROR;
  // A failed check is a verdict on the agent that stands even when another
  // check (say, a judge that did not answer) could not run.
  if (checks.some((c) => c.status === FAIL)) return FAIL;
  if (checks.some((c) => c.status === ERROR)) return ERROR;
  if (checks.some((c) => c.status === PASS)) return PASS;
  return SKIP;
}

/**
 * The scorecard of one question.
 *
 * @example
 * ```ts
 * import { Scorecard } from "./scorecard.ts";
 * const card = new Scorecard({
 *   question: "How many orders are delivered?",
 *   checks: [{ name: "no_error", stage: "answer", status: "PASS", detail: "" }],
 * });
 * card.verdict; // "PASS"
 * console.log(card.summary());
 * ```
 */
export class Scorecard {
  /** The question asked. */
  readonly question: string;
  /** The case id, when known. */
  readonly id: string | undefined;
  /** Every finding, in stage (trace) order; within a stage, in the order the checks ran. */
  readonly checks: readonly CheckResult[];
  /** Why the test itself could not run, when it could not. */
  readonly error: string | undefined;
  /** PASS, FAIL, ERROR or SKIP (see {@link verdictOf}). */
  readonly verdict: Status;
  /**
   * The first stage, in trace order, with a failed check, or undefined. A
   * rule on the SQL fails at generate, before execute.
   */
  readonly failedStage: string | undefined;
  /** The trace, when the agent gave one. */
  readonly trace: Trace | undefined;
  /** The diff of the agent's database copy, with --agent-db. */
  readonly dbDiff: DatabaseDiff | undefined;
  /** The rows of the case's reference_sql, when it ran. */
  readonly referenceRows: readonly Row[] | undefined;
  /** The reference rows' true column names, when a name repeats. */
  readonly referenceColumns: readonly string[] | undefined;
  /** The case's reference_sql, when it has one. */
  readonly referenceSql: string | undefined;

  /** @param input the findings and what they are about */
  constructor(input: ScorecardInput) {
    this.question = input.question;
    this.id = input.id;
    this.error = input.error;
    this.trace = input.trace;
    this.dbDiff = input.dbDiff;
    this.referenceRows = input.referenceRows;
    this.referenceColumns = input.referenceColumns;
    this.referenceSql = input.referenceSql;
    const order = input.trace ?? new Trace(input.question);
    const keyed = input.checks.map((c, i) => ({ c, i, k: order.order(c.stage) }));
    keyed.sort((a, b) => a.k - b.k || a.i - b.i);
    this.checks = keyed.map((x) => x.c);
    this.verdict = verdictOf(this.checks, this.error);
    this.failedStage = this.checks.find((c) => c.status === FAIL)?.stage;
  }

  /** The failed findings at {@link failedStage}. */
  get failures(): CheckResult[] {
    return this.checks.filter((c) => c.status === FAIL && c.stage === this.failedStage);
  }

  /**
   * The scorecard as the docs print it: the question, one line per check
   * (stage, name, status, detail), then the verdict.
   *
   * @returns the text, without a final newline
   */
  summary(): string {
    const lines = [`Q: ${this.question}`];
    for (const c of this.checks) {
      const head = line(c.stage, c.name, `${c.status}${c.detail === "" ? "" : "  "}`);
      lines.push(hang(head, c.detail));
    }
    if (this.error !== undefined) lines.push(hang(`  ${"ERROR".padEnd(12)} `, this.error));
    const why = this.verdict === FAIL && this.failedStage !== undefined
      ? `  (first failing stage: ${this.failedStage})`
      : "";
    lines.push(`  ${"VERDICT".padEnd(12)} ${this.verdict}${why}`);
    return lines.join("\n");
  }
}

function line(stage: string, name: string, rest: string): string {
  return `  ${stage.padEnd(12)} ${name.padEnd(18)} ${rest}`;
}

/** `head` then `text`, with the text's further lines indented under its first (a hanging indent). */
function hang(head: string, text: string): string {
  return head + text.replaceAll("\n", `\n${" ".repeat(head.length)}`);
}
