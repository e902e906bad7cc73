/**
 * Aiming a diff (`keys`, `ignore`, `ignoreTables`): which tables are left
 * out, and each table as the row comparison sees it, with the chosen key in
 * place of its own and the ignored columns gone. The strategy that diffs
 * such a table (_strategies.ts) hands these schemas to the engine; the
 * schema plane keeps the tables as the files define them.
 *
 * @module
 */
import { DiffKeyError, UsageError } from "../errors.ts";
import type { Database } from "../sqlite/database.ts";
import { ident, sqlLiteral } from "../sqlite/sql_text.ts";
import { globMatcher } from "./_glob.ts";
import { foldName } from "./names.ts";
import { dataColumns, type TableSchema } from "./schema.ts";
import type { DiffSettings } from "./types.ts";

/** What the settings change for one table. */
export interface TableAim {
  /** The columns rows pair by (as the option names them), or null for the table's own key. */
  readonly key: readonly string[] | null;
  /** The option's spelling of the key, for messages: `users=email,name`. */
  readonly keyOption: string;
}

/** A test of a name against a glob, both ASCII case folded as SQLite compares names. */
function nameGlob(glob: string): (name: string) => boolean {
  const test = globMatcher(foldName(glob));
  return (name) => test(foldName(name));
}

/** The settings' keys and patterns, compiled once per diff. */
export class Aim {
  readonly #settings: DiffSettings;
  readonly #keys: ReadonlyMap<string, readonly string[]>;
  readonly #tables: readonly ((name: string) => boolean)[];
  /** Per `ignore` pattern: the tables it applies to, and the columns. */
  readonly #columns: readonly {
    table: (name: string) => boolean;
    column: (name: string) => boolean;
  }[];

  /** @param settings the diff's settings */
  constructor(settings: DiffSettings) {
    this.#settings = settings;
    this.#keys = new Map(Object.entries(settings.keys ?? {}).map(([t, c]) => [foldName(t), c]));
    this.#tables = (settings.ignore_tables ?? []).map(nameGlob);
    this.#columns = (settings.ignore ?? []).map((p) => {
      const dot = p.indexOf(".");
      return dot < 0
        ? { table: () => true, column: nameGlob(p) }
        : { table: nameGlob(p.slice(0, dot)), column: nameGlob(p.slice(dot + 1)) };
    });
  }

  /** Whether anything is aimed at all (else every table diffs as usual). */
  get any(): boolean {
    return this.#keys.size > 0 || this.#tables.length > 0 || this.#columns.length > 0;
  }

  /** Whether `ignoreTables` leaves the table out. */
  tableIgnored(name: string): boolean {
    return this.#tables.some((t) => t(name));
  }

  /**
   * The error for a chosen key on a table that none of `present` has (a
   * name the user mistyped: docs/diff-outputs.md, "Decisions"), or null. A
   * table left out (`ignoreTables`) or outside `tables` is not looked for.
   *
   * @param present the tables the diff read (any side, any database), by name
   * @param where the files (or folders) diffed, for the message
   * @returns one line: what is wrong and what to do; null when every key's table is there
   */
  unknownKeyTable(present: readonly string[], where: string): UsageError | null {
    const keys = this.#settings.keys ?? {};
    const have = new Set(present.map(foldName));
    const named = this.#settings.tables?.map(foldName) ?? null;
    const t = Object.keys(keys).find((t) =>
      !have.has(foldName(t)) && (named === null || named.includes(foldName(t))) &&
      !this.tableIgnored(t)
    );
    if (t === undefined) return null;
    const sorted = [...new Set(present)].sort();
    const listed = sorted.length === 0
      ? "no table there"
      : `tables there: ${sorted.slice(0, 20).join(", ")}${sorted.length > 20 ? ", ..." : ""}`;
    return new UsageError(
      `${
        keyOption(t, keys[t]!)
      }: no table "${t}" in ${where} (${listed}); name a table the files have`,
    );
  }

  /** The chosen key of a table, or null. */
  keyOf(name: string): readonly string[] | null {
    return this.#keys.get(foldName(name)) ?? null;
  }

  /**
   * The table as the comparison sees it, or null when the settings change
   * nothing for it.
   *
   * @param t the table on one side
   * @param path that side's file, for messages
   * @returns the aimed table and its ignored columns' names
   * @throws {DiffKeyError} when the table lacks a chosen key column
   */
  aimed(t: TableSchema, path: string): { table: TableSchema; ignored: string[] } | null {
    const chosen = this.keyOf(t.name);
    const patterns = this.#columns.filter((p) => p.table(t.name));
    if (chosen === null && patterns.length === 0) return null;
    const own = new Map(dataColumns(t).map((c) => [foldName(c), c]));
    let key = t.key;
    if (chosen !== null) {
      const missing = chosen.find((c) => !own.has(foldName(c)));
      if (missing !== undefined) {
        throw new DiffKeyError(
          path,
          t.name,
          `${
            keyOption(t.name, chosen)
          }: table "${t.name}" in ${path} has no column "${missing}" (its columns: ${
            [...own.values()].join(", ")
          }); name its columns`,
        );
      }
      key = chosen.map((c) => own.get(foldName(c))!);
    }
    // The columns rows pair by are never left out.
    const keyFolded = new Set(key.map(foldName));
    const ignored = dataColumns(t).filter((c) =>
      !keyFolded.has(foldName(c)) && patterns.some((p) => p.column(c))
    );
    if (chosen === null && ignored.length === 0) return null;
    const gone = new Set(ignored.map(foldName));
    const columns = t.columns
      .filter((c) => !gone.has(foldName(c.name)))
      .map((c) => chosen === null ? c : { ...c, primary_key: key.indexOf(c.name) + 1 });
    if (!columns.some((c) => c.hidden !== 1)) {
      throw new UsageError(
        `ignore leaves table "${t.name}" no column to compare; leave the table out with ignoreTables (--ignore-table) instead`,
      );
    }
    const table: TableSchema = chosen === null
      ? { ...t, columns }
      : { ...t, columns, key, keyKind: "primary_key" };
    return { table, ignored };
  }
}

/** `--key users=email,name`, as the option is written. */
function keyOption(table: string, cols: readonly string[]): string {
  return `--key ${table}=${cols.join(",")}`;
}

/**
 * Checks that a chosen key names one row on a side: no value shared by two
 * rows (rows whose key holds a NULL are compared as whole rows, except in a
 * WITHOUT ROWID table, whose rows have no rowid to do it by).
 *
 * @param db the connection
 * @param schema the side's attached schema
 * @param t the aimed table
 * @param path the side's file, for the message
 * @throws {DiffKeyError} naming the table and a duplicate value
 */
export function checkChosenKey(db: Database, schema: string, t: TableSchema, path: string): void {
  const from = `${ident(schema)}.${ident(t.name)}`;
  const cols = t.key.map((c) => ident(c));
  const notNull = cols.map((c) => `${c} IS NOT NULL`).join(" AND ");
  const option = keyOption(t.name, t.key);
  const dup = db.query(
    `SELECT ${cols.map((c, i) => `${c} AS c${i}`).join(", ")}, count(*) AS n FROM ${from}
     WHERE ${notNull} GROUP BY ${cols.join(", ")} HAVING count(*) > 1 LIMIT 1`,
  )[0];
  if (dup !== undefined) {
    const value = t.key.map((c, i) => `${c} = ${sqlLiteral(dup[`c${i}`] ?? null)}`).join(", ");
    throw new DiffKeyError(
      path,
      t.name,
      `${option}: the key is not unique in ${path}: ${
        dup["n"]
      } rows of "${t.name}" have ${value}; choose columns that name one row on each side`,
    );
  }
  if (
    t.withoutRowid && db.query(`SELECT 1 FROM ${from} WHERE NOT (${notNull}) LIMIT 1`).length > 0
  ) {
    throw new DiffKeyError(
      path,
      t.name,
      `${option}: a row of the WITHOUT ROWID table "${t.name}" in ${path} has a NULL in the key; choose columns that hold a value in every row`,
    );
  }
}
