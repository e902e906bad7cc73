/**
 * db_diff_change: a selector applied to the changes only the agent made,
 * beside those a reference agent (or a saved reference diff) makes for the
 * same case. This is the Python original's db_diff_change scorer.
 *
 * @module
 */
import { diffDatabaseDiffs } from "../../diff/diff_of_diffs.ts";
import { diffFromJson, diffToJson } from "../../diff/json.ts";
import type { DatabaseDiff } from "../../diff/types.ts";
import { explainMatch, parseSelector } from "../../../selector/mod.ts";
import type { Selector } from "../../../selector/types.ts";
import type { Agent } from "../agent.ts";
import { copyAgentDb, diffAgentCopy } from "../agent_db.ts";
import { Check, type CheckContext, type CheckResult, ERROR, FAIL, PASS } from "../check.ts";
import type { TestCase } from "../case.ts";
import type { Trace } from "../trace.ts";
import { cannotTell, dbStage, droppedRows, missingDiff, oneLine } from "./db_expect.ts";

/**
 * What the agent's changes are compared with.
 *
 * @example
 * ```ts
 * import { DbDiffChange, type DbDiffChangeOptions } from "./db_diff_change.ts";
 * import { diffSqliteDatabases } from "../../diff/diff_sqlite.ts";
 * import { Trace } from "../trace.ts";
 * import { defineCase } from "../cases.ts";
 * // a saved reference diff (e.g. a run file's db_diff) instead of a reference agent
 * const saved = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const options: DbDiffChangeOptions = { reference: saved };
 * const check = new DbDiffChange({ rows: { added: { where: { role: "admin" } } } }, options);
 * // the agent made exactly the reference's changes, so none is its own
 * const result = await check.run(Trace.simple("Q", { answer: "done" }), defineCase({ question: "Q" }), {
 *   dbDiff: saved,
 * });
 * [result].flat()[0]?.status; // "FAIL"
 * ```
 */
export interface DbDiffChangeOptions {
  /**
   * A reference agent, run on its own fresh copy of the --agent-db file for
   * the same question, or a saved reference diff: a DatabaseDiff, or the
   * parsed JSON of one (a run file's `db_diff`, a `--json` diff document).
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
   * @throws {TypeError} when the reference is neither a function nor a diff document
   */
  constructor(selector: unknown, options: DbDiffChangeOptions) {
    super();
    this.#selector = parseSelector(selector);
    this.#reference = typeof options.reference === "function"
      ? options.reference
      : savedDiff(options.reference);
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
      return this.result(stage, ERROR, missingDiff("db_diff_change", context));
    }
    let reference: DatabaseDiff;
    if (typeof this.#reference === "function") {
      if (context.agentDb === undefined) {
        return this.result(stage, ERROR, missingDiff("db_diff_change", context));
      }
      const copy = copyAgentDb(context.agentDb);
      try {
        await this.#reference(testCase.question, { dbPath: copy.dbPath });
        reference = await diffAgentCopy(context.agentDb, copy.dbPath, {}, context.agentDbDiff);
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
      const aligned = alignNames(this.#reference, context.dbDiff);
      if (typeof aligned === "string") return this.result(stage, ERROR, aligned);
      reference = aligned;
    }
    // Rows past max_rows are counted but not kept, so they cannot be paired:
    // an extra change among them would be invisible, and a kept one may be
    // the reference's dropped twin. No verdict on the agent's own changes holds.
    const dropped = [
      ...droppedRows(reference).map((d) => `reference: ${d}`),
      ...droppedRows(context.dbDiff).map((d) => `agent: ${d}`),
    ];
    if (dropped.length > 0) {
      return this.result(
        stage,
        ERROR,
        `cannot tell the agent's own changes apart: the diffs dropped rows (${dropped.join("; ")})`,
      );
    }
    const { afterOnly } = diffDatabaseDiffs(reference, context.dbDiff);
    const { matched, text } = explainMatch(afterOnly, this.#selector);
    if (matched === null) return this.result(stage, ERROR, cannotTell(text));
    return this.result(
      stage,
      matched ? PASS : FAIL,
      `changes only the agent made: ${oneLine(text)}`,
    );
  }
}

/**
 * A saved reference diff in the in-memory form diffDatabaseDiffs compares:
 * the parsed JSON of a saved diff holds `{"$bigint": ...}` and
 * `{"$blob": ...}` where the engine has bigints and bytes, and those rows
 * would never pair with the agent's. Round-tripping through the JSON form
 * accepts both and checks the shape once, here, instead of crashing in every
 * case's run.
 */
function savedDiff(reference: unknown): DatabaseDiff {
  try {
    return diffFromJson(diffToJson(reference as DatabaseDiff));
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new TypeError(
      `dbDiffChange(): the reference must be an agent function or a diff (from diffSqliteDatabases, or diffFromJson of a saved one); ${
        why.charAt(0).toLowerCase() + why.slice(1)
      }`,
      { cause: e },
    );
  }
}

/**
 * diffDatabaseDiffs pairs databases by name, and the agent's diff names its
 * database after the --agent-db file. A reference diff saved from other
 * files (`db diff users.db ref_after.db` names it "ref_after.db") would then
 * share nothing with it, and every change the reference made would count as
 * the agent's own. A reference holding one database is therefore the agent's
 * database whatever its name; with several, one must carry the agent's name.
 *
 * @returns the reference to compare, or why it cannot be compared
 */
function alignNames(reference: DatabaseDiff, agent: DatabaseDiff): DatabaseDiff | string {
  const [ref] = reference.databases;
  const [own] = agent.databases;
  if (ref === undefined || own === undefined || agent.databases.length !== 1) return reference;
  if (reference.databases.some((d) => d.name === own.name)) return reference;
  if (reference.databases.length === 1) {
    return { ...reference, databases: [{ ...ref, name: own.name }] };
  }
  const names = reference.databases.map((d) => JSON.stringify(d.name)).join(", ");
  return `the reference diff has no database named "${own.name}" (it has ${names}); save the reference diff of that database`;
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
