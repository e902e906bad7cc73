/**
 * What SQLite checks of each sqlite_schema row as it loads a schema
 * (prepare.c sqlite3InitCallback, build.c sqlite3CheckObjectName), checked
 * of the rows the file reader read: a diff that SQLite never reads for
 * (its rows paired from cells) must still refuse a file whose schema
 * SQLite refuses ("malformed database schema"), where a damaged byte made
 * a row's name, type or table name disagree with its SQL, its SQL not a
 * CREATE statement, or an automatic index's name one no table makes.
 *
 * - SQL that is neither NULL nor empty begins with CREATE (SQLite looks at
 *   its first two letters), and the object it creates has the row's type,
 *   name and table name (ASCII letters compared in either case): a table,
 *   view or virtual table is its own table; an index or trigger names the
 *   table after its ON.
 * - A row without SQL is an automatic index: its name is
 *   `sqlite_autoindex_TABLE_N` for a table the rows before it create, with
 *   N no larger than that table's UNIQUE and PRIMARY KEY constraints.
 *
 * What only SQLite's parser can tell (SQL that does not parse past its
 * name, a column an index names that its table lacks) is left to SQLite,
 * where SQLite reads the file.
 *
 * @module
 */
import type { PageSource } from "../sqlite_format/page_source.ts";
import type { SchemaRow } from "../sqlite_format/schema_rows.ts";
import { sqlTokens, type Token } from "./_create_table.ts";

/** ASCII letters folded to lower case, as sqlite3_stricmp compares them. */
function fold(s: string): string {
  return /[A-Z]/.test(s) ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : s;
}

/** Whether two names are one to sqlite3_stricmp. */
function same(a: string, b: string): boolean {
  return a === b || (a.length === b.length && fold(a) === fold(b));
}

/** A name token's text: an identifier as written, a quoted one unquoted. */
function nameOf(sql: string, t: Token | undefined): string | null {
  if (t === undefined) return null;
  if (t.kind === "id") return sql.slice(t.start, t.end);
  return t.kind === "q" ? t.text : null;
}

/** What a CREATE statement creates. */
interface Created {
  readonly type: string;
  readonly name: string;
  readonly table: string;
}

/**
 * How many tokens of a CREATE statement are read for what it creates: an
 * index's or trigger's ON further on is not looked for.
 */
const HEAD_TOKENS = 64;

/** An identifier as most schemas write them: no quotes, no spaces. */
const PLAIN = "([A-Za-z_][A-Za-z0-9_$]*)";
/**
 * The common statement heads, read without the tokenizer (a schema may
 * have thousands of rows): a plain name followed by what can only follow
 * a name (not a "." of main.t).
 */
const HEADS: readonly [RegExp, string][] = [
  [new RegExp(`^CREATE\\s+TABLE\\s+${PLAIN}(?=\\s*\\()`, "i"), "table"],
  [new RegExp(`^CREATE\\s+VIRTUAL\\s+TABLE\\s+${PLAIN}(?=\\s+USING\\b)`, "i"), "table"],
  [new RegExp(`^CREATE\\s+VIEW\\s+${PLAIN}(?=\\s*\\(|\\s+AS\\b)`, "i"), "view"],
  [
    new RegExp(`^CREATE\\s+(?:UNIQUE\\s+)?INDEX\\s+${PLAIN}\\s+ON\\s+${PLAIN}(?=\\s*\\()`, "i"),
    "index",
  ],
];

/** The type, name and table name of what `sql` creates, or null when its head does not say. */
function created(sql: string): Created | null {
  for (const [head, type] of HEADS) {
    const m = head.exec(sql);
    if (m !== null) return { type, name: m[1]!, table: m[2] ?? m[1]! };
  }
  return tokenized(sql);
}

/** {@link created} of any statement, read with SQLite's tokens. */
function tokenized(sql: string): Created | null {
  const tokens = sqlTokens(sql, HEAD_TOKENS);
  if (tokens === null) return null;
  // A name is known when a token follows it (else "main" of main.t may be cut from its ".t").
  const whole = (k: number) => k + 1 < tokens.length || tokens.length < HEAD_TOKENS;
  let i = 1;
  const word = (...w: string[]) => tokens[i]?.kind === "id" && w.includes(tokens[i]!.text);
  if (word("TEMP", "TEMPORARY")) i++;
  if (word("UNIQUE")) i++;
  let type: string;
  if (word("VIRTUAL")) {
    i++;
    if (!word("TABLE")) return null;
    type = "table";
  } else if (word("TABLE", "INDEX", "VIEW", "TRIGGER")) type = tokens[i]!.text.toLowerCase();
  else return null;
  i++;
  if (word("IF")) i += 3;
  // A schema name before the object's: main."x".
  if (tokens[i + 1]?.kind === "op" && tokens[i + 1]!.text === ".") i += 2;
  const name = whole(i) ? nameOf(sql, tokens[i]) : null;
  if (name === null) return null;
  if (type === "table" || type === "view") return { type, name, table: name };
  // The table an index or trigger is on: the name after the first ON.
  let on = i + 1;
  while (on < tokens.length && !(tokens[on]!.kind === "id" && tokens[on]!.text === "ON")) on++;
  let t = on + 1;
  if (tokens[t + 1]?.kind === "op" && tokens[t + 1]!.text === ".") t += 2;
  const table = whole(t) ? nameOf(sql, tokens[t]) : null;
  return table === null ? null : { type, name, table };
}

/** How many automatic indexes a CREATE TABLE can make at most: its UNIQUE and PRIMARY KEY constraints. */
function autoIndexes(sql: string): number {
  return (sqlTokens(sql) ?? []).filter((t) =>
    t.kind === "id" && (t.text === "UNIQUE" || t.text === "PRIMARY")
  ).length;
}

/**
 * Whether row `r` is a table whose SQL begins `CREATE TABLE name(`, its
 * name a plain identifier: the common row, known sound at a glance.
 */
function plainTable(r: SchemaRow): boolean {
  const { sql, name } = r;
  if (r.type !== "table" || name !== r.tbl_name || sql === null) return false;
  const first = name.charCodeAt(0);
  const letter = (first >= 0x61 && first <= 0x7a) || (first >= 0x41 && first <= 0x5a) ||
    first === 0x5f;
  return letter && sql.startsWith("CREATE TABLE ") && sql.startsWith(name, 13) &&
    sql.charCodeAt(13 + name.length) === 0x28 && /^[A-Za-z0-9_$]*$/.test(name);
}

/**
 * Checks the schema rows as SQLite does when it loads them (see the module
 * documentation), in rowid order.
 *
 * @param src the file they were read from
 * @param rows its sqlite_schema rows
 * @throws {SqliteDamageError} at the first row SQLite would refuse
 */
export function checkSchemaRows(src: PageSource, rows: readonly SchemaRow[]): void {
  // Each table's SQL, its automatic indexes counted when a row names one.
  const tables = new Map<string, string>();
  const inOrder = rows.every((r, i) => i === 0 || rows[i - 1]!.rowid < r.rowid);
  for (const r of inOrder ? rows : [...rows].sort((x, y) => x.rowid - y.rowid)) {
    const refuse = (what: string) =>
      src.damaged(r.page, `sqlite_schema's row ${JSON.stringify(r.name)} ${what}`);
    if (plainTable(r)) {
      tables.set(fold(r.name), r.sql!);
      continue;
    }
    if (r.sql === null || r.sql === "") {
      const m = /^sqlite_autoindex_(.+)_([0-9]+)$/i.exec(r.name);
      const sql = m === null ? undefined : tables.get(fold(m[1]!));
      if (m === null || sql === undefined || Number(m[2]) < 1 || Number(m[2]) > autoIndexes(sql)) {
        throw refuse("has no SQL, and is no automatic index of a table before it");
      }
      continue;
    }
    if (!/^cr/i.test(r.sql)) throw refuse("has SQL that is no CREATE statement");
    const made = created(r.sql);
    if (made === null) continue; // SQL only SQLite's parser can judge
    if (
      !same(made.type, r.type) || !same(made.name, r.name) || !same(made.table, r.tbl_name)
    ) {
      const what = (type: string, name: string, table: string) =>
        `${type} ${JSON.stringify(name)} of table ${JSON.stringify(table)}`;
      throw refuse(
        `(${what(r.type, r.name, r.tbl_name)}) has SQL that creates ${
          what(made.type, made.name, made.table)
        }`,
      );
    }
    if (made.type === "table") tables.set(fold(made.name), r.sql);
  }
}
