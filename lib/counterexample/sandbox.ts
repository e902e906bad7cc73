/**
 * Where candidates are tried: one in-memory database with the schema's
 * `CREATE TABLE` statements verbatim and foreign keys on. Each candidate's
 * rows go in inside a transaction that is rolled back afterwards; a row the
 * schema refuses (NOT NULL, CHECK, UNIQUE, PRIMARY KEY, FOREIGN KEY) is left
 * out, so what is kept is, by construction, a database the schema allows.
 *
 * @module
 */
import { type Database, openMemoryDatabase } from "../sqlite/database.ts";
import type { Statement } from "../sqlite/statement.ts";
import type { RowSet } from "../row_set.ts";
import { compareRows } from "../compare/rows.ts";
import type { Candidate, CandidateRow } from "./candidate.ts";
import type { SearchSchema } from "./schema.ts";
import { ident } from "../sqlite/sql_text.ts";

/** How the two queries' rows are compared: compareRows's options. */
export interface Comparison {
  readonly ordered: boolean;
  readonly precision: number;
}

/** What a candidate database gave. */
export interface Outcome {
  /** The rows the schema accepted (the database that was really built). */
  readonly database: Candidate;
  /** Rows with their column list, so two columns of the same name stay two. */
  readonly referenceRows: RowSet;
  readonly candidateRows: RowSet;
}

/** An in-memory database with the schema, for trying candidates. */
export class Sandbox {
  readonly #db: Database;
  readonly #schema: SearchSchema;
  readonly #inserts: Map<string, Statement>;
  readonly #deferred: boolean;
  readonly #begin: Statement;
  readonly #rollback: Statement;
  /** The two queries, prepared once: SELECTs stay valid across transactions. */
  readonly #prepared = new Map<string, Statement>();

  private constructor(db: Database, schema: SearchSchema) {
    this.#db = db;
    this.#schema = schema;
    this.#inserts = new Map(schema.tables.map((t) => [
      t.name,
      db.prepare(
        `INSERT INTO ${ident(t.name)} (${t.columns.map((c) => ident(c.name)).join(", ")}) VALUES (${
          t.columns.map(() => "?").join(", ")
        })`,
      ),
    ]));
    this.#deferred = schema.tables.some((t) => /\bDEFERRED\b/i.test(t.createSql));
    this.#begin = db.prepare("BEGIN");
    this.#rollback = db.prepare("ROLLBACK");
  }

  #rows(sql: string): RowSet {
    let stmt = this.#prepared.get(sql);
    if (stmt === undefined) {
      stmt = this.#db.prepare(sql);
      this.#prepared.set(sql, stmt);
    }
    stmt.reset();
    try {
      return { columns: [...stmt.columnNames], rows: [...stmt.rows()] };
    } finally {
      stmt.reset();
    }
  }

  #step(stmt: Statement): void {
    stmt.reset();
    stmt.step();
    stmt.reset();
  }

  /**
   * Builds the sandbox for a schema.
   *
   * @param schema the tables and views
   * @returns the sandbox; close it
   */
  static async create(schema: SearchSchema): Promise<Sandbox> {
    const db = await openMemoryDatabase();
    try {
      // A foreign key SQLite cannot enforce fails every INSERT while they are on.
      db.exec(`PRAGMA foreign_keys = ${schema.foreignKeyMismatch === undefined ? "ON" : "OFF"}`);
      for (const t of schema.tables) {
        db.exec(t.createSql);
        for (const ix of t.indexSql) db.exec(ix);
      }
      for (const v of schema.viewSql) db.exec(v);
      return new Sandbox(db, schema);
    } catch (e) {
      db.close();
      throw e;
    }
  }

  /**
   * Loads a candidate, runs both queries on it, and rolls back.
   *
   * @param candidate the rows to try
   * @param queries the reference and the candidate query
   * @param stableAlso also run both queries with SQLite's unordered results
   *   reversed, and give those rows too (to tell results that hang on row order)
   * @returns what happened, or null when a query failed or the database was refused
   */
  run(
    candidate: Candidate,
    queries: { readonly reference: string; readonly candidate: string },
    stableAlso = false,
  ): { outcome: Outcome; reversed?: Outcome } | null {
    const db = this.#db;
    this.#step(this.#begin);
    try {
      const kept = new Map<string, CandidateRow[]>();
      for (const t of this.#schema.tables) {
        const rows = candidate.get(t.name);
        if (rows === undefined || rows.length === 0) continue;
        const insert = this.#inserts.get(t.name)!;
        const accepted: CandidateRow[] = [];
        for (const row of rows) {
          try {
            insert.bind(row);
            insert.step();
            accepted.push(row);
          } catch {
            // refused by a constraint: the row is not part of this database
          }
        }
        if (accepted.length > 0) kept.set(t.name, accepted);
      }
      if (
        this.#deferred && this.#schema.foreignKeyMismatch === undefined &&
        db.query("PRAGMA foreign_key_check").length > 0
      ) return null;
      // Reversed scans change the query plan: those runs prepare afresh.
      const read = (sql: string, fresh: boolean): RowSet =>
        fresh ? rowSet(db, sql) : this.#rows(sql);
      const once = (fresh: boolean): Outcome | null => {
        try {
          return {
            database: kept,
            referenceRows: read(queries.reference, fresh),
            candidateRows: read(queries.candidate, fresh),
          };
        } catch {
          return null;
        }
      };
      const outcome = once(false);
      if (outcome === null) return null;
      if (!stableAlso) return { outcome };
      db.exec("PRAGMA reverse_unordered_selects = ON");
      try {
        const reversed = once(true);
        return reversed === null ? null : { outcome, reversed };
      } finally {
        db.exec("PRAGMA reverse_unordered_selects = OFF");
      }
    } finally {
      this.#step(this.#rollback);
    }
  }

  /**
   * The value of a constant expression, computed by SQLite.
   *
   * @param sql the expression (no column, no table)
   * @returns its value, or undefined when it fails
   */
  evaluate(sql: string): unknown {
    try {
      return rowSet(this.#db, `SELECT ${sql}`).rows[0]?.[0];
    } catch {
      return undefined;
    }
  }

  /** Frees the database. */
  close(): void {
    for (const s of this.#inserts.values()) s.finalize();
    for (const s of this.#prepared.values()) s.finalize();
    this.#begin.finalize();
    this.#rollback.finalize();
    this.#db.close();
  }
}

function rowSet(db: Database, sql: string): RowSet {
  const stmt = db.prepare(sql);
  try {
    return { columns: [...stmt.columnNames], rows: [...stmt.rows()] };
  } finally {
    stmt.finalize();
  }
}

/**
 * Whether an outcome tells the queries apart: compareRows with the
 * candidate's rows as the actual rows and the reference's as the expected.
 *
 * @param outcome the rows
 * @param comparison ordered and precision
 * @returns true when they differ
 */
export function differs(outcome: Outcome, comparison: Comparison): boolean {
  return !compareRows(outcome.candidateRows, outcome.referenceRows, comparison);
}
