/**
 * The where clause's comparison operators, `$eq` to `$regex`: one entry per
 * operator in a `Record<OperatorName, Operator>`, so adding one is one entry
 * here and one row in the tests, and forgetting one is a compile error.
 *
 * Values compare with {@link compareValues} / {@link sameValue}, the one
 * comparison the diff engine uses too:
 * - `$eq`, `$not-eq`, `$in`, `$not-in` use SQLite's IS: NULL equals NULL,
 *   1 equals 1.0, but 1 and "1" differ; `true`/`false` stand for 1/0;
 * - `$gt`, `$gte`, `$lt`, `$lte` order numbers with numbers (bigint exactly)
 *   and text with text; any other pair (number vs text, NULL) is false;
 * - `$regex` searches text only (unanchored, JavaScript syntax; a leading
 *   `(?i)` ignores case); a number, NULL or BLOB never matches.
 *
 * @module
 */
import * as v from "valibot";
import { compareValues, sameValue, type SqliteValue } from "../lib/sqlite/value.ts";
import { dispatch, expected, list, scalar, type Schema } from "./_schema_kit.ts";
import { formatList, formatValue } from "./_text.ts";
import type { Scalar } from "./types.ts";

/** Every comparison operator of a where clause, in the order the docs list them. */
export const OPERATOR_NAMES = [
  "$eq",
  "$not-eq",
  "$in",
  "$not-in",
  "$gt",
  "$gte",
  "$lt",
  "$lte",
  "$regex",
] as const;

/**
 * A comparison operator's name.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { OperatorName } from "./operators.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const op: OperatorName = "$lt";
 * matchesDiff(diff, { rows: { added: { where: { id: { [op]: 2 } } } } }); // true: alice, id 1
 * ```
 */
export type OperatorName = typeof OPERATOR_NAMES[number];

/** A compiled comparison of one present value (a missing column never reaches it). */
export type ValueTest = (value: SqliteValue) => boolean;

/** One comparison operator. */
export interface Operator {
  readonly name: OperatorName;
  /**
   * Other names accepted for it: MongoDB's, where MongoDB's operator means
   * the same (`$ne` for `$not-eq`). Empty for most: `$eq`, `$in`, `$gt`...
   * are MongoDB's names already.
   */
  readonly aliases: readonly string[];
  /** Validates the operand in a where clause. */
  readonly operand: Schema<unknown>;
  /** Validates the operand in `$count` (numbers), or null when it cannot compare counts. */
  readonly countOperand: Schema<unknown> | null;
  /** Builds the test from a validated operand. */
  build(operand: unknown): ValueTest;
  /** Says the comparison in words: `role in ["admin","root"]`. */
  describe(subject: string, operand: unknown): string;
}

interface OperatorDefinition<T> {
  readonly aliases?: readonly string[];
  readonly operand: Schema<T>;
  readonly countOperand: Schema<T> | null;
  build(operand: T): ValueTest;
  describe(subject: string, operand: T): string;
}

function define<T>(name: OperatorName, def: OperatorDefinition<T>): Operator {
  return {
    name,
    aliases: def.aliases ?? [],
    operand: def.operand,
    countOperand: def.countOperand,
    // The operand went through `def.operand` (or `countOperand`) first.
    build: (operand) => def.build(operand as T),
    describe: (subject, operand) => def.describe(subject, operand as T),
  };
}

/** A selector value as SQLite holds it: booleans are 1 and 0. */
export function toSqlite(value: Scalar): SqliteValue {
  return typeof value === "boolean" ? (value ? 1 : 0) : value;
}

/** True when SQLite can order the two values meaningfully: both numbers or both text. */
function comparable(a: SqliteValue, b: SqliteValue): boolean {
  const numeric = (x: SqliteValue) => typeof x === "number" || typeof x === "bigint";
  return (numeric(a) && numeric(b)) || (typeof a === "string" && typeof b === "string");
}

/** A count: a whole number, at least 0. */
function countNumber(): Schema<number> {
  return dispatch((input) =>
    typeof input === "number" && Number.isInteger(input) && input >= 0
      ? v.number()
      : expected("a whole number of rows (0 or more)", input)
  );
}

/** An operand that can be ordered: a number or text. */
function orderable(): Schema<number | bigint | string> {
  return dispatch<number | bigint | string>((input) => {
    if (typeof input === "string") return v.string();
    if (typeof input === "bigint") return v.bigint();
    if (typeof input === "number" && Number.isFinite(input)) return v.number();
    if (input === null) return `cannot order NULL; use {"$eq": null} to match NULL`;
    return expected("a number or text", input);
  });
}

/**
 * Compiles a `$regex` pattern: JavaScript syntax, plus Python's leading
 * `(?i)` for ignoring case. Returns the message when it is not valid.
 */
export function compileRegex(pattern: string): RegExp | string {
  const ignoreCase = pattern.startsWith("(?i)");
  const nested = nestedRepeat(ignoreCase ? pattern.slice(4) : pattern);
  if (nested !== undefined) {
    return `regular expression ${JSON.stringify(pattern)} repeats a group that itself repeats (${
      JSON.stringify(nested)
    }), which can take exponential time on some texts; repeat one of the two only, e.g. (a+)+ as a+`;
  }
  try {
    return new RegExp(ignoreCase ? pattern.slice(4) : pattern, ignoreCase ? "i" : "");
  } catch (error) {
    return `invalid regular expression ${JSON.stringify(pattern)}: ${
      error instanceof Error ? error.message : String(error)
    }`;
  }
}

/**
 * The first group of `pattern` that repeats (`*`, `+`, `{n,}`, `{n,m}` with
 * m > 1) and holds a repeat itself, such as `(a+)+` or `(\\w+\\s?)*`: the
 * shape behind catastrophic backtracking, where a backtracking engine (every
 * JavaScript runtime's) tries exponentially many splits of a text that does
 * not match. Such patterns are refused, which bounds the work of every
 * `$regex`: without nested repeats a match takes polynomial time in the text.
 *
 * @param pattern the JavaScript pattern
 * @returns the offending group's text, or undefined
 */
export function nestedRepeat(pattern: string): string | undefined {
  // One entry per open group: where it starts and whether it holds a repeat.
  const groups: { start: number; repeats: boolean }[] = [];
  let lastGroup: { start: number; repeats: boolean } | undefined;
  let i = 0;
  const repeatAt = (at: number): number => {
    // The length of a repeating quantifier at `at`, or 0 (? and {0,1} do not repeat).
    const c = pattern[at];
    if (c === "*" || c === "+") return 1;
    if (c !== "{") return 0;
    const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at));
    if (m === null) return 0;
    const max = m[2] === undefined ? Number(m[1]) : m[3] === "" ? Infinity : Number(m[3]);
    return max > 1 ? m[0].length : 0;
  };
  while (i < pattern.length) {
    const c = pattern[i]!;
    lastGroup = undefined;
    if (c === "\\") {
      i += 2;
    } else if (c === "[") {
      // A character class: skip to its unescaped ].
      i++;
      if (pattern[i] === "^") i++;
      if (pattern[i] === "]") i++;
      while (i < pattern.length && pattern[i] !== "]") i += pattern[i] === "\\" ? 2 : 1;
      i++;
    } else if (c === "(") {
      groups.push({ start: i, repeats: false });
      i++;
    } else if (c === ")") {
      lastGroup = groups.pop();
      i++;
      const n = lastGroup === undefined ? 0 : repeatAt(i);
      if (n > 0 && lastGroup!.repeats) return pattern.slice(lastGroup!.start, i + n);
      if (n > 0 || lastGroup?.repeats) groups.forEach((g) => g.repeats = true);
      continue;
    } else {
      const n = repeatAt(i);
      if (n > 0) groups.forEach((g) => g.repeats = true);
      i += Math.max(1, n);
    }
  }
  return undefined;
}

/** A `$regex` operand: text that compiles. */
export function regexOperand(): Schema<string> {
  return dispatch((input) => {
    if (typeof input !== "string") return expected("a regular expression as text", input);
    const compiled = compileRegex(input);
    return typeof compiled === "string" ? compiled : v.string();
  });
}

function order(
  symbol: string,
  holds: (sign: number) => boolean,
): OperatorDefinition<number | bigint | string> {
  return {
    operand: orderable(),
    countOperand: countNumber(),
    build: (operand) => (value) =>
      comparable(value, operand) && holds(compareValues(value, operand)),
    describe: (subject, operand) => `${subject} ${symbol} ${formatValue(operand)}`,
  };
}

const valueList = (name: string): Schema<Scalar[]> =>
  list(scalar(), `a list of values for ${name}`, `${name} needs at least one value`);
const countList = (name: string): Schema<number[]> =>
  list(countNumber(), `a list of numbers for ${name}`, `${name} needs at least one number`);

/** The registry: every operator, by name. */
export const OPERATORS: Record<OperatorName, Operator> = {
  "$eq": define<Scalar>("$eq", {
    operand: scalar(),
    countOperand: countNumber(),
    build: (operand) => {
      const want = toSqlite(operand);
      return (value) => sameValue(value, want);
    },
    describe: (subject, operand) =>
      // "no removed row has role NULL" (not "has role is NULL").
      operand === null ? `${subject} NULL` : `${subject} = ${formatValue(operand)}`,
  }),
  "$not-eq": define<Scalar>("$not-eq", {
    aliases: ["$ne"],
    operand: scalar(),
    countOperand: countNumber(),
    build: (operand) => {
      const want = toSqlite(operand);
      return (value) => !sameValue(value, want);
    },
    describe: (subject, operand) =>
      operand === null ? `${subject} not NULL` : `${subject} != ${formatValue(operand)}`,
  }),
  "$in": define<readonly Scalar[]>("$in", {
    operand: valueList("$in"),
    countOperand: countList("$in"),
    build: (operand) => {
      const wanted = operand.map(toSqlite);
      return (value) => wanted.some((w) => sameValue(value, w));
    },
    describe: (subject, operand) => `${subject} in ${formatList(operand)}`,
  }),
  "$not-in": define<readonly Scalar[]>("$not-in", {
    aliases: ["$nin"],
    operand: valueList("$not-in"),
    countOperand: countList("$not-in"),
    build: (operand) => {
      const wanted = operand.map(toSqlite);
      return (value) => !wanted.some((w) => sameValue(value, w));
    },
    describe: (subject, operand) => `${subject} not in ${formatList(operand)}`,
  }),
  "$gt": define("$gt", order(">", (s) => s > 0)),
  "$gte": define("$gte", order(">=", (s) => s >= 0)),
  "$lt": define("$lt", order("<", (s) => s < 0)),
  "$lte": define("$lte", order("<=", (s) => s <= 0)),
  "$regex": define<string>("$regex", {
    operand: regexOperand(),
    countOperand: null,
    build: (operand) => {
      const re = compileRegex(operand) as RegExp;
      return (value) => typeof value === "string" && re.test(value);
    },
    describe: (subject, operand) => `${subject} matches /${operand}/`,
  }),
};

/**
 * Every other name an operator is accepted under, mapped to the operator
 * (`$ne` -> `$not-eq`), from the registry's `aliases`.
 */
export const OPERATOR_ALIASES: Readonly<Record<string, OperatorName>> = Object.fromEntries(
  OPERATOR_NAMES.flatMap((name) => OPERATORS[name].aliases.map((alias) => [alias, name])),
);

/**
 * MongoDB operators with no operator of the same meaning here, and what to
 * write instead: an unknown operator gets this hint before any "did you mean".
 */
export const OPERATOR_HINTS: Readonly<Record<string, string>> = {
  "$exists":
    `a where has no $exists; a row template of the column's name holds when it is not NULL ({"has_one": "role"}), and {"role": null} when it is NULL`,
  "$nor": `write {"$not": {"$or": [...]}}`,
  "$not": `$not takes a where object, one level up: {"$not": {"role": "admin"}}`,
  "$and": `$and takes where objects, one level up: {"$and": [{"role": "admin"}, ...]}`,
  "$or": `$or takes where objects, one level up: {"$or": [{"role": "admin"}, ...]}`,
  "$options": `write the flag into $regex as a leading (?i): {"$regex": "(?i)admin"}`,
};
