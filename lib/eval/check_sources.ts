/**
 * The checks that other rooms add to a run: the judge's (lib/judge) and the
 * counterexample search's (lib/counterexample). Each room exports a
 * {@link CheckSource}; a run is handed the list of sources it uses (a value,
 * not a registry filled by imports), so the harness imports neither room and
 * leaving a source out is visible where the list is written.
 *
 * @module
 */
import type { CheckLike, EvaluateOptions } from "./evaluate.ts";

/**
 * Where and how hard `run --counterexamples` searches: what the harness
 * hands to the counterexample room's check.
 *
 * @example
 * ```ts
 * import type { CounterexampleSettings } from "./check_sources.ts";
 * const settings: CounterexampleSettings = { db: "examples/chinook/Chinook_Sqlite.sqlite", budget: 200 };
 * ```
 */
export interface CounterexampleSettings {
  /** The SQLite file the reference SQL runs on (--db); only read. */
  readonly db: string;
  /** A PostgreSQL login with file or program rights is accepted (see OpenDatabaseOptions). */
  readonly allowSuperuser?: boolean | undefined;
  /** Seed of the search. Default 1. */
  readonly seed?: number | undefined;
  /** Most databases tried per case. */
  readonly budget?: number | undefined;
  /** Most seconds per case. */
  readonly timeLimit?: number | undefined;
}

/**
 * A room that adds checks to the cases of a run, when the run asks for them.
 * A run is given its sources (`checkSources` of {@link EvaluateOptions});
 * the library's entry points and the CLI pass the default list,
 * `DEFAULT_CHECK_SOURCES` of lib/run/check_sources.ts.
 *
 * @example
 * ```ts
 * import type { CheckSource } from "./check_sources.ts";
 * import { evaluate } from "./evaluate.ts";
 * import { Trace } from "./trace.ts";
 * const polite: CheckSource = {
 *   name: "polite",
 *   place: "after-rules",
 *   checks: () => [{ name: "polite", run: () => ({ stage: "answer", status: "PASS", detail: "" }) }],
 * };
 * const card = await evaluate(Trace.simple("Hi?", { answer: "Hello." }), { question: "Hi?" }, {
 *   checkSources: [polite],
 * });
 * card.checks.some((c) => c.name === "polite"); // true
 * ```
 */
export interface CheckSource {
  /** The source's name. */
  readonly name: string;
  /** Where its checks go: after the built-in checks and before the rules, or after the rules. */
  readonly place: "before-rules" | "after-rules";
  /**
   * The checks for a case evaluated with these options: none when the run
   * does not ask for them (no judge, no --counterexamples).
   */
  checks(options: EvaluateOptions): readonly CheckLike[];
}

/**
 * The sources' checks for one place, in the sources' order.
 *
 * @param sources the run's sources
 * @param place before or after the rules
 * @param options the options the case is evaluated with
 * @returns the checks
 * @example
 * ```ts
 * import { sourcedChecks } from "./check_sources.ts";
 * sourcedChecks([], "before-rules", {}); // []
 * ```
 */
export function sourcedChecks(
  sources: readonly CheckSource[],
  place: CheckSource["place"],
  options: EvaluateOptions,
): CheckLike[] {
  return sources.filter((s) => s.place === place).flatMap((s) => [...s.checks(options)]);
}
