/**
 * A SELECT of any number of result columns. SQLite allows a table 2,000
 * columns but a result set no more (SQLITE_MAX_COLUMN), and the diff's
 * queries read both sides of a row at once: a wide table's row is read
 * through several statements that share the FROM, WHERE and ORDER BY and
 * differ only in their slice of the result columns, stepped in lockstep. The
 * order must be total (a unique key, or rows that are equal when tied) so the
 * statements agree on each row; a narrow result is one plain statement.
 *
 * A lazy SELECT is for loops that read the values of few of their rows and
 * only count the others (changes past the kept limits): its first column
 * comes from a statement of its own, stepped on every row, and the other
 * columns from statements prepared when first read and stepped only when a
 * row's values are read, up to that row. Such a loop costs about one narrow
 * statement, whatever the width.
 *
 * @module
 */
import type { Database } from "../sqlite/database.ts";
import type { SqliteParams } from "../sqlite/statement.ts";
import type { SqliteValue } from "../sqlite/value.ts";

/** Most result columns one statement is given (SQLite's limit is 2,000). */
export const COLUMNS_PER_STATEMENT = 1000;

/** What the diff's loops use of a statement. */
export interface RowSource {
  bind(params: SqliteParams): unknown;
  step(): boolean;
  value(i: number): SqliteValue;
  finalize(): void;
}

class SlicedSelect implements RowSource {
  readonly #parts: readonly RowSource[];

  constructor(parts: readonly RowSource[]) {
    this.#parts = parts;
  }

  bind(params: SqliteParams): this {
    for (const p of this.#parts) p.bind(params);
    return this;
  }

  step(): boolean {
    let more = false;
    for (const p of this.#parts) more = p.step();
    return more;
  }

  value(i: number): SqliteValue {
    const part = Math.floor(i / COLUMNS_PER_STATEMENT);
    return this.#parts[part]!.value(i - part * COLUMNS_PER_STATEMENT);
  }

  finalize(): void {
    for (const p of this.#parts) p.finalize();
  }
}

class LazySelect implements RowSource {
  readonly #lead: RowSource;
  /** Each part's SQL; a part is prepared when its values are first read. */
  readonly #sql: readonly string[];
  readonly #prepare: (sql: string) => RowSource;
  readonly #parts: (RowSource | null)[];
  /** Rows each part has stepped since the last bind. */
  readonly #at: number[];
  /** Rows the lead has stepped since the last bind. */
  #row = 0;
  #params: SqliteParams | null = null;

  constructor(lead: RowSource, sql: readonly string[], prepare: (sql: string) => RowSource) {
    this.#lead = lead;
    this.#sql = sql;
    this.#prepare = prepare;
    this.#parts = sql.map(() => null);
    this.#at = sql.map(() => 0);
  }

  bind(params: SqliteParams): this {
    this.#lead.bind(params);
    for (const p of this.#parts) p?.bind(params);
    // A copy: the caller may reuse its array for the next range.
    this.#params = [...params];
    this.#row = 0;
    this.#at.fill(0);
    return this;
  }

  step(): boolean {
    if (!this.#lead.step()) return false;
    this.#row++;
    return true;
  }

  value(i: number): SqliteValue {
    if (i === 0) return this.#lead.value(0);
    const k = Math.floor((i - 1) / COLUMNS_PER_STATEMENT);
    let part = this.#parts[k];
    if (part === null || part === undefined) {
      part = this.#prepare(this.#sql[k]!);
      if (this.#params !== null) part.bind(this.#params);
      this.#parts[k] = part;
    }
    while (this.#at[k]! < this.#row) {
      if (!part.step()) throw new Error("The statements of a wide SELECT disagree on its rows");
      this.#at[k]!++;
    }
    return part.value(i - 1 - k * COLUMNS_PER_STATEMENT);
  }

  finalize(): void {
    this.#lead.finalize();
    for (const p of this.#parts) p?.finalize();
  }
}

/**
 * Prepares `SELECT <columns> <rest>`, split into several statements when
 * there are more columns than one statement may return.
 *
 * @param db the connection
 * @param columns the result expressions, in order
 * @param rest everything after the result columns (`FROM ... WHERE ... ORDER BY ...`)
 * @param lazy read the columns after the first only up to the rows whose
 * values are read (see the module's documentation)
 * @returns the rows, read by column index as one statement's
 */
export function prepareSelect(
  db: Database,
  columns: readonly string[],
  rest: string,
  lazy = false,
): RowSource {
  const split = lazy && columns.length > 1;
  const from = split ? 1 : 0;
  const sql: string[] = [];
  for (let at = from; at < columns.length || at === 0; at += COLUMNS_PER_STATEMENT) {
    sql.push(`SELECT ${columns.slice(at, at + COLUMNS_PER_STATEMENT).join(", ")} ${rest}`);
  }
  if (split) {
    // The parts are prepared when first read: a wide SELECT takes SQLite
    // tens of milliseconds to prepare, for nothing when no row is kept.
    const lead = db.prepare(`SELECT ${columns[0]} ${rest}`);
    return new LazySelect(lead, sql, (text) => db.prepare(text));
  }
  const parts: RowSource[] = [];
  try {
    for (const text of sql) parts.push(db.prepare(text));
  } catch (e) {
    for (const p of parts) p.finalize();
    throw e;
  }
  return parts.length === 1 ? parts[0]! : new SlicedSelect(parts);
}
