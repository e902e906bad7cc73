/**
 * db_change: the agent made a change to its database that a selector
 * describes (`expect.db_change`, or `dbChange(selector)` in code).
 *
 * @module
 */
import { explainMatch, parseSelector } from "../../../selector/mod.ts";
import type { Selector } from "../../../selector/types.ts";
import { Check, type CheckContext, type CheckResult, ERROR, FAIL, PASS } from "../check.ts";
import type { TestCase } from "../case.ts";
import type { Trace } from "../trace.ts";
import { cannotTell, dbStage, expectValue, missingDiff, oneLine } from "./db_expect.ts";

/**
 * Passes when the diff of the agent's database copy matches the selector.
 * Without a selector of its own it reads the case's `expect.db_change`, and
 * says nothing for a case without one.
 *
 * @example
 * ```ts
 * import { DbChange } from "./db_change.ts";
 * const promoted = new DbChange({ rows: { changed: { where: [{ role: "admin" }] } } });
 * promoted.name; // "db_change"
 * ```
 */
export class DbChange extends Check {
  readonly name: string = "db_change";
  readonly #selector: Selector | undefined;

  /**
   * @param selector the change that must happen; omit it to read `expect.db_change`
   * @throws {SelectorError} when the selector has a mistake
   */
  constructor(selector?: unknown) {
    super();
    this.#selector = selector === undefined ? undefined : parseSelector(selector);
  }

  /**
   * The selector this check asks of the agent's diff, for the harness to ask
   * while the diff runs (so it reads every row change).
   *
   * @param testCase the case
   * @returns its selector, or none
   */
  dbSelectors(testCase: TestCase): readonly unknown[] {
    const selector = this.#selector ?? expectValue(testCase, "db_change");
    return selector === undefined ? [] : [selector];
  }

  /**
   * @param trace what the agent did
   * @param testCase the case
   * @param context the database diff
   * @returns one finding, or none when there is no selector
   */
  run(trace: Trace, testCase: TestCase, context: CheckContext): CheckResult[] {
    const selector = this.#selector ?? expectValue(testCase, "db_change");
    if (selector === undefined) return [];
    const stage = dbStage(trace);
    if (context.dbDiff === undefined) {
      const what = this.#selector === undefined ? "expect.db_change" : "db_change";
      return [this.result(stage, ERROR, missingDiff(what, context))];
    }
    const { matched, text } = context.explainDb?.(selector) ??
      explainMatch(context.dbDiff, selector);
    // The answer depends on rows the diff counted but did not keep: neither
    // PASS nor FAIL is proven.
    if (matched === null) return [this.result(stage, ERROR, cannotTell(text))];
    return [this.result(stage, matched ? PASS : FAIL, oneLine(text))];
  }
}

/**
 * A check that the agent made the change a selector describes.
 *
 * @param selector the change that must happen
 * @returns the check
 * @throws {SelectorError} when the selector has a mistake
 * @example
 * ```ts
 * import { dbChange } from "./db_change.ts";
 * const rules = [dbChange({ rows: { added: { has_one: [{ title: "Call the bank" }] } } })];
 * ```
 */
export function dbChange(selector: unknown): DbChange {
  return new DbChange(selector);
}
