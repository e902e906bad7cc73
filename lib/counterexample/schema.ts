/**
 * The part of a database's schema a search needs: the tables two queries
 * read (SQLite's own EXPLAIN says which, views and all), the tables their
 * foreign keys point to, and for each its `CREATE TABLE` text verbatim, its
 * columns, keys and indexes.
 *
 * @module
 */
import type { Database } from "../sqlite/database.ts";
import type { SqliteValue } from "../sqlite/value.ts";
import { UsageError } from "../errors.ts";
import { ident } from "../sqlite/sql_text.ts";

/** How SQLite stores a column's values, from its declared type (the affinity rules). */
export type Affinity = "INTEGER" | "TEXT" | "BLOB" | "REAL" | "NUMERIC";

/** One column a search may fill. */
export interface SearchColumn {
  readonly name: string;
  readonly declaredType: string;
  readonly affinity: Affinity;
  readonly notNull: boolean;
  /** Position in the primary key (1-based), 0 when not part of it. */
  readonly pk: number;
}

/** A foreign key: `columns` of this table refer to `parentColumns` of `parent`. */
export interface SearchForeignKey {
  readonly columns: readonly string[];
  readonly parent: string;
  /** The parent's columns; the parent's primary key when the declaration names none. */
  readonly parentColumns: readonly string[];
}

/** One table a search fills. */
export interface SearchTable {
  readonly name: string;
  /** The `CREATE TABLE` statement exactly as sqlite_master holds it. */
  readonly createSql: string;
  /** Its `CREATE INDEX` statements, verbatim (UNIQUE indexes are constraints too). */
  readonly indexSql: readonly string[];
  /** The columns an INSERT gives values to (generated columns are left out). */
  readonly columns: readonly SearchColumn[];
  readonly foreignKeys: readonly SearchForeignKey[];
  /** Sets of columns whose values must be unique together (the primary key, UNIQUE). */
  readonly uniqueSets: readonly (readonly string[])[];
  /** The INTEGER PRIMARY KEY column that is the rowid, if any. */
  readonly rowidAlias: string | null;
  readonly withoutRowid: boolean;
}

/** The tables two queries need, parents before children, and the views they read. */
export interface SearchSchema {
  readonly tables: readonly SearchTable[];
  /** The names of the tables the queries read (the others are there for foreign keys). */
  readonly read: ReadonlySet<string>;
  /** `CREATE VIEW` statements the queries read, verbatim, in dependency order. */
  readonly viewSql: readonly string[];
  /**
   * A foreign key SQLite cannot enforce, when there is one (it refers to
   * columns that are neither the parent's primary key nor UNIQUE: every
   * INSERT into the child fails with "foreign key mismatch" while foreign
   * keys are on), e.g. `VOTES(state) -> AREA_CODE_STATE(state)`. Candidates
   * are then built, and the script run, with foreign keys off.
   */
  readonly foreignKeyMismatch?: string;
}

/**
 * A column's affinity, as SQLite derives it from the declared type.
 *
 * @param declared the declared type, e.g. "NVARCHAR(40)"
 * @returns the affinity
 */
export function affinityOf(declared: string): Affinity {
  const t = declared.toUpperCase();
  if (t.includes("INT")) return "INTEGER";
  if (t.includes("CHAR") || t.includes("CLOB") || t.includes("TEXT")) return "TEXT";
  if (t === "" || t.includes("BLOB")) return "BLOB";
  if (t.includes("REAL") || t.includes("FLOA") || t.includes("DOUB")) return "REAL";
  return "NUMERIC";
}

interface MasterRow {
  type: string;
  name: string;
  tbl_name: string;
  rootpage: number;
  sql: string | null;
}

// A statement that writes opens a write transaction (Transaction with P2
// non-zero) or a cursor for writing; temporary b-trees (DISTINCT, sorting)
// use OpenEphemeral and do not count.
const WRITES = new Set(["OpenWrite", "VUpdate", "Vacuum", "JournalMode", "SqlExec"]);

/**
 * The tables a query reads, by the root pages its program opens: views,
 * CTEs and subqueries are resolved by SQLite itself, not by a parser.
 *
 * @param db the database (read-only)
 * @param sql the query
 * @param option the option that gave it, for the error message
 * @returns the table names
 * @throws {UsageError} for a statement that writes or reads a virtual table
 */
export function tablesRead(db: Database, sql: string, option: string): string[] {
  const master = db.query(
    "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master",
  ) as unknown as MasterRow[];
  const byRoot = new Map(master.filter((m) => m.rootpage > 0).map((m) => [m.rootpage, m]));
  const program = db.query(`EXPLAIN ${sql}`) as unknown as {
    opcode: string;
    p2: number;
    p3: number;
  }[];
  const tables = new Set<string>();
  for (const op of program) {
    if (WRITES.has(op.opcode) || (op.opcode === "Transaction" && op.p2 !== 0)) {
      throw new UsageError(
        `${option}: the query writes to the database; the search compares read-only queries, give a SELECT`,
      );
    }
    if (op.opcode === "VOpen") {
      throw new UsageError(
        `${option}: the query reads a virtual table; the search builds ordinary tables only`,
      );
    }
    if ((op.opcode === "OpenRead" || op.opcode === "ReopenIdx") && op.p3 === 0) {
      const m = byRoot.get(op.p2);
      if (m !== undefined && m.tbl_name !== "sqlite_master" && m.tbl_name !== "sqlite_schema") {
        tables.add(m.tbl_name);
      }
    }
  }
  return [...tables];
}

function readTable(db: Database, name: string, createSql: string): SearchTable {
  const info = db.query(`PRAGMA table_xinfo(${ident(name)})`) as unknown as {
    name: string;
    type: string;
    notnull: number;
    pk: number;
    hidden: number;
  }[];
  const columns: SearchColumn[] = info.filter((c) => c.hidden === 0).map((c) => ({
    name: c.name,
    declaredType: c.type,
    affinity: affinityOf(c.type),
    notNull: c.notnull === 1,
    pk: c.pk,
  }));
  const pkColumns = [...columns].filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) =>
    c.name
  );
  const fkRows = db.query(`PRAGMA foreign_key_list(${ident(name)})`) as unknown as {
    id: number;
    table: string;
    from: string;
    to: string | null;
  }[];
  const byId = new Map<number, { columns: string[]; parent: string; to: (string | null)[] }>();
  for (const f of fkRows) {
    const fk = byId.get(f.id) ?? { columns: [], parent: f.table, to: [] };
    fk.columns.push(f.from);
    fk.to.push(f.to);
    byId.set(f.id, fk);
  }
  const foreignKeys: SearchForeignKey[] = [...byId.values()].map((fk) => ({
    columns: fk.columns,
    parent: fk.parent,
    parentColumns: fk.to.every((t) => t !== null) ? fk.to as string[] : [],
  }));
  const uniqueSets: string[][] = [];
  if (pkColumns.length > 0) uniqueSets.push(pkColumns);
  const indexes = db.query(`PRAGMA index_list(${ident(name)})`) as unknown as {
    name: string;
    unique: number;
    origin: string;
  }[];
  for (const ix of indexes) {
    if (ix.unique !== 1 || ix.origin === "pk") continue;
    const cols = db.query(`PRAGMA index_info(${ident(ix.name)})`) as unknown as {
      name: string | null;
    }[];
    if (cols.every((c) => c.name !== null)) uniqueSets.push(cols.map((c) => c.name!));
  }
  const indexSql = (db.query(
    "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY rowid",
    [name],
  ) as { sql: SqliteValue }[]).map((r) => String(r.sql));
  const withoutRowid = /\bWITHOUT\s+ROWID\s*;?\s*$/i.test(createSql);
  const single = pkColumns.length === 1 ? columns.find((c) => c.name === pkColumns[0]) : undefined;
  const rowidAlias = !withoutRowid && single !== undefined &&
      single.declaredType.toUpperCase() === "INTEGER" &&
      !/\bPRIMARY\s+KEY\s+DESC\b/i.test(createSql)
    ? single.name
    : null;
  return {
    name,
    createSql,
    indexSql,
    columns,
    foreignKeys,
    uniqueSets,
    rowidAlias,
    withoutRowid,
  };
}

/**
 * Reads the schema two queries need: the tables they read, the tables those
 * refer to by foreign key (transitively: the database must accept the rows),
 * parents first, and the views the queries name.
 *
 * @param db the database (read-only)
 * @param queries the queries and the options that gave them
 * @param names the identifiers the queries name (views are found by name)
 * @returns the schema
 */
export function readSearchSchema(
  db: Database,
  queries: readonly { readonly sql: string; readonly option: string }[],
  names: ReadonlySet<string>,
): SearchSchema {
  const master = db.query(
    "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master ORDER BY rowid",
  ) as unknown as MasterRow[];
  const tableSql = new Map(
    master.filter((m) => m.type === "table" && m.sql !== null).map((m) => [m.name, m.sql!]),
  );
  const wanted = new Set<string>();
  for (const q of queries) for (const t of tablesRead(db, q.sql, q.option)) wanted.add(t);
  const tables = new Map<string, SearchTable>();
  const visit = (name: string): void => {
    if (tables.has(name)) return;
    const sql = tableSql.get(name) ??
      [...tableSql.entries()].find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
    if (sql === undefined) return; // an FK to a missing table: SQLite will refuse the rows
    const t = readTable(db, name, sql);
    tables.set(name, t);
    for (const fk of t.foreignKeys) visit(fk.parent);
  };
  for (const t of wanted) visit(t);
  // Parents first, so rows can be inserted in this order with foreign keys on.
  const ordered: SearchTable[] = [];
  const placed = new Set<string>();
  const place = (t: SearchTable, path: Set<string>): void => {
    if (placed.has(t.name) || path.has(t.name)) return;
    path.add(t.name);
    for (const fk of t.foreignKeys) {
      const parent = [...tables.values()].find((p) =>
        p.name.toLowerCase() === fk.parent.toLowerCase()
      );
      if (parent !== undefined) place(parent, path);
    }
    placed.add(t.name);
    ordered.push(t);
  };
  for (const t of tables.values()) place(t, new Set());
  // Views the queries name, and the views those name, in creation order.
  const views = master.filter((m) => m.type === "view" && m.sql !== null);
  const wantedViews = new Set<string>();
  const addView = (name: string): void => {
    const v = views.find((m) => m.name.toLowerCase() === name);
    if (v === undefined || wantedViews.has(v.name)) return;
    wantedViews.add(v.name);
    for (const other of views) {
      if (new RegExp(`\\b${escape(other.name)}\\b`, "i").test(v.sql!)) {
        addView(other.name.toLowerCase());
      }
    }
  };
  for (const n of names) addView(n);
  const mismatch = foreignKeyMismatch(ordered);
  return {
    tables: ordered,
    read: new Set(ordered.filter((t) => wanted.has(t.name)).map((t) => t.name)),
    viewSql: views.filter((v) => wantedViews.has(v.name)).map((v) => v.sql!),
    ...(mismatch !== undefined ? { foreignKeyMismatch: mismatch } : {}),
  };
}

/**
 * The first foreign key whose parent columns are neither the parent's
 * primary key nor a UNIQUE set (SQLite's "foreign key mismatch").
 */
function foreignKeyMismatch(tables: readonly SearchTable[]): string | undefined {
  const lower = (xs: readonly string[]) => xs.map((x) => x.toLowerCase()).sort().join(",");
  for (const t of tables) {
    for (const fk of t.foreignKeys) {
      const parent = tables.find((p) => p.name.toLowerCase() === fk.parent.toLowerCase());
      if (parent === undefined) continue;
      const to = fk.parentColumns.length > 0
        ? fk.parentColumns
        : parent.columns.filter((c) => c.pk > 0).map((c) => c.name);
      if (!parent.uniqueSets.some((set) => lower(set) === lower(to))) {
        return `${t.name}(${fk.columns.join(", ")}) -> ${parent.name}(${to.join(", ")})`;
      }
    }
  }
  return undefined;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
