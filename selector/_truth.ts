/**
 * Three-valued logic for answers that may depend on rows a diff did not
 * keep: `true`, `false`, or `null` for "cannot tell" (Kleene's logic, as
 * SQL's NULL: `false AND null` is false, `true OR null` is true, `NOT null`
 * is null).
 *
 * @module
 */

/** True, false, or null when the rows a diff kept cannot tell. */
export type Truth = boolean | null;

/** Every answer holds; false as soon as one is false, null when none is false but one is null. */
export function every<T>(items: Iterable<T>, answer: (item: T) => Truth): Truth {
  let result: Truth = true;
  for (const item of items) {
    const a = answer(item);
    if (a === false) return false;
    if (a === null) result = null;
  }
  return result;
}

/** Some answer holds; true as soon as one is true, null when none is true but one is null. */
export function some<T>(items: Iterable<T>, answer: (item: T) => Truth): Truth {
  let result: Truth = false;
  for (const item of items) {
    const a = answer(item);
    if (a === true) return true;
    if (a === null) result = null;
  }
  return result;
}

/** Not: null stays null. */
export function negate(a: Truth): Truth {
  return a === null ? null : !a;
}

/** `match`, `no match` or `cannot tell`, as the explanations say it. */
export function verdictWord(a: Truth): string {
  return a === null ? "cannot tell" : a ? "match" : "no match";
}
