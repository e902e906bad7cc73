/**
 * The small interface between the search and the kind of database it
 * searches: the given database (its schema and rows, only ever read), and a
 * sandbox where candidate databases are built and both queries run. SQLite
 * (`sqlite_given.ts`) and PostgreSQL (`pg_given.ts`) each implement it; the
 * search itself (`search.ts`), the strategies and shrinking know neither.
 *
 * @module
 */
import type { SqliteValue } from "../sqlite/value.ts";
import type { Candidate, CandidateRow } from "./candidate.ts";
import type { TableChange } from "./render.ts";
import type { Outcome } from "./sandbox.ts";
import type { SearchForeignKey, SearchSchema, SearchTable } from "./schema.ts";

/** What strategies take from the given database: sampled rows and parent rows. */
export interface GivenRows {
  /**
   * Every row of a table as it is, duplicates kept, when it has at most
   * `most` rows; null when it has more.
   */
  all(table: SearchTable, most: number): CandidateRow[] | null;
  /** The sampled rows of a table, in insertable-column order. */
  sample(table: string): readonly CandidateRow[];
  /**
   * The parent row a foreign key's values point at (the same object for the
   * same row), or null when there is none.
   */
  parent(fk: SearchForeignKey, values: readonly SqliteValue[]): CandidateRow | null;
}

/** The reference and the candidate query. */
export interface QueryPair {
  readonly reference: string;
  readonly candidate: string;
}

/** What one candidate database gave, and, when asked, the same run with rows in another order. */
export interface TrialResult {
  readonly outcome: Outcome;
  /** The rows with the engine's row order changed (to tell results that hang on it). */
  readonly reversed?: Outcome;
}

/** Where candidates are built and both queries run; private to the search. */
export interface TrialSandbox {
  /**
   * Loads a candidate (rows the schema refuses are left out), runs both
   * queries, and undoes the load.
   *
   * @returns what happened, or null when a query failed or the database was refused
   */
  run(
    candidate: Candidate,
    queries: QueryPair,
    stableAlso?: boolean,
  ): TrialResult | null | Promise<TrialResult | null>;
  /**
   * The value of a constant expression of the queries (`date('2023-03-01',
   * '+1 month')`), computed by the sandbox's engine; undefined when it
   * fails. Absent: such constants are not used.
   */
  evaluate?(sql: string): unknown;
  close(): void | Promise<void>;
}

/** The given database, opened for a search. */
export interface GivenDatabase {
  readonly schema: SearchSchema;
  readonly rows: GivenRows;
  /** A new sandbox with the schema. */
  sandbox(): Promise<TrialSandbox>;
  /** The script that builds a candidate from nothing, in the database's dialect. */
  script(database: Candidate): string;
  /** How a candidate differs from the given database, per table. */
  changes(database: Candidate): TableChange[] | Promise<TableChange[]>;
  close(): void | Promise<void>;
}
