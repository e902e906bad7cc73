/**
 * The checks that other rooms add to a run: the judge's (lib/judge) and the
 * counterexample search's (lib/counterexample). Each room registers a
 * {@link CheckSource} when it is loaded; {@link evaluate} asks every
 * registered source for its checks, so the harness imports neither room.
 * `mod.ts` loads both, so every user of the library gets them.
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
 * A room that adds checks to the cases of a run.
 *
 * @example
 * ```ts
 * import { type CheckSource, registerCheckSource } from "./check_sources.ts";
 * const polite: CheckSource = {
 *   name: "polite",
 *   place: "after-rules",
 *   checks: () => [{ name: "polite", run: () => ({ stage: "answer", status: "PASS", detail: "" }) }],
 * };
 * registerCheckSource(polite);
 * ```
 */
export interface CheckSource {
  /** The source's name; registering a name again replaces the earlier source. */
  readonly name: string;
  /** Where its checks go: after the built-in checks and before the rules, or after the rules. */
  readonly place: "before-rules" | "after-rules";
  /**
   * The checks for a case evaluated with these options: none when the run
   * does not ask for them (no judge, no --counterexamples).
   */
  checks(options: EvaluateOptions): readonly CheckLike[];
}

const sources = new Map<string, CheckSource>();

/**
 * Adds a source of checks (or replaces the one of the same name). Rooms call
 * it once, when loaded.
 *
 * @param source the source
 * @example
 * ```ts
 * import { registerCheckSource, registeredChecks } from "./check_sources.ts";
 * registerCheckSource({ name: "none", place: "after-rules", checks: () => [] });
 * registeredChecks("after-rules", {}).length >= 0; // true
 * ```
 */
export function registerCheckSource(source: CheckSource): void {
  sources.set(source.name, source);
}

/**
 * The registered sources' checks for one place, in registration order.
 *
 * @param place before or after the rules
 * @param options the options the case is evaluated with
 * @returns the checks
 * @example
 * ```ts
 * import { registeredChecks } from "./check_sources.ts";
 * registeredChecks("before-rules", {}); // [] unless a source adds checks without being asked
 * ```
 */
export function registeredChecks(
  place: CheckSource["place"],
  options: EvaluateOptions,
): CheckLike[] {
  return [...sources.values()].filter((s) => s.place === place).flatMap((s) => [
    ...s.checks(options),
  ]);
}
