/**
 * The checks a run takes from other rooms, as one list the CLI and the
 * library share: the counterexample search's (with `counterexamples`) and
 * the judge's (with a `judge`). The harness (lib/eval) is handed this list
 * (`checkSources`) and imports neither room; the library's entry points here
 * pass it unless the caller gives its own, so `evaluate(trace, c, { judge })`
 * from mod.ts runs the judge checks as documented.
 *
 * @module
 */
import type { CheckSource } from "../eval/check_sources.ts";
import { COUNTEREXAMPLE_CHECK_SOURCE } from "../counterexample/check.ts";
import { JUDGE_CHECK_SOURCE } from "../judge/judge_checks.ts";
import * as evaluation from "../eval/evaluate.ts";
import * as suite from "../eval/suite.ts";
import * as repeat from "../eval/repeat.ts";
import * as loop from "../eval/run_loop.ts";

/**
 * The sources of checks a run uses unless told otherwise, in the order their
 * checks are added (a source's place puts it before or after the rules).
 *
 * @example
 * ```ts
 * import { DEFAULT_CHECK_SOURCES } from "./check_sources.ts";
 * DEFAULT_CHECK_SOURCES.map((s) => s.name); // ["counterexample", "judge"]
 * ```
 */
export const DEFAULT_CHECK_SOURCES: readonly CheckSource[] = [
  COUNTEREXAMPLE_CHECK_SOURCE,
  JUDGE_CHECK_SOURCE,
];

/**
 * The options with the default sources of checks, unless they name their own.
 *
 * @param options a run's options
 * @returns the options with `checkSources`
 * @example
 * ```ts
 * import { withDefaultChecks } from "./check_sources.ts";
 * import type { SuiteOptions } from "../eval/suite.ts";
 * const options: SuiteOptions = { concurrency: 2 };
 * withDefaultChecks(options).checkSources?.length; // 2
 * withDefaultChecks({ ...options, checkSources: [] }).checkSources?.length; // 0
 * ```
 */
export function withDefaultChecks<
  O extends { readonly checkSources?: readonly CheckSource[] | undefined },
>(
  options: O,
): O {
  return options.checkSources === undefined
    ? { ...options, checkSources: DEFAULT_CHECK_SOURCES }
    : options;
}

/**
 * lib/eval's `evaluate` with {@link DEFAULT_CHECK_SOURCES}: checks what an
 * agent did against a case; a `judge` adds the judge checks.
 *
 * @param trace what the agent did
 * @param testCase the case
 * @param options reference rows, rules, judge, ...
 * @returns the scorecard
 * @example
 * ```ts
 * import { evaluate } from "./check_sources.ts";
 * import { Trace } from "../eval/trace.ts";
 * const card = await evaluate(Trace.simple("Hi?", { answer: "Hello." }), { question: "Hi?" }, {
 *   judge: () => "PASS",
 * });
 * card.checks.some((c) => c.name === "relevant"); // true
 * ```
 */
export function evaluate(
  ...[trace, testCase, options = {}]: Parameters<typeof evaluation.evaluate>
): ReturnType<typeof evaluation.evaluate> {
  return evaluation.evaluate(trace, testCase, withDefaultChecks(options));
}

/**
 * lib/eval's `runCase` with {@link DEFAULT_CHECK_SOURCES}: asks the agent one
 * case and checks what it did.
 *
 * @param testCase the case
 * @param agent the agent
 * @param options execute, rules, judge, timeout, ...
 * @returns the scorecard
 * @example
 * ```ts
 * import { runCase } from "./check_sources.ts";
 * import { defineCase } from "../eval/cases.ts";
 * const card = await runCase(defineCase({ question: "Q" }), () => { throw new Error("boom"); });
 * card.error; // "agent raised: boom"
 * ```
 */
export function runCase(
  ...[testCase, agent, options = {}]: Parameters<typeof evaluation.runCase>
): ReturnType<typeof evaluation.runCase> {
  return evaluation.runCase(testCase, agent, withDefaultChecks(options));
}

/**
 * lib/eval's `checkQuestion` with {@link DEFAULT_CHECK_SOURCES}: asks the
 * agent one question and checks it against the reference SQL.
 *
 * @param agent the agent
 * @param question the question
 * @param referenceSql the correct query, or undefined
 * @param options execute, rules, judge, timeout
 * @returns the scorecard
 * @example
 * ```ts
 * import { checkQuestion } from "./check_sources.ts";
 * const execute = (_sql: string) => [{ total: 2 }];
 * const agent = () => ({ sql: "SELECT 2 AS total", rows: [{ total: 2 }] });
 * (await checkQuestion(agent, "How many?", "SELECT 2 AS total", { execute })).verdict; // "PASS"
 * ```
 */
export function checkQuestion(
  ...[agent, question, referenceSql, options = {}]: Parameters<typeof evaluation.checkQuestion>
): ReturnType<typeof evaluation.checkQuestion> {
  return evaluation.checkQuestion(agent, question, referenceSql, withDefaultChecks(options));
}

/**
 * lib/eval's `runSuite` with {@link DEFAULT_CHECK_SOURCES}: runs every case
 * against the agent.
 *
 * @param cases the cases
 * @param agent the agent
 * @param options executor, rules, judge, concurrency, timeout, tags, progress
 * @returns the result
 * @example
 * ```ts
 * import { runSuite } from "./check_sources.ts";
 * import { defineCase } from "../eval/cases.ts";
 * const cases = [defineCase({ question: "1 + 1?", expect: { rows: [{ n: 2 }] } })];
 * (await runSuite(cases, () => ({ rows: [{ n: 2 }] }))).exitCode; // 0
 * ```
 */
export function runSuite(
  ...[cases, agent, options = {}]: Parameters<typeof suite.runSuite>
): ReturnType<typeof suite.runSuite> {
  return suite.runSuite(cases, agent, withDefaultChecks(options));
}

/**
 * lib/eval's `runRepeated` with {@link DEFAULT_CHECK_SOURCES}: runs the
 * suite `repeat` times, a case's verdict from its pass rate.
 *
 * @param cases the cases
 * @param agent the agent
 * @param options the suite's options, `repeat` and `minPassRate`
 * @returns the result, with `attempts` on every case
 * @example
 * ```ts
 * import { runRepeated } from "./check_sources.ts";
 * import { defineCase } from "../eval/cases.ts";
 * const cases = [defineCase({ id: "two", question: "1 + 1?", expect: { rows: [{ n: 2 }] } })];
 * const result = await runRepeated(cases, () => ({ rows: [{ n: 2 }] }), { repeat: 2 });
 * result.cases[0]?.attempts?.length; // 2
 * ```
 */
export function runRepeated(
  ...[cases, agent, options]: Parameters<typeof repeat.runRepeated>
): ReturnType<typeof repeat.runRepeated> {
  return repeat.runRepeated(cases, agent, withDefaultChecks(options));
}

/**
 * lib/eval's `runLoop` with {@link DEFAULT_CHECK_SOURCES}: the one case loop
 * of a run, a feed of cases told to observers.
 *
 * @param feed the cases, in order
 * @param agent the agent
 * @param options what every case takes, and how many run at once
 * @param needs whether any case has reference_sql, or expects database changes
 * @param observers told of the start, each case and the end
 * @returns the run's figures
 * @example
 * ```ts
 * import { runLoop } from "./check_sources.ts";
 * import { arrayFeed } from "../eval/suite.ts";
 * import { defineCase } from "../eval/cases.ts";
 * const { feed, needs } = arrayFeed([defineCase({ question: "Hi?" })]);
 * const verdicts: string[] = [];
 * await runLoop(feed, () => "Hello", {}, needs, [{ caseDone: (r) => void verdicts.push(r.verdict) }]);
 * verdicts; // ["PASS"]
 * ```
 */
export function runLoop(
  ...[feed, agent, options, needs, observers]: Parameters<typeof loop.runLoop>
): ReturnType<typeof loop.runLoop> {
  return loop.runLoop(feed, agent, withDefaultChecks(options), needs, observers);
}
