/**
 * A small dialect-aware scan of SQL text that runs before node-sql-parser,
 * for the places where that parser reads the text differently from the
 * database (node-sql-parser 5.4, measured on this machine):
 *
 * - MySQL runs the body of a `/*! ... *\/` comment; the parser drops it, so
 *   `WHERE store_id = 's1' /*! OR 1=1 *\/` looks filtered. Rejected.
 * - MySQL reads `--1` as minus minus one (a comment needs `-- ` with a space);
 *   the parser reads it as a comment, hiding the rest of the line from the
 *   rules but not from MySQL... and the reverse. Rejected.
 * - MySQL reads `||` as OR; the parser reads it as concatenation, so
 *   `store_id = 's1' || 1=1` looks filtered. Rejected.
 * - SQLite and PostgreSQL (standard strings) take a backslash literally; the
 *   parser treats `\'` as an escaped quote, so `'s1\' OR 1=1 --'` reads as
 *   one string. Each backslash in such a string is doubled before parsing
 *   (so the parser sees the same string end as the database), and
 *   {@link unescapeLiteral} undoes the doubling in literal values.
 * - Nested block comments (`/* /* *\/ ... *\/`) nest in PostgreSQL and not
 *   elsewhere. Rejected in every dialect.
 * - A double-quoted name ends at the next `"` in SQLite and PostgreSQL; the
 *   parser reads `\"` inside it as an escaped quote, so
 *   `"a\" OR 1=1 --"` reads as one name. A backslash inside a double-quoted
 *   name is rejected (in MySQL `"..."` is a string, escapes and all).
 *
 * @module
 */

/** The result of the scan: the text to parse, or why it cannot be read safely. */
export type Scan =
  | {
    readonly ok: true;
    readonly text: string;
    readonly backslashes: Backslashes;
    /**
     * Some `(` is followed by WITH. The parser gives `(WITH o AS ...
     * SELECT ...) UNION SELECT ... FROM o` the same tree as the unparenthesized
     * form, where the WITH covers every branch; parenthesized, it covers only
     * its own.
     */
    readonly parenthesizedWith: boolean;
    /**
     * `[open, close]` offsets in `text` of the parentheses around each
     * subquery, for the retry with doubled parentheses (node-sql-parser
     * misreads `(SELECT (c) FROM t) - 1` and reads `((SELECT (c) FROM t)) - 1`).
     */
    readonly subqueries: readonly (readonly [number, number])[];
  }
  | { readonly ok: false; readonly problem: string };

/**
 * What a backslash in a parsed string literal means: `doubled` (the scan
 * doubled each one, undo it), `escapes` (MySQL escapes) or `literal`.
 */
export type Backslashes = "doubled" | "escapes" | "literal";

/** How a dialect reads strings and comments. */
interface Lexicon {
  /** `'...'` and `"..."` strings take backslash escapes (MySQL). */
  readonly backslashEscapes: boolean;
  /** `"..."` is a string, not an identifier (MySQL without ANSI_QUOTES). */
  readonly doubleQuoteIsString: boolean;
  /** `#` starts a line comment, `/*!` runs code, `--x` is not a comment, `||` is OR. */
  readonly mysql: boolean;
  /** `E'...'` strings and `$tag$...$tag$` quoting (PostgreSQL). */
  readonly postgres: boolean;
  /**
   * Whether a backslash inside a string is an escape is not known for this
   * dialect (BigQuery, Hive, Snowflake and others use escapes; the parser
   * may not), so a string with one is refused rather than guessed.
   */
  readonly backslashUnknown: boolean;
  /** Rewrite SQLite syntax node-sql-parser's sqlite build lacks (see {@link rewriteWord}). */
  readonly sqlite?: boolean;
}

const MYSQL: Lexicon = {
  backslashEscapes: true,
  doubleQuoteIsString: true,
  mysql: true,
  postgres: false,
  backslashUnknown: false,
};
const POSTGRES: Lexicon = {
  backslashEscapes: false,
  doubleQuoteIsString: false,
  mysql: false,
  postgres: true,
  backslashUnknown: false,
};
const SQLITE: Lexicon = {
  backslashEscapes: false,
  doubleQuoteIsString: false,
  mysql: false,
  postgres: false,
  backslashUnknown: false,
  sqlite: true,
};
const OTHER: Lexicon = { ...SQLITE, backslashUnknown: true, sqlite: false };

function lexiconOf(dialect: string): Lexicon {
  if (dialect === "mysql" || dialect === "mariadb") return MYSQL;
  if (dialect === "postgres" || dialect === "redshift") return POSTGRES;
  if (dialect === "sqlite") return SQLITE;
  return OTHER;
}

/**
 * Scans SQL text for constructs the parser would misread in a dialect.
 *
 * @param sql the SQL text
 * @param dialect a dialect name (`sqlite`, `postgres`, `mysql`, ...)
 * @returns the text to give the parser, or the problem
 */
export function scanSql(sql: string, dialect: string): Scan {
  const lex = lexiconOf(dialect);
  let out = "";
  let doubled = false;
  let parenthesizedWith = false;
  /** The last character of code outside comments and whitespace. */
  let lastCode = "";
  /** The code tokens so far, words upper-cased (for the rewrites' context). */
  const words: string[] = [];
  /** For each open parenthesis, the token before it (`SUBSTRING`, ...). */
  const parens: string[] = [];
  /** Offsets in `out` of the open parentheses, and whether a subquery starts there. */
  const opens: { at: number; subquery: boolean }[] = [];
  const subqueries: [number, number][] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    const next = sql[i + 1] ?? "";
    if (c === "-" && next === "-") {
      const after = sql[i + 2];
      if (lex.mysql && after !== undefined && !(/\s/.test(after) || after.charCodeAt(0) < 0x20)) {
        return {
          ok: false,
          problem: `MySQL reads "--${after}" as minus signs, not a comment; write "-- " or "- -"`,
        };
      }
      const end = sql.indexOf("\n", i);
      const stop = end < 0 ? n : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === "#" && lex.mysql) {
      const end = sql.indexOf("\n", i);
      const stop = end < 0 ? n : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === "/" && next === "*") {
      if (lex.mysql && (sql[i + 2] === "!" || sql.startsWith("M!", i + 2))) {
        return {
          ok: false,
          problem: "MySQL runs the code in /*! ... */ comments and the parser skips it",
        };
      }
      const end = sql.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end + 2;
      const body = sql.slice(i + 2, end < 0 ? n : end);
      if (body.includes("/*")) {
        return { ok: false, problem: "nested /* comments are read differently by each database" };
      }
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === ";") {
      words.push(";");
      out += c;
      i++;
    } else if (c === "|" && next === "|" && lex.mysql) {
      return {
        ok: false,
        problem: "MySQL reads || as OR and the parser as concatenation; write OR or CONCAT()",
      };
    } else if (c === "'" || (c === '"' && lex.doubleQuoteIsString)) {
      const escaped = lex.backslashEscapes ||
        (lex.postgres && c === "'" && /[eE]/.test(sql[i - 1] ?? "") &&
          !/[\w$]/.test(sql[i - 2] ?? ""));
      const end = stringEnd(sql, i, c, escaped);
      const body = sql.slice(i, end);
      if (lex.backslashUnknown && body.includes("\\")) {
        return {
          ok: false,
          problem:
            `a backslash inside a string: ${dialect} may read it as an escape and the parser may not`,
        };
      }
      if (!escaped && body.includes("\\")) {
        out += body.replaceAll("\\", "\\\\");
        doubled = true;
      } else {
        out += body;
      }
      i = end;
      lastCode = c;
    } else if (c === "[" && lex.sqlite && sql.indexOf("]", i) > i) {
      // SQLite's [bracketed] name (it ends at the first "]"), which the
      // parser does not read: the same name double-quoted.
      const end = sql.indexOf("]", i);
      const name = sql.slice(i + 1, end);
      if (name.includes("\\")) {
        return { ok: false, problem: "a backslash inside a [bracketed name]" };
      }
      out += `"${name.replaceAll('"', '""')}"`;
      i = end + 1;
      words.push('"');
      lastCode = '"';
    } else if (c === '"' || c === "`") {
      const end = stringEnd(sql, i, c, false);
      if (c === '"' && sql.slice(i, end).includes("\\")) {
        return {
          ok: false,
          problem:
            'a backslash inside a "quoted name": the database ends the name at the next " and the parser does not',
        };
      }
      out += sql.slice(i, end);
      i = end;
      lastCode = c;
    } else if (c === "$" && lex.postgres) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i, i + 64));
      if (tag !== null && !/[\w$]/.test(sql[i - 1] ?? "")) {
        const close = sql.indexOf(tag[0], i + tag[0].length);
        const stop = close < 0 ? n : close + tag[0].length;
        out += sql.slice(i, stop);
        i = stop;
      } else {
        out += c;
        i++;
      }
      lastCode = "$";
    } else if (/[A-Za-z_]/.test(c) && !/[\w$]/.test(sql[i - 1] ?? "")) {
      const word = /^[A-Za-z_][\w$]*/.exec(sql.slice(i, i + 128))![0];
      if (lastCode === "(" && /^with$/i.test(word)) parenthesizedWith = true;
      if (lastCode === "(" && /^(select|with)$/i.test(word) && opens.length > 0) {
        opens.at(-1)!.subquery = true;
      }
      const rewritten = rewriteWord(word, sql, i, lex, words, parens.at(-1) ?? "");
      out += rewritten.text;
      i += rewritten.consumed;
      words.push(word.toUpperCase());
      lastCode = "w";
    } else {
      if (!/\s/.test(c)) {
        lastCode = c;
        if (c === "(") {
          parens.push(words.at(-1) ?? "");
          opens.push({ at: out.length, subquery: false });
        }
        if (c === ")") {
          parens.pop();
          const open = opens.pop();
          if (open?.subquery === true) subqueries.push([open.at, out.length]);
        }
        words.push(c);
      }
      out += c;
      i++;
    }
  }
  const backslashes = doubled ? "doubled" : lex.backslashEscapes ? "escapes" : "literal";
  return { ok: true, text: out, backslashes, parenthesizedWith, subqueries };
}

/**
 * Words node-sql-parser's sqlite build refuses as an alias after AS
 * ("is a reserved word") that SQLite takes: `COUNT(*) AS Count`.
 */
const SQLITE_ALIASES = new Set([
  "COUNT",
  "CONTAINS",
  "READ",
  "WRITE",
  "GLOBAL",
  "SESSION",
  "LOCAL",
  "PERSIST",
  "PERSIST_ONLY",
  "LOW_PRIORITY",
  "SESSION_USER",
  "SYSTEM_USER",
  "CURRENT_USER",
  "GENERATED",
  "TRUNCATE",
  "CALL",
  "SHOW",
]);

/**
 * Rewrites of one word for syntax node-sql-parser does not read, each
 * neutral for the query model (same tables, columns, functions, nesting and
 * predicates; no rule tells a UNION from an INTERSECT):
 *
 * - sqlite, mysql: `EXCEPT` / `INTERSECT` read as `UNION` (sqlite build);
 *   `max(DISTINCT x)`: the DISTINCT is dropped; `DEC(p, s)` is `DECIMAL(p, s)`.
 * - sqlite: `OVER (ORDER BY x)` gets `PARTITION BY NULL` (the build wants
 *   one); `agg(x) FILTER (WHERE c)` reads as `agg(x) + (c)`, so `c` is
 *   seen but not taken for a WHERE; `EXPLAIN [QUERY PLAN]` at a statement's
 *   start is dropped (it runs nothing); a keyword-like alias after AS
 *   (`AS Count`) is quoted.
 * - mysql: `SUBSTRING(x FROM 2 FOR 3)` reads as `SUBSTRING(x, 2, 3)`;
 *   `CAST(x AS REAL)` as `AS DOUBLE`; tables and columns named `Match` or
 *   `Virtual` (BIRD's) are quoted unless a `(` follows (`MATCH ... AGAINST`).
 *
 * Most keep the text's length, so the parser's error positions still point
 * into the user's SQL.
 */
function rewriteWord(
  word: string,
  sql: string,
  i: number,
  lex: Lexicon,
  before: readonly string[],
  paren: string,
): { text: string; consumed: number } {
  const upper = word.toUpperCase();
  const keep = { text: word, consumed: word.length };
  const blank = (n: number) => " ".repeat(n);
  const prev = before.at(-1) ?? "";
  const rest = sql.slice(i, i + 64);
  if (!lex.sqlite && !lex.mysql) return keep;
  if (lex.sqlite && (upper === "EXCEPT" || upper === "INTERSECT")) {
    return { text: "UNION".padEnd(word.length), consumed: word.length };
  }
  if (upper === "DISTINCT" && prev === "(" && /^[A-Z_][\w$]*$/.test(before.at(-2) ?? "")) {
    const fn = before.at(-2)!;
    if (fn !== "COUNT" && fn !== "IN" && fn !== "EXISTS") {
      return { text: blank(word.length), consumed: word.length };
    }
  }
  if (upper === "DEC" && /^DEC\s*\(/i.test(rest)) return { text: "DECIMAL", consumed: word.length };
  if (lex.sqlite) {
    const over = /^OVER(\s*)\((\s*)(?=ORDER\b|\))/i.exec(rest);
    if (over !== null) {
      return { text: `OVER${over[1]}(${over[2]}PARTITION BY NULL `, consumed: over[0].length };
    }
    const filter = /^FILTER(\s*)\((\s*)WHERE\b/i.exec(rest);
    if (filter !== null) {
      return {
        text: `+${blank(5)}${filter[1]}(${filter[2]}${blank(5)}`,
        consumed: filter[0].length,
      };
    }
    if (upper === "EXPLAIN" && (prev === "" || prev === ";")) {
      const plan = /^EXPLAIN(\s+QUERY\s+PLAN\b)?/i.exec(rest)!;
      return { text: blank(plan[0].length), consumed: plan[0].length };
    }
    // Not a function call (`count(*)`): a name SQLite takes and the parser refuses.
    if (SQLITE_ALIASES.has(upper) && !/^\w+\s*\(/.test(rest) && prev !== ".") {
      return { text: `"${word}"`, consumed: word.length };
    }
    return keep;
  }
  // mysql, mariadb
  if ((upper === "FROM" || upper === "FOR") && (paren === "SUBSTRING" || paren === "SUBSTR")) {
    return { text: ",".padEnd(word.length), consumed: word.length };
  }
  if (upper === "REAL" && prev === "AS") return { text: "DOUBLE", consumed: word.length };
  if ((upper === "MATCH" || upper === "VIRTUAL") && !/^\w+\s*\(/.test(rest)) {
    return { text: `\`${word}\``, consumed: word.length };
  }
  return keep;
}

/** The index just past a quoted token starting at `start` (or the end of the text). */
function stringEnd(sql: string, start: number, quote: string, escapes: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    const c = sql[i]!;
    if (escapes && c === "\\") {
      i += 2;
    } else if (c === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else {
      i++;
    }
  }
  return sql.length;
}

/**
 * The value of a string literal as the parser returns it (raw, with `''`
 * kept and, after {@link scanSql} doubled them, doubled backslashes).
 *
 * @param raw the parser's value
 * @param backslashes what a backslash means in it
 * @returns the string the database sees
 */
export function unescapeLiteral(raw: string, backslashes: Backslashes): string {
  const unquoted = raw.replaceAll("''", "'");
  if (backslashes === "doubled") return unquoted.replaceAll("\\\\", "\\");
  if (backslashes === "escapes") return unquoted.replace(/\\(.)/gs, "$1");
  return unquoted;
}

/**
 * The text with each subquery's parentheses doubled.
 *
 * @param text the scanned text
 * @param subqueries the `[open, close]` offsets from the scan
 * @returns the new text
 */
export function doubleSubqueryParens(
  text: string,
  subqueries: readonly (readonly [number, number])[],
): string {
  const marks = subqueries.flatMap(([open, close]) => [[open, "("], [close + 1, ")"]] as const)
    .sort((a, b) => b[0] - a[0]);
  let out = text;
  for (const [at, paren] of marks) out = out.slice(0, at) + paren + out.slice(at);
  return out;
}
