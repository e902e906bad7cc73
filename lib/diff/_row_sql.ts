/**
 * The row statements of one table in `db diff --sql`: `INSERT` of an added
 * row, `DELETE` of a removed one, `UPDATE` of a changed one's changed
 * columns, by key.
 *
 * What each statement needs of the table (its quoted name and columns, the
 * generated ones, how case-folded names map to the after side's) is worked
 * out once per table, not once per row: the script of ten million rows is
 * written as the diff streams, and what a row allocates beyond its text
 * shows in the peak memory (bench/README.md).
 *
 * Rows without a usable key (keyless tables, NULL keys) are deleted as "the
 * first row with exactly these values", found by rowid. A table whose own
 * columns take all three names of the rowid (`rowid`, `oid`, `_rowid_`)
 * has no name left that reaches it: `"rowid"` there is the user's column.
 * Such a row is deleted by value instead: the rows with those values but
 * one are set aside in a temporary table, all of them deleted, and the
 * others put back, so that exactly one goes whatever the duplicates.
 *
 * @module
 */
import { emptyRow, type SqliteRow } from "../sqlite/value.ts";
import { foldName } from "./names.ts";
import { ident, sqlLiteral, type SqlLiteralOptions } from "../sqlite/sql_text.ts";
import { storageClassFlips } from "./_storage_class.ts";
import { dataColumns, type TableSchema } from "./schema.ts";
import type { AddedRow, ChangedRow, RemovedRow } from "./types.ts";

/** Literals the sqlite3 shell of any version reads back exactly. */
const EXACT = { exact: true } as const;

const REST = 'temp."dbagenteval_rest"';

/** Writes the statements of one table's row changes. */
export class RowStatements {
  /** The table's quoted name. */
  readonly #t: string;
  readonly #after: TableSchema;
  readonly #sequence: boolean;
  /** Folded names of the generated columns (never written). */
  readonly #gen: ReadonlySet<string>;
  /** Folded name -> the after side's name, every column a row holds. */
  readonly #columns: ReadonlyMap<string, string>;
  /** Folded name -> the after side's name, the columns a row is written with. */
  readonly #writable: ReadonlyMap<string, string>;
  readonly #quoted = new Map<string, string>();
  readonly #literal: SqlLiteralOptions;
  readonly #folded = new Map<string, string>();

  /**
   * @param name the table's name in the script
   * @param after the table as the script leaves it (the after side's shape)
   * @param utf16 the byte order of the database the script runs on, when it is UTF-16
   */
  constructor(name: string, after: TableSchema, utf16?: "le" | "be") {
    this.#literal = utf16 === undefined ? EXACT : { exact: true, utf16 };
    this.#t = ident(name);
    this.#after = after;
    this.#sequence = foldName(name) === "sqlite_sequence";
    this.#gen = generated(after);
    const names = dataColumns(after);
    this.#columns = new Map(names.map((c) => [foldName(c), c]));
    this.#writable = new Map(
      names.filter((c) => !this.#gen.has(foldName(c))).map((c) => [foldName(c), c]),
    );
  }

  /** `INSERT` of every column but generated ones, then what restores storage classes. */
  added(change: AddedRow): string {
    const { row, key } = change;
    const values = emptyRow();
    for (const c of Object.keys(row)) if (!this.#gen.has(this.#fold(c))) values[c] = row[c]!;
    // Paired by rowid (--rowid): the rowid is written too, so the rows pair again.
    if (key !== null) {
      for (const k of Object.keys(key)) if (!this.#columns.has(this.#fold(k))) values[k] = key[k]!;
    }
    const cols = Object.keys(values);
    const insert = `INSERT INTO ${this.#t}(${cols.map((c) => this.#ident(c)).join(", ")}) VALUES (${
      cols.map((c) => sqlLiteral(values[c]!, this.#literal)).join(", ")
    });`;
    if (this.#sequence) {
      // Creating an AUTOINCREMENT table may have made its row already.
      return `DELETE FROM ${this.#t} WHERE name = ${
        sqlLiteral(row["name"] ?? null, this.#literal)
      };\n${insert}`;
    }
    if (this.#gen.size === 0) return insert;
    const rowid = this.#after.rowidName;
    const where = usable(key)
      ? this.#keyWhere(key!)
      : rowid !== null
      ? `${this.#ident(rowid)} = last_insert_rowid()`
      : null;
    // No name reaches the new row's rowid: its storage classes stay as written.
    if (where === null) return insert;
    return [insert, ...storageClassFlips(this.#after, this.#gen, row, where)].join("\n");
  }

  /** `DELETE` by key, or of one row with exactly these values. */
  removed(change: RemovedRow): string {
    const { key, row } = change;
    if (usable(key)) return `DELETE FROM ${this.#t} WHERE ${this.#keyWhere(key!)};`;
    // The table as it is now (after a rebuild: the after shape), so the
    // match names only its writable columns. No unary +: the column's
    // affinity applies to the value, as it did to the row when stored or
    // copied into a rebuilt table whose column type changed ('1' -> 1).
    // Generated values too: they tell 1 from 1.0 where the columns cannot.
    const terms: string[] = [];
    for (const c of Object.keys(row)) {
      const folded = this.#fold(c);
      if (this.#gen.has(folded)) {
        terms.push(`+${this.#ident(c)} IS ${sqlLiteral(row[c]!, this.#literal)} COLLATE BINARY`);
      } else if (this.#writable.has(folded)) {
        terms.push(
          `${this.#ident(this.#writable.get(folded)!)} IS ${
            sqlLiteral(row[c]!, this.#literal)
          } COLLATE BINARY`,
        );
      }
    }
    const match = terms.length === 0 ? "1" : terms.join(" AND ");
    const rowid = this.#after.rowidName;
    const T = this.#t;
    if (rowid !== null) {
      const r = this.#ident(rowid);
      return `DELETE FROM ${T} WHERE ${r} = (SELECT ${r} FROM ${T} WHERE ${match} LIMIT 1);`;
    }
    // Values go out and back with the same affinity (CREATE TABLE AS gives
    // each column its source's), so the rows put back are stored as they were.
    const cols = [...this.#writable.values()].map((c) => this.#ident(c)).join(", ");
    return [
      `CREATE TEMP TABLE ${REST} AS SELECT ${cols} FROM ${T} WHERE ${match} LIMIT -1 OFFSET 1;`,
      `DELETE FROM ${T} WHERE ${match};`,
      `INSERT INTO ${T}(${cols}) SELECT ${cols} FROM ${REST};`,
      `DROP TABLE ${REST};`,
    ].join("\n");
  }

  /** `UPDATE` of the changed columns by key, then what restores storage classes; null for none. */
  changed(change: ChangedRow): string | null {
    const { key, after: values, changed_columns } = change;
    const sets: string[] = [];
    for (const c of changed_columns) {
      const folded = this.#fold(c);
      const name = this.#columns.get(folded);
      if (name === undefined || this.#gen.has(folded) || !Object.hasOwn(values, name)) continue;
      sets.push(`${this.#ident(name)} = ${sqlLiteral(values[name]!, this.#literal)}`);
    }
    const where = this.#keyWhere(key);
    const update = sets.length === 0
      ? null
      : `UPDATE ${this.#t} SET ${sets.join(", ")} WHERE ${where};`;
    if (this.#gen.size === 0) return update;
    const out = update === null ? [] : [update];
    out.push(...storageClassFlips(this.#after, this.#gen, values, where));
    return out.length === 0 ? null : out.join("\n");
  }

  #keyWhere(key: SqliteRow): string {
    const terms: string[] = [];
    for (const k of Object.keys(key)) {
      terms.push(`${this.#ident(k)} = ${sqlLiteral(key[k]!, this.#literal)}`);
    }
    return terms.join(" AND ");
  }

  #ident(name: string): string {
    let quoted = this.#quoted.get(name);
    if (quoted === undefined) this.#quoted.set(name, quoted = ident(name));
    return quoted;
  }

  #fold(name: string): string {
    let folded = this.#folded.get(name);
    if (folded === undefined) this.#folded.set(name, folded = foldName(name));
    return folded;
  }
}

/** Whether a row has a key with no NULL in it. */
function usable(key: SqliteRow | null): boolean {
  return key !== null && Object.values(key).every((v) => v !== null);
}

/**
 * The folded names of a table's generated columns (never written).
 *
 * @param t the table
 * @returns the names, folded
 */
export function generated(t: TableSchema): ReadonlySet<string> {
  return new Set(
    t.columns.filter((c) => c.hidden === 2 || c.hidden === 3).map((c) => foldName(c.name)),
  );
}
