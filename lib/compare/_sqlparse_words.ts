/**
 * The part of sqlparse's lexer (0.4) that test-suite-sql-eval's
 * `remove_distinct` depends on: which spans of a query are one token, so
 * that a `distinct` inside a string, a quoted name or a comment stays, and
 * where the first statement ends (`sqlparse.parse(s)[0]` keeps only it).
 * The token rules are sqlparse's own regular expressions, in its order,
 * with its case-insensitive Latin-1 letter class.
 *
 * @module
 */

const LETTER =
  "A-Za-z\\u00C0-\\u00D6\\u00D8-\\u00DC\\u00E0-\\u00F6\\u00F8-\\u00FC\\u0131\\u017F\\u212A";
const W = "\\p{L}\\p{N}\\p{Mn}\\p{Mc}_";

/** sqlparse's rules that matter here, in its order; `word` marks the name and keyword rules. */
const RULES: readonly [RegExp, "skip" | "word" | "semicolon"][] = [
  [/(--|# ).*?(\r\n|\r|\n|$)/yu, "skip"],
  [/\/\*[\s\S]*?\*\//yu, "skip"],
  [/\s/yu, "skip"],
  [/:=|::|\*/yu, "skip"],
  [/`(``|[^`])*`/yu, "skip"],
  [/´(´´|[^´])*´/yu, "skip"],
  [new RegExp(`((?<!\\S)\\$(?:[_${LETTER}][${W}]*)?\\$)[\\s\\S]*?\\1`, "yu"), "skip"],
  [/\?/yu, "skip"],
  [new RegExp(`%(\\([${W}]+\\))?s`, "yu"), "skip"],
  [new RegExp(`(?<![${W}])[$:?][${W}]+`, "yu"), "skip"],
  [new RegExp(`\\\\[${W}]+`, "yu"), "skip"],
  [new RegExp(`(@|##|#)[${LETTER}][${W}]+`, "yu"), "skip"],
  // Names before a dot or a parenthesis and after a dot: letters and \w only.
  [new RegExp(`[${LETTER}][${W}]*(?=\\s*\\.)`, "yu"), "word"],
  [new RegExp(`(?<=\\.)[${LETTER}][${W}]*`, "yu"), "word"],
  [new RegExp(`[${LETTER}][${W}]*(?=\\()`, "yu"), "word"],
  [/-?0x[\dA-Fa-f]+/yu, "skip"],
  [/-?\d+(\.\d+)?[Ee]-?\d+/yu, "skip"],
  [new RegExp(`(?![_${LETTER}])-?(\\d+(\\.\\d*)|\\.\\d+)(?![_${LETTER}])`, "yu"), "skip"],
  [new RegExp(`(?![_${LETTER}])-?\\d+(?![_${LETTER}])`, "yu"), "skip"],
  [/'(''|\\'|[^'])*'/yu, "skip"],
  [/"(""|\\"|[^"])*"/yu, "skip"],
  [/(""|".*?[^\\]")/yu, "skip"],
  [new RegExp(`(?<![${W}\\])])(\\[[^\\]\\[]+\\])`, "yu"), "skip"],
  [new RegExp(`[0-9_${LETTER}][_$#${W}]*`, "yu"), "word"],
  [/;/yu, "semicolon"],
];

/** A token of the query: where it starts and ends, and whether it is a name or keyword. */
interface Token {
  readonly start: number;
  readonly end: number;
  readonly kind: "skip" | "word" | "semicolon";
}

function* tokens(sql: string): Generator<Token> {
  let i = 0;
  outer: while (i < sql.length) {
    for (const [re, kind] of RULES) {
      re.lastIndex = i;
      const m = re.exec(sql);
      if (m !== null && m[0].length > 0) {
        yield { start: i, end: i + m[0].length, kind };
        i += m[0].length;
        continue outer;
      }
    }
    // Anything else (operators, punctuation) is one character: never a word.
    const step = sql.codePointAt(i)! > 0xffff ? 2 : 1;
    yield { start: i, end: i + step, kind: "skip" };
    i += step;
  }
}

/** The two things `remove_distinct` does, each of which a disagreement's explanation turns off alone. */
export interface RemoveDistinctRules {
  /** Drop every `distinct` token (default true). */
  readonly distinct?: boolean;
  /** Keep only the first statement, up to and including its first `;` (default true). */
  readonly laterStatements?: boolean;
}

/**
 * test-suite-sql-eval's `remove_distinct`: the first statement of the query
 * (up to and including its first `;`) without any token that reads
 * `distinct` in any case, so `COUNT(DISTINCT x)` becomes `COUNT( x)`.
 *
 * @param sql the query
 * @param rules which of the two to do (both by default, as the official evaluator does)
 * @returns the query as the official evaluator runs it by default
 */
export function removeDistinct(sql: string, rules: RemoveDistinctRules = {}): string {
  let out = "";
  for (const t of tokens(sql)) {
    const text = sql.slice(t.start, t.end);
    if (rules.distinct !== false && t.kind === "word" && text.toLowerCase() === "distinct") {
      continue;
    }
    out += text;
    if (rules.laterStatements !== false && t.kind === "semicolon") break;
  }
  return out;
}

/**
 * What follows the query's first statement (after its first `;`, outside
 * strings, quoted names and comments), trimmed: what `remove_distinct` drops.
 *
 * @param sql the query
 * @returns the rest, "" when there is none
 */
export function laterStatements(sql: string): string {
  for (const t of tokens(sql)) {
    if (t.kind === "semicolon") return sql.slice(t.end).trim();
  }
  return "";
}

/**
 * Whether the query has a `distinct` token (outside strings, quoted names
 * and comments).
 *
 * @param sql the query
 * @returns true when `removeDistinct` changes more than the statement's end
 */
export function hasDistinct(sql: string): boolean {
  for (const t of tokens(sql)) {
    if (t.kind === "word" && sql.slice(t.start, t.end).toLowerCase() === "distinct") return true;
  }
  return false;
}
