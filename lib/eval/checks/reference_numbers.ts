/**
 * reference_numbers: for a trace with an answer but no rows, the answer has
 * the reference value and no other number.
 *
 * @module
 */
import { Check, type CheckContext, type CheckResult, FAIL, PASS } from "../check.ts";
import type { TestCase } from "../case.ts";
import { jsonText } from "../json_text.ts";
import { normalizeNumber, numbersInText, textNumberValues } from "../../compare/normalize.ts";
import type { Row, Trace } from "../trace.ts";
import { traceRows } from "./trace_rows.ts";

/** The numbers (canonical) and texts of the reference rows. */
function referenceValues(rows: readonly Row[], precision: number) {
  const numbers = new Map<string, unknown>();
  const texts: string[] = [];
  for (const row of rows) {
    for (const value of Object.values(row)) {
      const n = normalizeNumber(value, precision);
      if (n !== null) numbers.set(n, value);
      else if (typeof value === "string" && value.trim() !== "") texts.push(value);
    }
  }
  return { numbers, texts };
}

/**
 * Reads the numbers of the answer (thousands separators, decimals,
 * negatives, percentages: see {@link numbersInText}) and compares them with
 * every value of the reference rows, rounded to the case's precision:
 *
 * - one reference value: the answer must have it, and no other number;
 * - several: every number of the answer must be a reference value, and the
 *   answer must have at least one of them (it cannot know if the answer
 *   covers all rows, as the docs warn);
 * - no rows (or only NULL): the answer must have no number but 0.
 *
 * Numbers that the question itself has (a year, "top 5") are allowed. A
 * percentage matches its value or its fraction (12.5% is 12.5 or 0.125);
 * a reference text value must appear in the answer, ignoring case.
 *
 * @example
 * ```ts
 * import { ReferenceNumbers } from "./reference_numbers.ts";
 * import { defineCase } from "../cases.ts";
 * import { Trace } from "../trace.ts";
 * const c = defineCase({ question: "How many orders?" });
 * new ReferenceNumbers().run(Trace.simple("Q", { answer: "There are 2,000." }), c, { referenceRows: [{ n: 2000 }] }); // PASS
 * ```
 */
export class ReferenceNumbers extends Check {
  readonly name = "reference_numbers";

  /**
   * @param trace what the agent did
   * @param testCase the case (question, precision)
   * @param context the reference rows
   * @returns the finding, or none when the trace has rows or no answer
   */
  run(trace: Trace, testCase: TestCase, context: CheckContext): CheckResult[] {
    const reference = context.referenceRows;
    if (reference === undefined || traceRows(trace).kind !== "none") return [];
    const stage = trace.lastOf("answer");
    if (stage === undefined || typeof stage.output !== "string") return [];
    const precision = testCase.precision;
    const { numbers, texts } = referenceValues(reference, precision);
    const inQuestion = new Set(
      numbersInText(testCase.question).flatMap((n) => textNumberValues(n, precision)),
    );
    const answer = stage.output;
    const said = numbersInText(answer).filter(
      (n) => !textNumberValues(n, precision).some((v) => inQuestion.has(v)),
    );
    const matched = new Set<string>();
    const extra: string[] = [];
    for (const n of said) {
      const hit = textNumberValues(n, precision).find((v) => numbers.has(v));
      if (hit !== undefined) matched.add(hit);
      else if (
        !(numbers.size === 0 && texts.length === 0 && n.value.replace(/[-.0]/g, "") === "")
      ) {
        extra.push(n.text);
      }
    }
    const lower = answer.toLowerCase();
    const textsFound = texts.filter((t) => lower.includes(t.toLowerCase()));
    const all = [...numbers.values(), ...texts];
    const name = stage.name;

    if (extra.length > 0) {
      const has = all.length === 0 ? "no values" : jsonText(all.slice(0, 5));
      return [
        this.result(
          name,
          FAIL,
          `the answer has ${
            extra.join(", ")
          }, which the reference result does not have (it has ${has})`,
        ),
      ];
    }
    if (all.length === 0) {
      return [this.result(name, PASS, "the reference result is empty, and so is the answer")];
    }
    if (all.length === 1) {
      return matched.size + textsFound.length === 1
        ? [this.result(name, PASS, `the answer has the reference value ${jsonText(all[0])}`)]
        : [
          this.result(
            name,
            FAIL,
            `the answer does not have the reference value ${jsonText(all[0])}`,
          ),
        ];
    }
    const count = matched.size + textsFound.length;
    return count > 0
      ? [this.result(name, PASS, `the answer has ${count} of the ${all.length} reference values`)]
      : [
        this.result(
          name,
          FAIL,
          `the answer has none of the reference values ${jsonText(all.slice(0, 5))}`,
        ),
      ];
  }
}
