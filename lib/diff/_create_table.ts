/**
 * The columns of a `CREATE TABLE` statement as SQLite's `pragma
 * table_xinfo` gives them, read from the statement's text without SQLite:
 * a diff of two identical files needs each table's columns and key, and
 * starting the WebAssembly engine for them cost more than reading both
 * files (bench/README.md).
 *
 * It follows SQLite's own reading (build.c): a column's declared type is
 * the text of its type words, and one of SQLite's standard type names
 * (INT, INTEGER, REAL, TEXT, BLOB, ANY) in any case reads back in upper
 * case; "GENERATED ALWAYS" before `AS` is not part of the type; a default
 * is the text of its expression; a WITHOUT ROWID table's key columns are
 * NOT NULL. Anything it does not know (a virtual table, a token it cannot
 * place) gives null, and the caller asks SQLite instead.
 *
 * @module
 */
import type { ColumnInfo } from "./types.ts";
import { foldName } from "./names.ts";

/** A column and what its key needs. */
export interface ParsedTable {
  readonly columns: ColumnInfo[];
  /**
   * Whether the primary key has an index of its own (not a rowid alias),
   * as `pragma index_list` would show with origin `pk`.
   */
  readonly pkIndexed: boolean;
  readonly withoutRowid: boolean;
  /**
   * How each field of the primary key compares, in key order: the
   * collation its index uses (the key's own COLLATE, else the column's,
   * else BINARY; the name in lower case), the column's own (which an ORDER
   * BY of the column uses), and whether it is DESC.
   */
  readonly keyFields: readonly KeyFieldText[];
}

/** One field of a primary key, as the statement declares it. */
export interface KeyFieldText {
  readonly collation: string;
  readonly columnCollation: string;
  readonly desc: boolean;
}

/** One token of a statement, located by its offsets in the text. */
export interface Token {
  /** "id" (bare word), "q" (quoted name or string), "num", "blob", "op". */
  readonly kind: "id" | "q" | "num" | "blob" | "op";
  readonly start: number;
  readonly end: number;
  /** The word in upper case (bare words), the dequoted text, or the operator. */
  readonly text: string;
}

class Unknown extends Error {}

/**
 * The tokens of SQL text as SQLite splits them (comments and spaces left
 * out), or null when a quote or blob is not closed.
 *
 * @param sql the text
 * @param limit how many tokens to read at most (the head of a statement)
 * @returns the tokens, in order
 */
export function sqlTokens(sql: string, limit = Infinity): Token[] | null {
  try {
    return tokenize(sql, limit);
  } catch (e) {
    if (e instanceof Unknown) return null;
    throw e;
  }
}

/** Whether UTF-16 unit `u` is a space (`\s`: ASCII's, or Unicode's above 127). */
function isSpace(u: number, c: string): boolean {
  return u < 0x80 ? u === 0x20 || (u >= 0x09 && u <= 0x0d) : /\s/.test(c);
}

/** Whether UTF-16 unit `u` may start an identifier: a letter, `_`, or anything above 127. */
function isIdStart(u: number): boolean {
  return (u >= 0x61 && u <= 0x7a) || (u >= 0x41 && u <= 0x5a) || u === 0x5f || u >= 0x80;
}

/** Whether UTF-16 unit `u` may go on an identifier: as {@link isIdStart}, digits and `$` too. */
function isIdPart(u: number): boolean {
  return isIdStart(u) || (u >= 0x30 && u <= 0x39) || u === 0x24;
}

function tokenize(sql: string, limit = Infinity): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n && out.length < limit) {
    const c = sql[i]!;
    const u = sql.charCodeAt(i);
    if (isSpace(u, c)) {
      i++;
      continue;
    }
    if (c === "-" && sql[i + 1] === "-") {
      while (i < n && sql[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && sql[i + 1] === "*") {
      const close = sql.indexOf("*/", i + 2);
      i = close < 0 ? n : close + 2;
      continue;
    }
    const start = i;
    if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      let text = "";
      i++;
      for (;;) {
        if (i >= n) throw new Unknown();
        if (sql[i] === close) {
          if (close !== "]" && sql[i + 1] === close) {
            text += close;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        text += sql[i++];
      }
      out.push({ kind: "q", start, end: i, text });
      continue;
    }
    if ((c === "x" || c === "X") && sql[i + 1] === "'") {
      const close = sql.indexOf("'", i + 2);
      if (close < 0) throw new Unknown();
      i = close + 1;
      out.push({ kind: "blob", start, end: i, text: sql.slice(start, i) });
      continue;
    }
    if (isIdStart(u)) {
      while (i < n && isIdPart(sql.charCodeAt(i))) i++;
      out.push({ kind: "id", start, end: i, text: sql.slice(start, i).toUpperCase() });
      continue;
    }
    if (/[0-9.]/.test(c)) {
      while (i < n && /[0-9A-Za-z_.]/.test(sql[i]!)) {
        if ((sql[i] === "e" || sql[i] === "E") && /[+-]/.test(sql[i + 1] ?? "")) i++;
        i++;
      }
      out.push({ kind: "num", start, end: i, text: sql.slice(start, i) });
      continue;
    }
    const two = sql.slice(i, i + 2);
    const op = ["||", "<=", ">=", "==", "!=", "<>", "<<", ">>", "->"].includes(two) ? two : c;
    i += op.length;
    out.push({ kind: "op", start, end: i, text: op });
  }
  return out;
}

/** Words that end a column's type and start a constraint. */
const CONSTRAINT_WORDS = new Set([
  "CONSTRAINT",
  "PRIMARY",
  "NOT",
  "NULL",
  "UNIQUE",
  "CHECK",
  "DEFAULT",
  "COLLATE",
  "REFERENCES",
  "AS",
]);

/** Words that start a table constraint. */
export const TABLE_CONSTRAINTS = new Set(["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"]);

const STANDARD_TYPES = new Set(["INT", "INTEGER", "REAL", "TEXT", "BLOB", "ANY"]);

/** Keywords an expression may hold besides names and functions. */
const EXPRESSION_WORDS = new Set([
  "AND",
  "OR",
  "NOT",
  "NULL",
  "IS",
  "ISNULL",
  "NOTNULL",
  "IN",
  "LIKE",
  "GLOB",
  "REGEXP",
  "MATCH",
  "BETWEEN",
  "ESCAPE",
  "CASE",
  "WHEN",
  "THEN",
  "ELSE",
  "END",
  "CAST",
  "AS",
  "COLLATE",
  "DISTINCT",
  "TRUE",
  "FALSE",
  "CURRENT_DATE",
  "CURRENT_TIME",
  "CURRENT_TIMESTAMP",
  "FROM",
]);

/** An item of a table constraint's PRIMARY KEY list. */
interface PkItem {
  name: string;
  /** Its COLLATE, in lower case; "" without one. */
  collate: string;
  desc: boolean;
}

interface Column {
  name: string;
  type: string;
  notNull: boolean;
  dflt: string | null;
  hidden: number;
  /** A column-constraint PRIMARY KEY; `desc` when it said DESC. */
  pk: "" | "asc" | "desc";
  /** Its COLLATE (the last one), in lower case; "" without one. */
  collate: string;
}

/**
 * Reads a `CREATE TABLE` statement's columns (see the module
 * documentation).
 *
 * @param sql the statement, as sqlite_schema holds it
 * @returns the columns and key facts, or null when SQLite must be asked
 */
export function parseCreateTable(sql: string): ParsedTable | null {
  try {
    return parse(sql);
  } catch (e) {
    if (e instanceof Unknown) return null;
    throw e;
  }
}

function parse(sql: string): ParsedTable | null {
  const t = tokenize(sql);
  let i = 0;
  const word = (w: string): boolean => t[i]?.kind === "id" && t[i]!.text === w;
  const op = (o: string): boolean => t[i]?.kind === "op" && t[i]!.text === o;
  const expect = (ok: boolean): void => {
    if (!ok) throw new Unknown();
    i++;
  };
  /** The token ranges of CHECK and generated-column expressions, resolved by SQLite when it reads the schema. */
  const expressions: [number, number][] = [];
  const expression = (): void => {
    const from = i;
    group();
    expressions.push([from, i]);
  };
  /** Skips a balanced parenthesised group starting at `(`. */
  const group = (): void => {
    expect(op("("));
    for (let depth = 1; depth > 0; i++) {
      if (i >= t.length) throw new Unknown();
      if (op("(")) depth++;
      else if (op(")")) depth--;
    }
  };
  const name = (): string => {
    const tok = t[i];
    if (tok === undefined || (tok.kind !== "id" && tok.kind !== "q")) throw new Unknown();
    i++;
    return tok.kind === "q" ? tok.text : sql.slice(tok.start, tok.end);
  };
  expect(word("CREATE"));
  if (word("TEMP") || word("TEMPORARY")) i++;
  expect(word("TABLE"));
  if (word("IF")) {
    i++;
    expect(word("NOT"));
    expect(word("EXISTS"));
  }
  name();
  if (op(".")) {
    i++;
    name();
  }
  expect(op("("));
  const columns: Column[] = [];
  let tablePk: PkItem[] | null = null;
  for (;;) {
    const tok = t[i];
    if (tok === undefined) throw new Unknown();
    if (tok.kind === "id" && TABLE_CONSTRAINTS.has(tok.text)) {
      tablePk = tableConstraint() ?? tablePk;
    } else columns.push(column());
    if (op(",")) {
      i++;
      continue;
    }
    expect(op(")"));
    break;
  }
  // Table options: WITHOUT ROWID, STRICT.
  let withoutRowid = false;
  while (i < t.length) {
    if (word("WITHOUT")) {
      i++;
      expect(word("ROWID"));
      withoutRowid = true;
    } else if (word("STRICT")) i++;
    else if (op(",") || op(";")) i++;
    else throw new Unknown();
  }

  function column(): Column {
    const col: Column = {
      name: name(),
      type: "",
      notNull: false,
      dflt: null,
      hidden: 0,
      pk: "",
      collate: "",
    };
    // The type: words (bare or quoted), then an optional (n) or (n, m).
    const typeStart = i;
    while (
      (t[i]?.kind === "id" && !CONSTRAINT_WORDS.has(t[i]!.text)) || t[i]?.kind === "q"
    ) i++;
    if (i > typeStart && op("(")) group();
    if (i > typeStart) {
      let text = sql.slice(t[typeStart]!.start, t[i - 1]!.end);
      // "GENERATED ALWAYS" reads as type words; SQLite drops them as this does.
      if (text.length >= 16 && /always$/i.test(text)) {
        text = text.slice(0, -6).trimEnd();
        if (text.length >= 9 && /generated$/i.test(text)) text = text.slice(0, -9).trimEnd();
      }
      if (/^["'`[]/.test(text)) throw new Unknown();
      col.type = STANDARD_TYPES.has(text.toUpperCase()) ? text.toUpperCase() : text;
    }
    for (;;) {
      if (word("CONSTRAINT")) {
        i++;
        name();
      } else if (word("PRIMARY")) {
        i++;
        expect(word("KEY"));
        col.pk = "asc";
        if (word("ASC")) i++;
        else if (word("DESC")) {
          i++;
          col.pk = "desc";
        }
        conflict();
        if (word("AUTOINCREMENT")) i++;
      } else if (word("NOT")) {
        i++;
        expect(word("NULL"));
        col.notNull = true;
        conflict();
      } else if (word("NULL")) {
        i++;
        conflict();
      } else if (word("UNIQUE")) {
        i++;
        conflict();
      } else if (word("CHECK")) {
        i++;
        expression();
      } else if (word("DEFAULT")) {
        i++;
        const from = t[i];
        if (from === undefined) throw new Unknown();
        if (op("(")) {
          // The text between the parentheses, as SQLite keeps it.
          group();
          col.dflt = sql.slice(from.end, t[i - 1]!.start).trim();
        } else {
          if (op("+") || op("-")) i++;
          const v = t[i];
          if (v === undefined || v.kind === "op") throw new Unknown();
          i++;
          col.dflt = sql.slice(from.start, t[i - 1]!.end);
        }
      } else if (word("COLLATE")) {
        i++;
        col.collate = name().toLowerCase();
      } else if (word("REFERENCES")) {
        i++;
        foreignKey();
      } else if (word("GENERATED")) {
        i++;
        expect(word("ALWAYS"));
      } else if (word("AS")) {
        i++;
        expression();
        col.hidden = 2;
        if (word("STORED")) {
          i++;
          col.hidden = 3;
        } else if (word("VIRTUAL")) i++;
      } else break;
    }
    return col;
  }

  function conflict(): void {
    if (!word("ON")) return;
    i++;
    expect(word("CONFLICT"));
    name();
  }

  function foreignKey(): void {
    name();
    if (op("(")) group();
    for (;;) {
      if (word("ON")) {
        i++;
        if (!word("DELETE") && !word("UPDATE")) throw new Unknown();
        i++;
        if (word("SET")) {
          i++;
          if (!word("NULL") && !word("DEFAULT")) throw new Unknown();
          i++;
        } else if (word("NO")) {
          i++;
          expect(word("ACTION"));
        } else if (word("CASCADE") || word("RESTRICT")) i++;
        else throw new Unknown();
      } else if (word("MATCH")) {
        i++;
        name();
      } else if (word("NOT") && t[i + 1]?.text === "DEFERRABLE") {
        i++;
      } else if (word("DEFERRABLE")) {
        i++;
        if (word("INITIALLY")) {
          i++;
          if (!word("DEFERRED") && !word("IMMEDIATE")) throw new Unknown();
          i++;
        }
      } else return;
    }
  }

  /** A table constraint; its columns when it is the PRIMARY KEY. */
  function tableConstraint(): PkItem[] | null {
    if (word("CONSTRAINT")) {
      i++;
      name();
    }
    if (word("PRIMARY")) {
      i++;
      expect(word("KEY"));
      expect(op("("));
      const names: PkItem[] = [];
      for (;;) {
        const item: PkItem = { name: name(), collate: "", desc: false };
        names.push(item);
        if (word("COLLATE")) {
          i++;
          item.collate = name().toLowerCase();
        }
        if (word("ASC")) i++;
        else if (word("DESC")) {
          i++;
          item.desc = true;
        }
        if (op(",")) {
          i++;
          continue;
        }
        expect(op(")"));
        break;
      }
      if (word("AUTOINCREMENT")) i++;
      conflict();
      return names;
    }
    if (word("UNIQUE")) {
      i++;
      group();
      conflict();
    } else if (word("CHECK")) {
      i++;
      expression();
    } else if (word("FOREIGN")) {
      i++;
      expect(word("KEY"));
      group();
      expect(word("REFERENCES"));
      foreignKey();
    } else throw new Unknown();
    return null;
  }

  if (columns.length === 0) return null;
  const byName = new Map(columns.map((c, k) => [foldName(c.name), k]));
  // SQLite resolves these names as it reads the schema, and a name no
  // column has makes the whole schema unreadable ("malformed database
  // schema"): such a table is SQLite's to read, which then says so.
  for (const [from, to] of expressions) {
    for (let k = from; k < to; k++) {
      const tok = t[k]!;
      if (tok.kind !== "id") continue;
      if (tok.text === "SELECT" || tok.text === "VALUES") return null;
      const next = t[k + 1];
      const prev = t[k - 1];
      if (next?.kind === "op" && next.text === "(") continue; // a function
      if (prev?.kind === "id" && (prev.text === "AS" || prev.text === "COLLATE")) continue; // a type or collation
      if (EXPRESSION_WORDS.has(tok.text) || byName.has(foldName(sql.slice(tok.start, tok.end)))) {
        continue;
      }
      return null;
    }
  }
  const columnPk = columns.filter((c) => c.pk !== "");
  if (columnPk.length > 1 || (columnPk.length > 0 && tablePk !== null)) return null;
  const pkItems = tablePk ??
    columnPk.map((c) => ({ name: c.name, collate: "", desc: c.pk === "desc" }));
  const pkAt = pkItems.map((p) => byName.get(foldName(p.name)));
  if (pkAt.some((k) => k === undefined)) return null;
  const rank = new Map(pkAt.map((k, r) => [k!, r + 1]));
  // A rowid alias: one INTEGER column, and not `INTEGER PRIMARY KEY DESC`.
  const alias = !withoutRowid && pkAt.length === 1 &&
    columns[pkAt[0]!]!.type === "INTEGER" && columns[pkAt[0]!]!.pk !== "desc";
  return {
    columns: columns.map((c, k) => ({
      name: c.name,
      type: c.type,
      not_null: c.notNull || (withoutRowid && rank.has(k)),
      default: c.hidden >= 2 ? null : c.dflt,
      primary_key: rank.get(k) ?? 0,
      hidden: c.hidden,
    })),
    pkIndexed: pkAt.length > 0 && !alias,
    withoutRowid,
    keyFields: pkItems.map((p, r) => {
      const own = columns[pkAt[r]!]!.collate || "binary";
      return { collation: p.collate || own, columnCollation: own, desc: p.desc };
    }),
  };
}
