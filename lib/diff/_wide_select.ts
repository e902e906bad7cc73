/**
 * A SELECT of any number of result columns. SQLite allows a table 2,000
 * columns but a result set no more (SQLITE_MAX_COLUMN), and the diff's
 * queries read both sides of a row at once: a wide table's row is read
 * through several statements that share the FROM, WHERE and ORDER BY and
 * differ only in their slice of the result columns, stepped in lockstep. The
 * order must be total (a unique key, or rows that are equal when tied) so the
 * statements agree on each row; a narrow result is one plain statement.
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

/**
 * Prepares `SELECT <columns> <rest>`, split into several statements when
 * there are more columns than one statement may return.
 *
 * @param db the connection
 * @param columns the result expressions, in order
 * @param rest everything after the result columns (`FROM ... WHERE ... ORDER BY ...`)
 * @returns the rows, read by column index as one statement's
 */
export function prepareSelect(db: Database, columns: readonly string[], rest: string): RowSource {
  const parts: RowSource[] = [];
  try {
    for (let at = 0; at < columns.length || at === 0; at += COLUMNS_PER_STATEMENT) {
      const slice = columns.slice(at, at + COLUMNS_PER_STATEMENT);
      parts.push(db.prepare(`SELECT ${slice.join(", ")} ${rest}`));
    }
  } catch (e) {
    for (const p of parts) p.finalize();
    throw e;
  }
  return parts.length === 1 ? parts[0]! : new SlicedSelect(parts);
}
