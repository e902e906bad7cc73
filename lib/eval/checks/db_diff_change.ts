/**
 * db_diff_change: a selector applied to the changes only the agent made,
 * beside those a reference agent (or a saved reference diff) makes for the
 * same case. This is the Python original's db_diff_change scorer.
 *
 * @module
 */
import { diffDatabaseDiffs } from "../../diff/diff_of_diffs.ts";
import type { DatabaseDiff } from "../../diff/types.ts";
import { explainMatch, parseSelector } from "../../../selector/mod.ts";
import type { Selector } from "../../../selector/types.ts";
import type { Agent } from "../agent.ts";
import { copyAgentDb, diffAgentCopy } from "../agent_db.ts";
import { Check, type CheckContext, type CheckResult, ERROR, FAIL, PASS } from "../check.ts";
import type { TestCase } from "../case.ts";
import type { Trace } from "../trace.ts";
import { dbStage, missingDiff, oneLine } from "./_db_expect.ts";

/** What the agent's changes are compared with. */
export interface DbDiffChangeOptions {
  /**
   * A reference agent, run on its own fresh copy of the --agent-db file for
   * the same question, or a saved reference diff.
   */
  readonly reference: Agent | DatabaseDiff;
}

/**
 * Passes when the selector matches `afterOnly` of
 * `diffDatabaseDiffs(referenceDiff, agentDiff)`: a change the reference
 * also makes is ignored, one only the agent makes counts. To forbid a
 * change beyond the reference, wrap the selector in `$not`.
 *
 * @example
 * ```ts
 * import { DbDiffChange } from "./db_diff_change.ts";
 * const extra = new DbDiffChange({ rows: { changed: "role" } }, { reference: () => "no-op" });
 * extra.name; // "db_diff_change"
 * ```
 */
export class DbDiffChange extends Check {
  readonly name = "db_diff_change";
  readonly #selector: Selector;
  readonly #reference: Agent | DatabaseDiff;

  /**
   * @param selector what to look for among the changes only the agent made
   * @param options the reference agent or diff
   * @throws {SelectorError} when the selector has a mistake
   */
  constructor(selector: unknown, options: DbDiffChangeOptions) {
    super();
    this.#selector = parseSelector(selector);
    this.#reference = options.reference;
  }

  /**
   * @param trace what the agent did
   * @param testCase the case (its question goes to the reference agent)
   * @param context the agent's database diff and the original database
   * @returns one finding
   */
  async run(trace: Trace, testCase: TestCase, context: CheckContext): Promise<CheckResult> {
    const stage = dbStage(trace);
    if (context.dbDiff === undefined) {
      return this.result(stage, ERROR, missingDiff("db_diff_change"));
    }
    let reference: DatabaseDiff;
    if (typeof this.#reference === "function") {
      if (context.agentDb === undefined) {
        return this.result(stage, ERROR, missingDiff("db_diff_change"));
      }
      const copy = copyAgentDb(context.agentDb);
      try {
        await this.#reference(testCase.question, { dbPath: copy.dbPath });
        reference = await diffAgentCopy(context.agentDb, copy.dbPath);
      } catch (e) {
        return this.result(
          stage,
          ERROR,
          `the reference agent raised: ${(e as Error).message ?? e}`,
        );
      } finally {
        copy.dispose();
      }
    } else {
      reference = this.#reference;
    }
    const { afterOnly } = diffDatabaseDiffs(reference, context.dbDiff);
    const { matched, text } = explainMatch(afterOnly, this.#selector);
    return this.result(
      stage,
      matched ? PASS : FAIL,
      `changes only the agent made: ${oneLine(text)}`,
    );
  }
}

/**
 * A check applying `selector` to the changes only the agent made, beside a
 * reference agent's or a saved diff's.
 *
 * @param selector what to look for among the agent's own changes
 * @param options the reference agent or diff
 * @returns the check
 * @example
 * ```ts
 * import { dbDiffChange } from "./db_diff_change.ts";
 * const rules = [dbDiffChange({ $not: {} }, { reference: () => "no-op" })];
 * ```
 */
export function dbDiffChange(selector: unknown, options: DbDiffChangeOptions): DbDiffChange {
  return new DbDiffChange(selector, options);
}
