/**
 * Reading one side's schema: its tables with their columns and the key rows
 * are paired by, and its indexes, views and triggers.
 *
 * Which key a table gets (the same choice sqldiff.c explains, minus its
 * rowid fallback for tables without a primary key):
 *
 * ```sql
 * CREATE TABLE a(id INTEGER PRIMARY KEY, x);   -- rowid: id is the rowid
 * CREATE TABLE f(id INTEGER PRIMARY KEY DESC, x); -- primary_key: DESC is not an alias
 * CREATE TABLE b(id INT PRIMARY KEY, x);       -- primary_key: INT is not an alias
 * CREATE TABLE c(k TEXT, n, x, PRIMARY KEY(k, n)); -- primary_key (k, n), not the rowid
 * CREATE TABLE d(k TEXT PRIMARY KEY, x) WITHOUT ROWID; -- primary_key (k)
 * CREATE TABLE e(x, y);                        -- none: a multiset of whole rows
 * ```
 *
 * `sqlite_sequence` has no declared key but one row per table name, so it
 * is keyed by `name`.
 *
 * @module
 */
import type { Database } from "../sqlite/database.ts";
import type { TextEncoding } from "../sqlite_format/header.ts";
import { SqliteQueryError } from "../errors.ts";
import type { ColumnInfo, KeyKind } from "./types.ts";
import { foldName } from "./names.ts";
import { ident, stringLiteral } from "../sqlite/sql_text.ts";

/** One table of one side. */
export interface TableSchema {
  readonly name: string;
  readonly sql: string;
  /** The module name for a virtual table (`fts5`, `rtree`), else null. */
  readonly module: string | null;
  readonly withoutRowid: boolean;
  readonly columns: readonly ColumnInfo[];
  readonly key: readonly string[];
  readonly keyKind: KeyKind;
  /** A name that reaches the rowid (`rowid`, `_rowid_`, `oid`), or null. */
  readonly rowidName: string | null;
  /** The b-tree root page (0 for virtual tables). */
  readonly rootPage: number;
}

/** An index, view or trigger. */
export interface ObjectSchema {
  readonly type: "index" | "view" | "trigger";
  readonly name: string;
  readonly table: string;
  readonly sql: string;
  readonly rootPage: number;
}

/** Everything read from one side. */
export interface SideSchema {
  readonly tables: ReadonlyMap<string, TableSchema>;
  readonly objects: readonly ObjectSchema[];
  /**
   * The root page of every b-tree read: with no table filter, every one in
   * the file (the automatic indexes of UNIQUE and PRIMARY KEY too), which the
   * whole-file page comparison needs to know which pages belong to some
   * b-tree. A filtered diff compares only the named trees' pages instead.
   */
  readonly roots: readonly number[];
  /** How its text is stored, when it is read from the file's pages (else UTF-8: SQLite read it). */
  readonly encoding?: TextEncoding;
}

/** How {@link readSchema} reads a side. */
export interface ReadSchemaOptions {
  /** Rows of tables without an INTEGER key pair by rowid (`--rowid`). */
  readonly pairByRowid?: boolean;
  /**
   * Only tables this accepts (and their indexes, views and triggers) are
   * read; default every table. With thousands of tables and `--table`, only
   * the named ones cost anything.
   */
  readonly tables?: readonly string[] | null;
}

/**
 * Reads the schema of the database attached as `schema` (`main` or `aft`).
 *
 * @param db the connection
 * @param schema the schema name
 * @returns the tables (by name) and other objects
 */
export function readSchema(
  db: Database,
  schema: string,
  options: ReadSchemaOptions = {},
): SideSchema {
  const keep = options.tables ?? null;
  const from = `${ident(schema)}.sqlite_schema`;
  // Names compare as SQLite's do, ASCII case folded (lower() folds ASCII only).
  const only = keep === null
    ? ""
    : ` WHERE lower(tbl_name) IN (${keep.map((n) => stringLiteral(foldName(n))).join(", ")})`;
  const kept = db.query(
    `SELECT type, name, tbl_name, sql, rootpage FROM ${from}${only} ORDER BY name`,
  );
  const roots = kept.map((r) => Number(r["rootpage"] ?? 0)).filter((p) => p > 0);
  const names = keep === null
    ? null
    : kept.filter((r) => r["type"] === "table").map((r) => String(r["name"]));
  const columns = readColumns(db, schema, names);
  const pkIndexed = readPkIndexed(db, schema, names);
  const tables = new Map<string, TableSchema>();
  const objects: ObjectSchema[] = [];
  for (const row of kept) {
    const type = String(row["type"]);
    const name = String(row["name"]);
    const sql = row["sql"] === null ? "" : String(row["sql"]);
    const rootPage = Number(row["rootpage"] ?? 0);
    if (type === "table") {
      tables.set(
        name,
        tableSchema({
          name,
          sql,
          rootPage,
          columns: columns.get(name) ?? [],
          pkIndexed: pkIndexed.has(name),
          pairByRowid: options.pairByRowid === true,
        }),
      );
    } else if ((type === "index" || type === "view" || type === "trigger") && sql !== "") {
      // Indexes without SQL are the automatic ones behind UNIQUE and PRIMARY
      // KEY constraints: they change only with their table.
      objects.push({ type, name, table: String(row["tbl_name"]), sql, rootPage });
    }
  }
  return { tables, objects, roots };
}

/**
 * Every table's columns in one statement: 200 tables cost one query, not
 * 200 (the WHERE on type is checked before the pragma runs, so views are
 * never resolved).
 */
function readColumns(
  db: Database,
  schema: string,
  only: readonly string[] | null,
): Map<string, ColumnInfo[]> {
  // A few named tables: one query each, never a pass over every table.
  if (only !== null) return readColumnsByTable(db, schema, only);
  try {
    return readColumnsOf(db, schema, "");
  } catch (e) {
    // A virtual table whose module this build lacks cannot list its columns
    // ("no such module"), nor one whose module finds its shadow tables
    // damaged ("invalid fts5 file format"): read table by table, and give
    // that one none. Its rows are not compared anyway (they belong to the
    // module; its shadow tables are read as any table is).
    if (!(e instanceof SqliteQueryError)) throw e;
    const names = db.query(
      `SELECT name FROM ${ident(schema)}.sqlite_schema WHERE type = 'table'`,
    ).map((r) => String(r["name"]));
    return readColumnsByTable(db, schema, names);
  }
}

/** The columns of each of `names`, one query each; a virtual table its module cannot list gets none. */
function readColumnsByTable(
  db: Database,
  schema: string,
  names: readonly string[],
): Map<string, ColumnInfo[]> {
  const out = new Map<string, ColumnInfo[]>();
  const virtual = new Set(
    db.query(
      `SELECT name FROM ${
        ident(schema)
      }.sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL%'`,
    ).map((r) => String(r["name"])),
  );
  for (const name of names) {
    try {
      for (const [k, v] of readColumnsOf(db, schema, name)) out.set(k, v);
    } catch (e) {
      if (!(e instanceof SqliteQueryError) || !virtual.has(name)) throw e;
    }
  }
  return out;
}

function readColumnsOf(db: Database, schema: string, only: string): Map<string, ColumnInfo[]> {
  const out = new Map<string, ColumnInfo[]>();
  const stmt = db.prepare(
    `SELECT s.name, x.name, x.type, x."notnull", x.dflt_value, x.pk, x.hidden
     FROM ${ident(schema)}.sqlite_schema AS s
     JOIN pragma_table_xinfo(s.name, ${stringLiteral(schema)}) AS x
     WHERE s.type = 'table'${only === "" ? "" : ` AND s.name = ${stringLiteral(only)}`}`,
  );
  try {
    while (stmt.step()) {
      const table = String(stmt.value(0));
      let list = out.get(table);
      if (list === undefined) out.set(table, list = []);
      const dflt = stmt.value(4);
      list.push({
        name: String(stmt.value(1)),
        type: String(stmt.value(2) ?? ""),
        not_null: Number(stmt.value(3)) !== 0,
        default: dflt === null ? null : String(dflt),
        primary_key: Number(stmt.value(5)),
        hidden: Number(stmt.value(6)),
      });
    }
  } finally {
    stmt.finalize();
  }
  return out;
}

/**
 * The tables whose primary key has its own index (`origin = 'pk'`). In a
 * rowid table that is every primary key except a rowid alias: an INTEGER
 * PRIMARY KEY DESC looks like an alias in `table_xinfo` but is an ordinary
 * column with an index, whose values are not the rowids.
 */
function readPkIndexed(
  db: Database,
  schema: string,
  only: readonly string[] | null,
): Set<string> {
  const out = new Set<string>();
  if (only !== null && only.length === 0) return out;
  const names = only === null ? "" : ` AND s.name IN (${only.map(stringLiteral).join(", ")})`;
  const stmt = db.prepare(
    `SELECT DISTINCT s.name FROM ${ident(schema)}.sqlite_schema AS s
     JOIN pragma_index_list(s.name, ${stringLiteral(schema)}) AS i
     WHERE s.type = 'table' AND i.origin = 'pk'${names}`,
  );
  try {
    while (stmt.step()) out.add(String(stmt.value(0)));
  } finally {
    stmt.finalize();
  }
  return out;
}

/**
 * A table's schema from its sqlite_schema row, columns and whether its
 * primary key has an index of its own (see the module documentation).
 */
export function tableSchema(
  t: {
    name: string;
    sql: string;
    rootPage: number;
    columns: ColumnInfo[];
    pkIndexed: boolean;
    pairByRowid: boolean;
  },
): TableSchema {
  const module = /^\s*CREATE\s+VIRTUAL\s+TABLE\s+.*?\bUSING\s+([A-Za-z0-9_]+)/is.exec(t.sql)?.[1]
    ?.toLowerCase() ?? null;
  const { columns } = t;
  const withoutRowid = /\)\s*(?:STRICT\s*,\s*)?WITHOUT\s+ROWID\s*(?:,\s*STRICT\s*)?;?\s*$/i.test(
    t.sql,
  );
  const pk = columns.filter((c) => c.primary_key > 0).sort((a, b) => a.primary_key - b.primary_key);
  let key = pk.map((c) => c.name);
  let keyKind: KeyKind = "none";
  if (module !== null) key = [];
  else if (key.length === 0) {
    if (t.name === "sqlite_sequence" && columns.some((c) => c.name === "name")) {
      key = ["name"];
      keyKind = "primary_key";
    }
  } else if (
    !withoutRowid && !t.pkIndexed && pk.length === 1 && foldName(pk[0]!.type) === "integer"
  ) {
    keyKind = "rowid";
  } else keyKind = "primary_key";
  const names = new Set(columns.map((c) => foldName(c.name)));
  const rowidName = withoutRowid || module !== null
    ? null
    : (["rowid", "_rowid_", "oid"].find((n) => !names.has(n)) ?? null);
  if (t.pairByRowid && rowidName !== null && keyKind !== "rowid") {
    // Paired by rowid, like plain sqldiff: the key is the hidden rowid.
    key = [rowidName];
    keyKind = "rowid";
  }
  return {
    name: t.name,
    sql: t.sql,
    module,
    withoutRowid,
    columns,
    key,
    keyKind,
    rowidName,
    rootPage: t.rootPage,
  };
}

/** SQL text with runs of whitespace collapsed, to compare definitions. */
export function normalizeSql(sql: string | null): string | null {
  return sql === null ? null : sql.replace(/\s+/g, " ").trim();
}

/** The columns a row of `t` is read with (virtual-table hidden columns left out). */
export function dataColumns(t: TableSchema): string[] {
  return t.columns.filter((c) => c.hidden !== 1).map((c) => c.name);
}
