/**
 * A light SQL tokenizer: enough to find a query's literal constants, the
 * identifiers it names, and the comparisons it makes (`atoms.ts`). It does
 * not parse; a token it misreads only makes the search try a less useful
 * value, never a wrong claim (every candidate database is judged by running
 * the queries).
 *
 * @module
 */

/** What the search takes from a query's text. */
export interface QueryWords {
  /** Numeric literals, with their sign when a unary minus precedes them. */
  readonly numbers: readonly number[];
  /** String literals. */
  readonly strings: readonly string[];
  /** Identifiers and keywords, lower-cased (quoted identifiers unquoted). */
  readonly names: ReadonlySet<string>;
}

/** One token of a query. */
export interface SqlToken {
  /**
   * `word`: an identifier or keyword; `quoted`: a quoted identifier;
   * `string`: a text literal; `blob`: an `x'..'` literal; `number`: a
   * numeric literal (a unary minus folded in); `op`: an operator or
   * punctuation, `(` and `)` included.
   */
  readonly kind: "word" | "quoted" | "string" | "blob" | "number" | "op";
  /** The text: words lower-cased, quotes removed, a number's source. */
  readonly text: string;
  /** A number's value (negative when a unary minus precedes it). */
  readonly value?: number;
  /** How many parentheses enclose it. */
  readonly depth: number;
}

const NUMBER = /^(?:0x[0-9a-f]+|(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)/i;
const WORD = /^[\p{L}_][\p{L}\p{N}_$]*/u;
const OPERATORS = ["<=", ">=", "<>", "!=", "==", "||"];

/**
 * Splits SQL into tokens; comments are skipped.
 *
 * @param sql one SQL statement
 * @returns its tokens, in order
 */
export function sqlTokens(sql: string): SqlToken[] {
  const out: SqlToken[] = [];
  let depth = 0;
  let i = 0;
  let previous = ""; // the last significant token, to tell a unary minus
  let minus = false; // a unary minus waits for its number
  while (i < sql.length) {
    const c = sql[i]!;
    const rest = sql.slice(i);
    if (/\s/.test(c)) {
      i++;
    } else if (rest.startsWith("--")) {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end + 1;
    } else if (rest.startsWith("/*")) {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      let j = i + 1;
      let text = "";
      while (j < sql.length) {
        if (sql[j] === close) {
          if (close !== "]" && sql[j + 1] === close) {
            text += close;
            j += 2;
            continue;
          }
          break;
        }
        text += sql[j];
        j++;
      }
      if (c === "'") {
        // x'00ff' is a BLOB literal, not text
        const blob = /^x$/i.test(previous);
        if (blob) out.pop();
        out.push({ kind: blob ? "blob" : "string", text, depth });
      } else out.push({ kind: "quoted", text: text.toLowerCase(), depth });
      previous = c === "'" ? "'" : "name";
      minus = false;
      i = j + 1;
    } else if (/[0-9.]/.test(c) && NUMBER.test(rest)) {
      const m = NUMBER.exec(rest)![0];
      const n = Number(m);
      if (minus) out.pop();
      out.push({ kind: "number", text: m, value: minus ? -n : n, depth });
      previous = "number";
      minus = false;
      i += m.length;
    } else if (WORD.test(rest)) {
      const m = WORD.exec(rest)![0];
      out.push({ kind: "word", text: m.toLowerCase(), depth });
      previous = m;
      minus = false;
      i += m.length;
    } else {
      // A minus is unary after an operator, a comma, an opening parenthesis
      // or a keyword; after a name, a number or a closing parenthesis it subtracts.
      const unary = c === "-" &&
        !(previous === "name" || previous === "number" || previous === ")" ||
          (previous !== "" && WORD.test(previous) && !KEYWORDS.has(previous.toLowerCase())));
      const op = OPERATORS.find((o) => rest.startsWith(o)) ?? c;
      if (c === ")") depth = Math.max(0, depth - 1);
      out.push({ kind: "op", text: op, depth });
      if (c === "(") depth++;
      previous = unary ? "-" : op[op.length - 1]!;
      minus = unary;
      i += op.length;
    }
  }
  return out;
}

/**
 * Splits SQL into its constants and names; comments are skipped.
 *
 * @param sql one SQL statement
 * @returns the literals and names it holds
 */
export function queryWords(sql: string): QueryWords {
  const numbers: number[] = [];
  const strings: string[] = [];
  const names = new Set<string>();
  let previous: SqlToken | undefined;
  for (const t of sqlTokens(sql)) {
    if (t.kind === "number") {
      // Any minus before a number is taken as its sign here, as the
      // constants always were read (a - 1 gives -1 too).
      const n = previous?.kind === "op" && previous.text === "-" ? -t.value! : t.value!;
      if (Number.isFinite(n)) numbers.push(n);
    } else if (t.kind === "string") strings.push(t.text);
    else if (t.kind === "word" || t.kind === "quoted") names.add(t.text);
    else if (t.kind === "blob") names.add("x");
    previous = t;
  }
  return { numbers, strings, names };
}

const KEYWORDS = new Set([
  "select",
  "where",
  "and",
  "or",
  "not",
  "between",
  "when",
  "then",
  "else",
  "in",
  "is",
  "like",
  "glob",
  "limit",
  "offset",
  "values",
  "on",
  "having",
  "by",
  "case",
  "return",
]);
