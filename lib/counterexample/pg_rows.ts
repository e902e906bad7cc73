/**
 * What the search takes from a PostgreSQL database: each table's rows as
 * they are when it is small, otherwise a sample (the first rows, rows drawn
 * by `TABLESAMPLE` with the search's seed, and rows holding the queries'
 * constants), and the parent rows the sampled rows' foreign keys point at.
 * Everything is read once, up front, by bounded SELECTs (the strategies ask
 * for rows synchronously); values are read as their text and made into the
 * strategies' values by `pgValue`.
 *
 * @module
 */
import type { SqliteValue } from "../sqlite/value.ts";
import type { CandidateRow } from "./candidate.ts";
import type { GivenRows } from "./given.ts";
import type { Execute } from "./pg_schema.ts";
import { pgLiteral, pgValue } from "./pg_sql.ts";
import type { SearchForeignKey, SearchSchema, SearchTable } from "./schema.ts";
import type { Random } from "./random.ts";
import { ident } from "../sqlite/sql_text.ts";

const FIRST_ROWS = 40;
const SPREAD_ROWS = 40;
const PER_CONSTANT = 3;
/** Tables up to this many rows are read whole (the search tries them as they are). */
const WHOLE_ROWS = 2000;
/** Tables up to this many rows are probed for the constants. */
const PROBE_LIMIT = 200_000;
/** The most parent keys looked up per foreign key. */
const PARENT_KEYS = 1000;

function key(row: readonly SqliteValue[]): string {
  return JSON.stringify(row, (_k, v) => typeof v === "bigint" ? `${v}n` : v);
}

/** The given PostgreSQL database's rows, read up front. */
export class PgRows implements GivenRows {
  readonly #samples = new Map<string, CandidateRow[]>();
  readonly #whole = new Map<string, CandidateRow[]>();
  readonly #parents = new Map<string, CandidateRow>();
  readonly #tables: ReadonlyMap<string, SearchTable>;

  private constructor(tables: readonly SearchTable[]) {
    this.#tables = new Map(tables.map((t) => [t.name.toLowerCase(), t]));
  }

  /**
   * Reads the rows a search needs.
   *
   * @param execute runs a read-only statement on the given database
   * @param schema the tables
   * @param sqlName each table's name in SQL
   * @param options the seed's random source, and the constants to look for per column
   * @returns the rows
   */
  static async read(
    execute: Execute,
    schema: SearchSchema,
    sqlName: ReadonlyMap<string, string>,
    options: {
      readonly random: Random;
      readonly probes: (table: SearchTable, column: string) => readonly SqliteValue[];
    },
  ): Promise<PgRows> {
    const rows = new PgRows(schema.tables);
    const select = (t: SearchTable): string =>
      `SELECT ${t.columns.map((c, i) => `${ident(c.name)}::text AS c${i}`).join(", ")} FROM ${
        sqlName.get(t.name)
      }`;
    const read = async (t: SearchTable, sql: string): Promise<CandidateRow[]> =>
      (await execute(sql)).map((r) =>
        t.columns.map((c, i) => pgValue(r[`c${i}`] as string | null, c))
      );
    for (const t of schema.tables) {
      const from = sqlName.get(t.name)!;
      const count = Number(
        (await execute(
          `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${from} LIMIT ${PROBE_LIMIT + 1}) s`,
        ))[0]?.["n"] ?? 0,
      );
      const seen = new Map<string, CandidateRow>();
      const add = (list: CandidateRow[]): void => {
        for (const r of list) if (!seen.has(key(r))) seen.set(key(r), r);
      };
      if (count <= WHOLE_ROWS) {
        const whole = await read(t, select(t));
        rows.#whole.set(t.name, whole);
        add(whole.slice(0, FIRST_ROWS));
        if (whole.length > FIRST_ROWS) {
          for (let i = 0; i < SPREAD_ROWS; i++) add([options.random.pick(whole)]);
        }
      } else {
        add(await read(t, `${select(t)} LIMIT ${FIRST_ROWS}`));
        // SYSTEM samples whole pages: cheap on any size; the seed makes it repeatable.
        const percent = Math.min(100, (100 * SPREAD_ROWS * 4) / count);
        add(
          await read(
            t,
            `${select(t)} TABLESAMPLE SYSTEM (${percent}) REPEATABLE (${
              options.random.int(1, 1_000_000)
            }) LIMIT ${SPREAD_ROWS}`,
          ),
        );
      }
      if (count <= PROBE_LIMIT) {
        const probes: string[] = [];
        for (const c of t.columns) {
          for (const v of options.probes(t, c.name)) {
            const numeric = c.affinity === "INTEGER" || c.affinity === "REAL";
            if (numeric && typeof v !== "number") continue;
            if (c.affinity === "INTEGER" && !Number.isInteger(v)) continue;
            const where = numeric || c.affinity === "TEXT"
              ? `${ident(c.name)} = ${pgLiteral(v, c)}`
              : `${ident(c.name)}::text = ${pgLiteral(String(v), c)}`;
            probes.push(`(${select(t)} WHERE ${where} LIMIT ${PER_CONSTANT})`);
          }
        }
        if (probes.length > 0) {
          // A constant the column's type cannot hold only costs its rows.
          add(await read(t, probes.join(" UNION ALL ")).catch(() => []));
        }
      }
      rows.#samples.set(t.name, [...seen.values()]);
    }
    await rows.#readParents(schema, read, select);
    return rows;
  }

  /** Looks up the parents of every sampled row, children before parents (so grandparents too). */
  async #readParents(
    schema: SearchSchema,
    read: (t: SearchTable, sql: string) => Promise<CandidateRow[]>,
    select: (t: SearchTable) => string,
  ): Promise<void> {
    const known = new Map<string, CandidateRow[]>();
    for (const [name, list] of this.#samples) known.set(name, [...list]);
    for (let ti = schema.tables.length - 1; ti >= 0; ti--) {
      const t = schema.tables[ti]!;
      for (const fk of t.foreignKeys) {
        const parent = this.#tables.get(fk.parent.toLowerCase());
        if (parent === undefined) continue;
        const parentColumns = this.#parentColumns(fk, parent);
        const indexes = fk.columns.map((c) => t.columns.findIndex((col) => col.name === c));
        const pIndexes = parentColumns.map((c) => parent.columns.findIndex((x) => x.name === c));
        if (indexes.some((x) => x < 0) || pIndexes.some((x) => x < 0)) continue;
        const wanted = new Map<string, SqliteValue[]>();
        for (const r of known.get(t.name) ?? []) {
          const values = indexes.map((x) => r[x] ?? null);
          if (values.some((v) => v === null)) continue;
          wanted.set(key(values), values);
          if (wanted.size >= PARENT_KEYS) break;
        }
        if (wanted.size === 0) continue;
        const cols = pIndexes.map((x) => parent.columns[x]!);
        const tuple = (values: SqliteValue[]): string =>
          `(${
            values.map((v, i) => `${pgLiteral(v, cols[i]!)}::${cols[i]!.declaredType}`).join(", ")
          })`;
        const found = await read(
          parent,
          `${select(parent)} WHERE (${cols.map((c) => ident(c.name)).join(", ")}) IN (${
            [...wanted.values()].map(tuple).join(", ")
          })`,
        ).catch(() => []);
        const list = known.get(parent.name) ?? [];
        for (const row of found) {
          const k = this.#cacheKey(parent, parentColumns, pIndexes.map((x) => row[x] ?? null));
          if (this.#parents.has(k)) continue;
          this.#parents.set(k, row);
          list.push(row);
        }
        known.set(parent.name, list);
      }
    }
  }

  #parentColumns(fk: SearchForeignKey, parent: SearchTable): readonly string[] {
    return fk.parentColumns.length > 0
      ? fk.parentColumns
      : parent.columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
  }

  #cacheKey(
    parent: SearchTable,
    columns: readonly string[],
    values: readonly SqliteValue[],
  ): string {
    return `${parent.name}\u0000${columns.join(",")}\u0000${key(values)}`;
  }

  /** {@inheritDoc GivenRows.all} */
  all(table: SearchTable, most: number): CandidateRow[] | null {
    const whole = this.#whole.get(table.name);
    return whole === undefined || whole.length > most ? null : whole;
  }

  /** {@inheritDoc GivenRows.sample} */
  sample(table: string): readonly CandidateRow[] {
    return this.#samples.get(table) ?? [];
  }

  /** {@inheritDoc GivenRows.parent} */
  parent(fk: SearchForeignKey, values: readonly SqliteValue[]): CandidateRow | null {
    const parent = this.#tables.get(fk.parent.toLowerCase());
    if (parent === undefined || values.some((v) => v === null)) return null;
    return this.#parents.get(this.#cacheKey(parent, this.#parentColumns(fk, parent), values)) ??
      null;
  }
}
