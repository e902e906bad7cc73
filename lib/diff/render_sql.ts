/**
 * `db diff --sql`: SQL that turns the before database into the after one,
 * schema and data, like `sqldiff`, written as the diff streams (every row,
 * never truncated, nothing kept in memory).
 *
 * The script, in order:
 * 1. `PRAGMA foreign_keys=OFF`, `PRAGMA legacy_alter_table=ON` (a rename
 *    must not rewrite other tables' foreign keys), `BEGIN`;
 * 2. every trigger and view of the before side is dropped, and every index
 *    that was removed or changed: no trigger may fire while rows change, and
 *    no view may refer to a table being rebuilt;
 * 3. per table, in name order: `CREATE TABLE` (added), `DROP TABLE`
 *    (removed), or for a table whose CREATE statement changed: `ALTER
 *    TABLE ... ADD COLUMN` when it only gained columns SQLite can add to a
 *    table with rows (_add_column.ts), else a rebuild (rename the old one,
 *    create the new one, copy the columns both have, drop the old one);
 *    then its row changes (_row_sql.ts): `DELETE` by key (rows without a
 *    usable key: the first row with exactly those values, by rowid, or by
 *    value when no name reaches the rowid), `UPDATE` of the changed
 *    columns by key, `INSERT` of every column except generated ones;
 *    Virtual tables are created or dropped; their rows are written through
 *    their shadow tables, like any table's;
 * 4. `sqlite_sequence` as it was before (inserts raise it), then its row
 *    changes, the indexes added or changed (and those of rebuilt tables),
 *    then every view and trigger of the after side; `COMMIT`.
 *
 * Values are written exactly: integers beyond 2^53 in full, BLOBs as
 * `x'..'`, text that is not UTF-8 as `CAST(x'..' AS TEXT)`, NUL and CR as
 * `char(..)` (the sqlite3 shell stops at a raw NUL and drops the CR of a
 * CR LF), and a REAL that
 * is not a whole number as an exact product of integers and powers of two
 * (`CAST(3602879701896397 AS REAL)/4294967296.0/8388608.0` is 0.1), because
 * older SQLite versions do not parse every decimal to the nearest double.
 *
 * @module
 */
import { foldName } from "./names.ts";
import { ident } from "../sqlite/sql_text.ts";
import { addedColumnDefinitions } from "./_add_column.ts";
import { generated, RowStatements } from "./_row_sql.ts";
import type { DiffListener, RowEvent, TableStart } from "./listener.ts";
import { normalizeSql, type ObjectSchema, type SideSchema, type TableSchema } from "./schema.ts";
import { dataColumns, pairingMode } from "./table_data.ts";
import type { DatabaseChange } from "./types.ts";

/** Where the SQL goes. */
export interface SqlSink {
  write(text: string): void;
}

/** What the renderer does with one table's rows. */
type TablePlan =
  | { readonly kind: "skip" }
  | {
    readonly kind: "rows";
    readonly name: string;
    readonly before: TableSchema | null;
    readonly after: TableSchema;
    /** Paired rows apply (DELETE/UPDATE by key); false when every after row is re-inserted. */
    readonly paired: boolean;
  };

const OLD_SUFFIX = "__dbagenteval_old";
const SEQUENCE_COPY = "temp.dbagenteval_sequence";

/**
 * Writes the SQL as the diff streams; pass it to `streamSqliteDiff`.
 *
 * @example
 * ```ts
 * import { streamSqliteDiff } from "./diff_sqlite.ts";
 * import { SqlRenderer } from "./render_sql.ts";
 * let sql = "";
 * const renderer = new SqlRenderer({ write: (text) => void (sql += text) });
 * await streamSqliteDiff(null, "examples/db_agent/users.db", { maxRows: 0 }, renderer);
 * sql.includes("INSERT INTO"); // true
 * ```
 */
export class SqlRenderer implements DiffListener {
  readonly #sink: SqlSink;
  readonly #keep: (table: string) => boolean;
  #sides: { before: SideSchema | null; after: SideSchema | null } = { before: null, after: null };
  #plan: TablePlan = { kind: "skip" };
  readonly #rebuilt = new Set<string>();
  readonly #sequence: string[] = [];
  /** Virtual tables this script creates, or cannot write (their CREATE changed). */
  readonly #virtuals = new Map<string, "created" | "stale">();
  /** The current table's statement writer, made once a table rather than once a row. */
  #rows: { name: string; after: TableSchema; statements: RowStatements } | null = null;

  /**
   * @param sink where to write
   * @param keep which tables (and their indexes, views, triggers) to write; default all
   */
  constructor(sink: SqlSink, keep: (table: string) => boolean = () => true) {
    this.#sink = sink;
    this.#keep = keep;
  }

  /** The byte order of the database the script runs on (the before one), when it is UTF-16. */
  #utf16(): "le" | "be" | undefined {
    const e = this.#sides.before?.encoding;
    return e === "utf-16le" ? "le" : e === "utf-16be" ? "be" : undefined;
  }

  start(sides: { readonly before: SideSchema | null; readonly after: SideSchema | null }): void {
    this.#sides = { before: sides.before, after: sides.after };
    const w = (s: string): void => this.#sink.write(`${s}\n`);
    w("-- dbagenteval db diff --sql: turns the before database into the after one");
    w("PRAGMA foreign_keys=OFF;");
    w("PRAGMA legacy_alter_table=ON;");
    w("BEGIN;");
    if (this.#sequenceKept(sides.before)) {
      // Inserting rows raises an AUTOINCREMENT table's seq, which AFTER may
      // not have (an UPDATE of the key there does not raise it): the
      // before values are restored at the end, then the diff's changes.
      w(`CREATE TEMP TABLE ${SEQUENCE_COPY} AS SELECT name, seq FROM main.sqlite_sequence;`);
    }
    const after = this.#objects(sides.after);
    for (const o of this.#objects(sides.before)) {
      const same = after.find((x) => x.type === o.type && foldName(x.name) === foldName(o.name));
      if (o.type !== "index") w(`DROP ${o.type.toUpperCase()} IF EXISTS ${ident(o.name)};`);
      else if (same === undefined || normalizeSql(same.sql) !== normalizeSql(o.sql)) {
        w(`DROP INDEX IF EXISTS ${ident(o.name)};`);
      }
    }
  }

  table(t: TableStart): void {
    const w = (s: string): void => this.#sink.write(`${s}\n`);
    const { before, after } = t;
    this.#plan = { kind: "skip" };
    const internal = /^sqlite_/i.test(t.name);
    if (t.virtual) return this.#virtual(t);
    const owner = this.#owner(t.name);
    if (owner !== null) return this.#shadowTable(t, owner);
    if (after === null) {
      if (!internal) w(`DROP TABLE IF EXISTS ${ident(before!.name)};`);
      return;
    }
    if (before === null) {
      if (!internal) w(`${after.sql};`);
      this.#plan = { kind: "rows", name: after.name, before: null, after, paired: false };
      return;
    }
    if (normalizeSql(before.sql) === normalizeSql(after.sql) || internal) {
      this.#plan = { kind: "rows", name: after.name, before, after, paired: true };
      return;
    }
    const mode = pairingMode(before, after);
    // Columns added at the end that SQLite can add: the rows stay where they
    // are and read the new columns' defaults, as the after side's do.
    const added = mode === "keyed" ? addedColumnDefinitions(before.sql, after.sql) : null;
    if (added !== null) {
      for (const d of added) w(`ALTER TABLE ${ident(after.name)} ADD COLUMN ${d};`);
      this.#plan = { kind: "rows", name: after.name, before, after, paired: true };
      return;
    }
    // A rebuild: the rows both shapes can hold are copied, then the row
    // changes apply (paired), or every after row is inserted (whole).
    const paired = mode !== "whole";
    const old = ident(`${before.name}${OLD_SUFFIX}`);
    w(`ALTER TABLE ${ident(before.name)} RENAME TO ${old};`);
    w(`${after.sql};`);
    if (paired) {
      const there = new Set(writable(after).map(foldName));
      const cols = writable(before).filter((c) => there.has(foldName(c))).map(ident).join(", ");
      if (cols !== "") w(`INSERT INTO ${ident(after.name)}(${cols}) SELECT ${cols} FROM ${old};`);
    }
    w(`DROP TABLE ${old};`);
    this.#rebuilt.add(foldName(after.name));
    this.#plan = { kind: "rows", name: after.name, before, after, paired };
  }

  row(event: RowEvent): void {
    const plan = this.#plan;
    if (plan.kind === "skip") return;
    const sql = this.#rowSql(plan, event);
    if (sql === null) return;
    if (foldName(plan.name) === "sqlite_sequence") this.#sequence.push(sql);
    else this.#sink.write(`${sql}\n`);
  }

  done(_change: DatabaseChange): void {
    const w = (s: string): void => this.#sink.write(`${s}\n`);
    if (this.#sequenceKept(this.#sides.before)) {
      w(`DELETE FROM sqlite_sequence WHERE name NOT IN (SELECT name FROM ${SEQUENCE_COPY});`);
      w(`UPDATE sqlite_sequence SET seq = (SELECT seq FROM ${SEQUENCE_COPY} AS s WHERE s.name = sqlite_sequence.name);`);
      w(`DROP TABLE ${SEQUENCE_COPY};`);
    } else if (this.#sequenceKept(this.#sides.after)) {
      // Every row AFTER has comes as an added row: none other may stay.
      w("DELETE FROM sqlite_sequence;");
    }
    for (const s of this.#sequence) w(s);
    const before = this.#objects(this.#sides.before);
    for (const o of this.#objects(this.#sides.after)) {
      if (o.type !== "index") continue;
      const same = before.find((x) => x.type === o.type && foldName(x.name) === foldName(o.name));
      if (
        same === undefined || normalizeSql(same.sql) !== normalizeSql(o.sql) ||
        this.#rebuilt.has(foldName(o.table))
      ) w(`${o.sql};`);
    }
    for (const type of ["view", "trigger"]) {
      for (const o of this.#objects(this.#sides.after)) if (o.type === type) w(`${o.sql};`);
    }
    w("COMMIT;");
  }

  /** Whether `side` has a sqlite_sequence table that this script writes. */
  #sequenceKept(side: SideSchema | null): boolean {
    return this.#keep("sqlite_sequence") &&
      [...side?.tables.values() ?? []].some((t) => foldName(t.name) === "sqlite_sequence");
  }

  #objects(side: SideSchema | null): ObjectSchema[] {
    return (side?.objects ?? []).filter((o) => this.#keep(o.table));
  }

  /**
   * A virtual table: created, dropped, or left to its shadow tables, whose
   * rows (an FTS5 index, an rtree's nodes) the diff compares like any
   * table's and the script writes back as they are. One whose CREATE
   * changed is not written: its shadow tables may be other ones.
   */
  #virtual(t: TableStart): void {
    const w = (s: string): void => this.#sink.write(`${s}\n`);
    const { before, after } = t;
    if (after === null) w(`DROP TABLE IF EXISTS ${ident(before!.name)};`);
    else if (before === null) {
      w(`${after.sql};`);
      this.#virtuals.set(foldName(after.name), "created");
    } else if (normalizeSql(before.sql) !== normalizeSql(after.sql)) {
      w(`-- ${t.name}: a virtual table whose CREATE statement changed is not written`);
      this.#virtuals.set(foldName(after.name), "stale");
    }
  }

  /**
   * A shadow table of virtual table `owner`. Creating the virtual table
   * made it, with rows of its own: they are replaced by every after row.
   * Dropping the virtual table drops it.
   */
  #shadowTable(t: TableStart, owner: string): void {
    const w = (s: string): void => this.#sink.write(`${s}\n`);
    const { before, after } = t;
    const state = this.#virtuals.get(owner);
    if (after === null) return;
    if (
      state === "stale" || (before !== null && normalizeSql(before.sql) !== normalizeSql(after.sql))
    ) {
      w(`-- ${t.name}: a shadow table of a changed virtual table is not written`);
      return;
    }
    if (state === "created" || before === null) {
      w(`DELETE FROM ${ident(after.name)};`);
      this.#plan = { kind: "rows", name: after.name, before: null, after, paired: false };
      return;
    }
    this.#plan = { kind: "rows", name: after.name, before, after, paired: true };
  }

  /** The folded name of the virtual table that `name` is a shadow table of, or null. */
  #owner(name: string): string | null {
    const folded = foldName(name);
    for (const side of [this.#sides.after, this.#sides.before]) {
      for (const t of side?.tables.values() ?? []) {
        if (t.module !== null && folded.startsWith(`${foldName(t.name)}_`)) return foldName(t.name);
      }
    }
    return null;
  }

  #rowSql(plan: Extract<TablePlan, { kind: "rows" }>, event: RowEvent): string | null {
    if (this.#rows?.name !== plan.name || this.#rows.after !== plan.after) {
      this.#rows = {
        name: plan.name,
        after: plan.after,
        statements: new RowStatements(plan.name, plan.after, this.#utf16()),
      };
    }
    const statements = this.#rows.statements;
    if (event.kind === "added") return statements.added(event.change);
    if (!plan.paired) return null;
    if (event.kind === "removed") return statements.removed(event.change);
    return statements.changed(event.change);
  }
}

/** The columns a row can be written with: not generated. */
function writable(t: TableSchema): string[] {
  const gen = generated(t);
  return dataColumns(t).filter((c) => !gen.has(foldName(c)));
}
