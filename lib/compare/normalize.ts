/**
 * Number normalisation shared by row comparison, reference_numbers and the
 * NumbersGrounded rule: one canonical decimal text per number, rounded to a
 * case's `precision`, and a scanner for the numbers written in an answer.
 *
 * Rounding works on the shortest decimal text of a value (what a person
 * reads), half away from zero: 2.675 rounds to 2.68, -0.125 to -0.13. Working
 * on text keeps integers beyond 2^53 (bigint) exact.
 *
 * @module
 */

/** A plain decimal number written with digits: sign, integer digits, fraction digits. */
const NUMERIC_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** Also accepts `.5` and `-.5`, and a leading zero before a decimal point (`0.5`). */
const NUMERIC_TEXT_LOOSE = /^-?(?:0|[1-9][0-9]*)?(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/**
 * True when a text is a number written plainly (`"2.00"`, `"-3"`, `"1e3"`),
 * so that it compares equal to the number. Text with a leading zero
 * (`"01234"`, a postcode), spaces, signs like `+`, separators or units stays
 * text.
 *
 * @param text the text
 * @returns whether it reads as a number
 * @example
 * ```ts
 * import { isNumericText } from "./normalize.ts";
 * isNumericText("2.00"); // true
 * isNumericText("01234"); // false
 * ```
 */
export function isNumericText(text: string): boolean {
  if (NUMERIC_TEXT.test(text)) return true;
  return text.length > 1 && /[0-9]/.test(text) && NUMERIC_TEXT_LOOSE.test(text) &&
    /^-?\./.test(text);
}

/**
 * The canonical text of a number rounded to `precision` decimal places, or
 * null when `value` is not a number. Numbers, bigints, booleans (1 and 0) and
 * numeric text (see {@link isNumericText}) are numbers; `2`, `2.0` and
 * `"2.00"` all give `"2"`. Trailing zeros are dropped and `-0` is `0`.
 *
 * @param value any value
 * @param precision decimal places kept (a whole number, 0 or more)
 * @returns the canonical text, or null
 * @example
 * ```ts
 * import { normalizeNumber } from "./normalize.ts";
 * normalizeNumber("2.00", 2); // "2"
 * normalizeNumber(3.14159, 2); // "3.14"
 * normalizeNumber(12345678901234567890n, 2); // "12345678901234567890"
 * normalizeNumber("01234", 2); // null: a postcode is text
 * ```
 */
export function normalizeNumber(value: unknown, precision: number): string | null {
  if (typeof value === "bigint") return roundDecimal(value.toString(), precision);
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "NaN";
    if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
    return roundDecimal(String(value), precision);
  }
  if (typeof value === "string" && isNumericText(value)) return roundDecimal(value, precision);
  return null;
}

/**
 * Rounds a decimal text (`-12.3456`, `1e+21`, `.5`) to `precision` places,
 * half away from zero, and returns its canonical form.
 *
 * @param text a number in decimal or exponent notation
 * @param precision decimal places kept
 * @returns the canonical text
 */
export function roundDecimal(text: string, precision: number): string {
  let s = text;
  const negative = s.startsWith("-");
  if (negative || s.startsWith("+")) s = s.slice(1);
  let exponent = 0;
  const e = s.search(/[eE]/);
  if (e >= 0) {
    exponent = Number(s.slice(e + 1));
    s = s.slice(0, e);
  }
  const dot = s.indexOf(".");
  let digits = dot >= 0 ? s.slice(0, dot) + s.slice(dot + 1) : s;
  let pointAt = (dot >= 0 ? dot : s.length) + exponent;
  const places = Math.max(0, Math.floor(precision));
  // A text like "1e-999999999" or "1e999999999" must not be spelt out digit
  // by digit (a string of a billion zeros): below the last kept place it is
  // 0; with a long run of zeros it keeps the exponent form (see withExponent).
  if (pointAt < -places) return "0";
  if (pointAt - digits.length > MAX_ZEROS) {
    return withExponent(negative, digits.replace(/^0+/, ""), pointAt - digits.length);
  }
  if (pointAt < 0) {
    digits = "0".repeat(-pointAt) + digits;
    pointAt = 0;
  }
  if (pointAt > digits.length) digits += "0".repeat(pointAt - digits.length);
  let intPart = digits.slice(0, pointAt);
  let fracPart = digits.slice(pointAt);
  if (fracPart.length > places) {
    const roundUp = fracPart.charCodeAt(places) >= 53; // "5"
    fracPart = fracPart.slice(0, places);
    if (roundUp) {
      const bumped = incrementDigits(intPart + fracPart);
      const intLength = bumped.length - fracPart.length;
      intPart = bumped.slice(0, intLength);
      fracPart = bumped.slice(intLength);
    }
  }
  fracPart = fracPart.replace(/0+$/, "");
  intPart = intPart.replace(/^0+/, "") || "0";
  if (fracPart === "" && /0{1001}$/.test(intPart)) return withExponent(negative, intPart, 0);
  const body = fracPart === "" ? intPart : `${intPart}.${fracPart}`;
  return negative && /[1-9]/.test(body) ? `-${body}` : body;
}

/** Integers with more trailing zeros than this keep an exponent in their canonical text. */
const MAX_ZEROS = 1000;

/**
 * The canonical text of a whole number with a long run of trailing zeros:
 * its digits without them, `e`, and how many there are. `"1e1001"` and a 1
 * followed by 1,001 zeros both give `1e1001`.
 */
function withExponent(negative: boolean, digits: string, zeros: number): string {
  const trimmed = digits.replace(/0+$/, "");
  if (trimmed === "") return "0";
  const body = `${trimmed}e${zeros + digits.length - trimmed.length}`;
  return negative ? `-${body}` : body;
}

function incrementDigits(digits: string): string {
  const out = digits.split("");
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] === "9") {
      out[i] = "0";
    } else {
      out[i] = String(Number(out[i]) + 1);
      return out.join("");
    }
  }
  return "1" + out.join("");
}

/**
 * A number written in a text, as {@link numbersInText} finds it.
 *
 * @example
 * ```ts
 * import { numbersInText, type TextNumber } from "./normalize.ts";
 * const [found]: TextNumber[] = numbersInText("Sales fell by -1,234.5% last year.");
 * found?.text; // "-1,234.5%"
 * found?.value; // "-1234.5"
 * found?.negative; // true
 * ```
 */
export interface TextNumber {
  /** The number as written, e.g. `-1,234.5%`. */
  readonly text: string;
  /** Where it starts in the text. */
  readonly index: number;
  /** The value in plain decimal notation with its sign, e.g. `-1234.5` (the `%` is not applied). */
  readonly value: string;
  /** Written with a minus sign. */
  readonly negative: boolean;
  /** Followed by `%` or the word "percent". */
  readonly percent: boolean;
}

// A number not glued to a word before it (s1, store_2 and v2 are names, not
// numbers): optional minus (ASCII or U+2212), digits with optional thousands
// separators (comma, no-break space, narrow no-break space, thin space) in
// groups of exactly three, an optional fraction, an optional percent.
const NUMBER_IN_TEXT =
  /(?<![\p{L}\p{N}_.])([-\u2212])?((?:[0-9]{1,3}(?:[,\u00a0\u202f\u2009][0-9]{3})+|[0-9]+)(?:\.[0-9]+)?|\.[0-9]+)(?![0-9])(\s?(?:%|percent\b))?/gu;

/**
 * Finds the numbers written in a text: thousands separators (`1,234,567`),
 * decimals (`3.5`, but not the full stop in `is 2.`), negatives (`-5`, `−5`)
 * and percentages (`12.5%`, `12.5 percent`). A digit run glued to a letter
 * before it (`s1`, `Q3`) is a name, not a number; `1,2,3` is three numbers.
 *
 * @param text the text, e.g. an answer
 * @returns the numbers in order
 * @example
 * ```ts
 * import { numbersInText } from "./normalize.ts";
 * numbersInText("Revenue fell 12.5% to $1,200.50 (-3 stores).").map((n) => n.value);
 * // ["12.5", "1200.50", "-3"]
 * ```
 */
export function numbersInText(text: string): TextNumber[] {
  const found: TextNumber[] = [];
  for (const m of text.matchAll(NUMBER_IN_TEXT)) {
    const sign = m[1];
    const digits = (m[2] ?? "").replace(/[,\u00a0\u202f\u2009]/g, "");
    found.push({
      text: m[0],
      index: m.index,
      value: `${sign === undefined ? "" : "-"}${digits.startsWith(".") ? "0" + digits : digits}`,
      negative: sign !== undefined,
      percent: m[3] !== undefined,
    });
  }
  return found;
}

/**
 * The canonical values a number written in a text can stand for, rounded to
 * `precision`: its value, and for a percentage also the fraction (`12.5%` is
 * 12.5 or 0.125). With `ignoreSign`, both signs.
 *
 * @param found a number from {@link numbersInText}
 * @param precision decimal places kept
 * @param options `ignoreSign` to accept either sign
 * @returns the canonical values (see {@link normalizeNumber})
 * @example
 * ```ts
 * import { numbersInText, textNumberValues } from "./normalize.ts";
 * textNumberValues(numbersInText("12.5%")[0]!, 4); // ["12.5", "0.125"]
 * ```
 */
export function textNumberValues(
  found: TextNumber,
  precision: number,
  options: { readonly ignoreSign?: boolean } = {},
): string[] {
  const values = [roundDecimal(found.value, precision)];
  if (found.percent) values.push(roundDecimal(`${found.value}e-2`, precision));
  if (options.ignoreSign) {
    for (const v of [...values]) {
      values.push(v.startsWith("-") ? v.slice(1) : v === "0" ? v : `-${v}`);
    }
  }
  return [...new Set(values)];
}
