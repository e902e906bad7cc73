/**
 * A light SQL tokenizer: enough to find a query's literal constants and the
 * identifiers it names. It does not parse; a token it misreads only makes
 * the search try a less useful value, never a wrong claim (every candidate
 * database is judged by running the queries).
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

const NUMBER = /^(?:0x[0-9a-f]+|(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)/i;
const WORD = /^[\p{L}_][\p{L}\p{N}_$]*/u;

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
  let i = 0;
  let previous = ""; // the last significant token, to tell a unary minus
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
        if (!/^x$/i.test(previous)) strings.push(text);
      } else names.add(text.toLowerCase());
      previous = c === "'" ? "'" : "name";
      i = j + 1;
    } else if (/[0-9.]/.test(c) && NUMBER.test(rest)) {
      const m = NUMBER.exec(rest)![0];
      const n = Number(m);
      if (Number.isFinite(n)) numbers.push(previous === "-" ? -n : n);
      previous = "number";
      i += m.length;
    } else if (WORD.test(rest)) {
      const m = WORD.exec(rest)![0];
      names.add(m.toLowerCase());
      previous = m;
      i += m.length;
    } else {
      // A minus is unary after an operator, a comma, an opening parenthesis
      // or a keyword; after a name, a number or a closing parenthesis it subtracts.
      const unary = c === "-" &&
        !(previous === "name" || previous === "number" || previous === ")" ||
          (previous !== "" && WORD.test(previous) && !KEYWORDS.has(previous.toLowerCase())));
      previous = unary ? "-" : c;
      i++;
    }
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
