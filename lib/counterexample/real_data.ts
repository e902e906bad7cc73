/**
 * What the search takes from the given database: a sample of each table's
 * rows (the first ones, some spread over the rowid range, and rows holding
 * the queries' constants), and parent rows looked up by key. Every read is
 * bounded, so a database of any size costs the same few milliseconds.
 *
 * @module
 */
import type { Database } from "../sqlite/database.ts";
import type { SqliteValue } from "../sqlite/value.ts";
import type { CandidateRow } from "./candidate.ts";
import type { Random } from "./random.ts";
import type { SearchForeignKey, SearchTable } from "./schema.ts";
import { ident } from "../sqlite/sql_text.ts";

const FIRST_ROWS = 40;
const SPREAD_ROWS = 40;
const PER_CONSTANT = 3;
/** Tables up to this many rowids are probed for the constants without an index. */
const PROBE_LIMIT = 200_000;

function key(row: readonly SqliteValue[]): string {
  return JSON.stringify(row, (_k, v) => typeof v === "bigint" ? `${v}n` : v);
}

/** Sampled rows of the given database, and parent lookups. */
export class RealData {
  readonly #db: Database;
  readonly #samples = new Map<string, CandidateRow[]>();
  readonly #parents = new Map<string, CandidateRow | null>();
  readonly #tables: ReadonlyMap<string, SearchTable>;

  /**
   * Samples every table.
   *
   * @param db the given database, open read-only
   * @param tables the tables to sample
   * @param options the seed's random source, and the constants to look for per column
   */
  constructor(
    db: Database,
    tables: readonly SearchTable[],
    options: {
      readonly random: Random;
      readonly probes: (table: SearchTable, column: string) => readonly SqliteValue[];
    },
  ) {
    this.#db = db;
    this.#tables = new Map(tables.map((t) => [t.name.toLowerCase(), t]));
    for (const t of tables) this.#samples.set(t.name, this.#sample(t, options));
  }

  #sample(
    t: SearchTable,
    options: {
      readonly random: Random;
      readonly probes: (table: SearchTable, column: string) => readonly SqliteValue[];
    },
  ): CandidateRow[] {
    const cols = t.columns.map((c) => ident(c.name)).join(", ");
    const from = ident(t.name);
    const seen = new Map<string, CandidateRow>();
    const add = (rows: CandidateRow[]): void => {
      for (const r of rows) if (!seen.has(key(r))) seen.set(key(r), r);
    };
    const rows = (sql: string, params: SqliteValue[] = []): CandidateRow[] => {
      const stmt = this.#db.prepare(sql);
      try {
        if (params.length > 0) stmt.bind(params);
        return [...stmt.rows()];
      } finally {
        stmt.finalize();
      }
    };
    add(rows(`SELECT ${cols} FROM ${from} LIMIT ${FIRST_ROWS}`));
    let maxRowid = Infinity;
    if (!t.withoutRowid) {
      const max = rows(`SELECT max(rowid) FROM ${from}`)[0]?.[0];
      maxRowid = typeof max === "number" ? max : max === null ? 0 : Infinity;
      if (Number.isFinite(maxRowid) && maxRowid > FIRST_ROWS) {
        const stmt = this.#db.prepare(
          `SELECT ${cols} FROM ${from} WHERE rowid >= ? ORDER BY rowid LIMIT 1`,
        );
        try {
          for (let i = 0; i < SPREAD_ROWS; i++) {
            stmt.bind([options.random.int(1, maxRowid)]);
            add([...stmt.rows()]);
          }
        } finally {
          stmt.finalize();
        }
      }
    }
    if (maxRowid <= PROBE_LIMIT) {
      for (const c of t.columns) {
        for (const v of options.probes(t, c.name)) {
          add(rows(`SELECT ${cols} FROM ${from} WHERE ${ident(c.name)} = ? LIMIT ${PER_CONSTANT}`, [
            v,
          ]));
        }
      }
    }
    return [...seen.values()];
  }

  /**
   * Every row of a table as it is, duplicates kept, when it has at most
   * `most` rows.
   *
   * @param table the table
   * @param most the most rows read
   * @returns the rows, or null when the table has more
   */
  all(table: SearchTable, most: number): CandidateRow[] | null {
    const stmt = this.#db.prepare(
      `SELECT ${table.columns.map((c) => ident(c.name)).join(", ")} FROM ${
        ident(table.name)
      } LIMIT ${most + 1}`,
    );
    try {
      const rows: CandidateRow[] = [...stmt.rows()];
      return rows.length > most ? null : rows;
    } finally {
      stmt.finalize();
    }
  }

  /**
   * The sampled rows of a table.
   *
   * @param table the table's name
   * @returns its rows, in insertable-column order
   */
  sample(table: string): readonly CandidateRow[] {
    return this.#samples.get(table) ?? [];
  }

  /**
   * The parent row a foreign key's values point at, from the given database.
   *
   * @param fk the foreign key
   * @param values the child's values of `fk.columns`
   * @returns the parent row, or null when there is none
   */
  parent(fk: SearchForeignKey, values: readonly SqliteValue[]): CandidateRow | null {
    const parent = this.#tables.get(fk.parent.toLowerCase());
    if (parent === undefined || values.some((v) => v === null)) return null;
    const parentColumns = fk.parentColumns.length > 0
      ? fk.parentColumns
      : parent.columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
    const cacheKey = `${parent.name}\u0000${parentColumns.join(",")}\u0000${key(values)}`;
    const cached = this.#parents.get(cacheKey);
    if (cached !== undefined) return cached;
    const where = parentColumns.map((c) => `${ident(c)} = ?`).join(" AND ");
    const stmt = this.#db.prepare(
      `SELECT ${parent.columns.map((c) => ident(c.name)).join(", ")} FROM ${
        ident(parent.name)
      } WHERE ${where} LIMIT 1`,
    );
    let row: CandidateRow | null = null;
    try {
      stmt.bind(values);
      if (stmt.step()) row = stmt.row();
    } finally {
      stmt.finalize();
    }
    this.#parents.set(cacheKey, row);
    return row;
  }
}
