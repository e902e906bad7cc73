/**
 * NumbersGrounded: every number in the answer text is in the result rows.
 *
 * @module
 */
import { Check, type CheckContext, type CheckResult, FAIL, PASS, SKIP } from "../lib/eval/check.ts";
import type { TestCase } from "../lib/eval/case.ts";
import type { Trace } from "../lib/eval/trace.ts";
import {
  normalizeNumber,
  numbersInText,
  type TextNumber,
  textNumberValues,
} from "../lib/compare/normalize.ts";
import { pyList } from "./query_model.ts";

const ORDINAL = /^(?:st|nd|rd|th)\b/i;

/**
 * Passes when every number written in the last answer stage is a value of
 * the last execute stage's rows, compared after the row comparison's
 * normalisation (lib/compare/normalize.ts): thousands separators dropped,
 * rounded to the case's `precision` (default 2) - or to the decimals the
 * answer wrote, when fewer - and a percentage matching either its value or
 * its fraction (`12.5%` is 12.5 or 0.125). The sign is not looked at.
 *
 * Numbers that are not data: ordinals (`3rd`) are ranks and are skipped; a
 * number the question itself contains (`top 5`, `in 2023`) is grounded;
 * numbers inside text cells (a date `2024-03-01` grounds 2024, 3 and 1)
 * count as row values.
 *
 * @example
 * ```ts
 * import { NumbersGrounded } from "./numbers_grounded.ts";
 * import { Trace } from "../lib/eval/trace.ts";
 * const trace = Trace.simple("How much?", { rows: [{ total: 2000 }], answer: "It is 2,000 or 11900." });
 * const result = await new NumbersGrounded().run(trace);
 * // { name: "numbers_grounded", stage: "answer", status: "FAIL", detail: "not in the rows: ['11900']" }
 * ```
 */
export class NumbersGrounded extends Check {
  /** The check name. */
  readonly name = "numbers_grounded";

  /**
   * @param trace what the agent did
   * @param testCase the case, for its precision
   * @param _context unused
   * @returns PASS, FAIL, or SKIP without an answer text or rows
   */
  run(trace: Trace, testCase?: TestCase, _context?: CheckContext): CheckResult {
    const answer = trace.lastOf("answer");
    if (answer === undefined || typeof answer.output !== "string") {
      return this.result(answer?.name ?? "answer", SKIP, "no answer text in the trace");
    }
    const rows = trace.lastOf("execute")?.rows;
    if (rows === undefined) return this.result(answer.name, SKIP, "no rows in the trace");
    const precision = testCase?.precision ?? 2;
    const text = answer.output;
    const found = numbersInText(text).filter((n) => !isOrdinal(n, text));
    if (found.length === 0) return this.result(answer.name, PASS, "no numbers in the answer");
    const cells = rows.flatMap((r) => Object.values(r as Record<string, unknown>));
    const asked = numbersInText(trace.question);
    const grounded = new Map<number, Set<string>>();
    const rowValues = (p: number): Set<string> => {
      let set = grounded.get(p);
      if (set === undefined) {
        set = new Set();
        for (const cell of cells) {
          const n = normalizeNumber(cell, p);
          if (n !== null) addBothSigns(set, n);
          else if (typeof cell === "string") {
            for (const t of numbersInText(cell)) for (const v of plain(t, p)) set.add(v);
          }
        }
        for (const q of asked) for (const v of plain(q, p)) set.add(v);
        grounded.set(p, set);
      }
      return set;
    };
    const missing = found.filter((n) => {
      const decimals = Math.min(precision, (n.value.split(".")[1] ?? "").length);
      return ![precision, decimals].some((p) => {
        const set = rowValues(p);
        return textNumberValues(n, p, { ignoreSign: true }).some((v) => set.has(v));
      });
    });
    if (missing.length === 0) return this.result(answer.name, PASS, `${found.length} number(s)`);
    return this.result(answer.name, FAIL, `not in the rows: ${pyList(missing.map((n) => n.text))}`);
  }
}

function isOrdinal(n: TextNumber, text: string): boolean {
  return !n.percent && ORDINAL.test(text.slice(n.index + n.text.length));
}

/** A number found in a text cell or the question, without sign or percent reading. */
function plain(n: TextNumber, precision: number): string[] {
  return textNumberValues({ ...n, percent: false }, precision, { ignoreSign: true });
}

function addBothSigns(set: Set<string>, v: string): void {
  set.add(v);
  set.add(v.startsWith("-") ? v.slice(1) : v === "0" ? v : `-${v}`);
}
