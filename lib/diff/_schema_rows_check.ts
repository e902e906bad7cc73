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
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
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
 * The type, name and table name of what `sql` creates, or null when it
 * does not say: read from the statement's head, or from the whole of it
 * where a name reaches the end of the head.
 */
function created(sql: string): Created | null {
  const HEAD = 1000;
  if (sql.length > HEAD) {
    const head = createdIn(sql.slice(0, HEAD));
    if (head !== null && head.end < HEAD - 1) return head.made;
  }
  return createdIn(sql)?.made ?? null;
}

function createdIn(sql: string): { made: Created | null; end: number } | null {
  const tokens = sqlTokens(sql);
  if (tokens === null) return null;
  const made = (type: string, name: string, table: string, last: Token | undefined) => ({
    made: { type, name, table },
    end: last?.end ?? sql.length,
  });
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
  else return { made: null, end: 0 };
  i++;
  if (word("IF")) i += 3;
  // A schema name before the object's: main."x".
  if (tokens[i + 1]?.kind === "op" && tokens[i + 1]!.text === ".") i += 2;
  const name = nameOf(sql, tokens[i]);
  if (name === null) return null;
  // The name is followed by more of the statement (else it may be cut).
  if (type === "table" || type === "view") return made(type, name, name, tokens[i + 1]);
  // The table an index or trigger is on: the name after the first ON.
  let on = i + 1;
  while (on < tokens.length && !(tokens[on]!.kind === "id" && tokens[on]!.text === "ON")) on++;
  let t = on + 1;
  if (tokens[t + 1]?.kind === "op" && tokens[t + 1]!.text === ".") t += 2;
  const table = nameOf(sql, tokens[t]);
  return table === null ? null : made(type, name, table, tokens[t + 1]);
}

/** How many automatic indexes a CREATE TABLE can make at most: its UNIQUE and PRIMARY KEY constraints. */
function autoIndexes(sql: string): number {
  return (sqlTokens(sql) ?? []).filter((t) =>
    t.kind === "id" && (t.text === "UNIQUE" || t.text === "PRIMARY")
  ).length;
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
  const tables = new Map<string, number>();
  for (const r of [...rows].sort((x, y) => x.rowid - y.rowid)) {
    const refuse = (what: string) =>
      src.damaged(r.page, `sqlite_schema's row ${JSON.stringify(r.name)} ${what}`);
    if (r.sql === null || r.sql === "") {
      const m = /^sqlite_autoindex_(.+)_([0-9]+)$/i.exec(r.name);
      const most = m === null ? undefined : tables.get(fold(m[1]!));
      if (m === null || most === undefined || Number(m[2]) < 1 || Number(m[2]) > most) {
        throw refuse("has no SQL, and is no automatic index of a table before it");
      }
      continue;
    }
    if (!/^cr/i.test(r.sql)) throw refuse("has SQL that is no CREATE statement");
    const made = created(r.sql);
    if (made === null) continue; // SQL only SQLite's parser can judge
    if (
      fold(made.type) !== fold(r.type) || fold(made.name) !== fold(r.name) ||
      fold(made.table) !== fold(r.tbl_name)
    ) {
      const what = (type: string, name: string, table: string) =>
        `${type} ${JSON.stringify(name)} of table ${JSON.stringify(table)}`;
      throw refuse(
        `(${what(r.type, r.name, r.tbl_name)}) has SQL that creates ${
          what(made.type, made.name, made.table)
        }`,
      );
    }
    if (made.type === "table") tables.set(fold(made.name), autoIndexes(r.sql));
  }
}
