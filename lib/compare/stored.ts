/**
 * Rows with each value's SQLite storage class kept, the form the public
 * benchmarks' scores read: Python's sqlite3 hands an INTEGER as `int` and a
 * REAL as `float`, and test-suite-sql-eval's comparison can tell `3` from
 * `3.0`. Here an INTEGER is a `bigint` and a REAL a `number`.
 *
 * @module
 */
import type { Database } from "../sqlite/database.ts";

/**
 * A value with its storage class: INTEGER `bigint`, REAL `number`, TEXT
 * `string`, BLOB `Uint8Array`, NULL `null`.
 *
 * @example
 * ```ts
 * import type { StoredValue } from "./stored.ts";
 * const row: StoredValue[] = [3n, 3.0, "3", null];
 * ```
 */
export type StoredValue = bigint | number | string | Uint8Array | null;

/**
 * A query's result: its column names and rows, values with their storage
 * class.
 *
 * @example
 * ```ts
 * import type { StoredRows } from "./stored.ts";
 * const rows: StoredRows = { columns: ["n"], rows: [[2n]] };
 * ```
 */
export interface StoredRows {
  /** The column names, in order; a name may repeat. */
  readonly columns: readonly string[];
  /** The rows, values in column order. */
  readonly rows: readonly (readonly StoredValue[])[];
}

/**
 * Runs one SQL statement on the case's database and returns its rows;
 * throws when the statement fails.
 *
 * @example
 * ```ts
 * import type { StoredExecutor } from "./stored.ts";
 * const execute: StoredExecutor = (_sql) => ({ columns: ["n"], rows: [[1n]] });
 * ```
 */
export type StoredExecutor = (sql: string) => StoredRows | Promise<StoredRows>;

/**
 * A {@link StoredExecutor} over an open database. SQL with no statement
 * (empty, or only comments) gives no rows, as Python's sqlite3 does.
 *
 * @param db the open database (only read)
 * @returns the executor
 * @example
 * ```ts
 * import { openMemoryDatabase } from "../sqlite/database.ts";
 * import { storedExecutor } from "./stored.ts";
 * const db = await openMemoryDatabase();
 * const rows = await storedExecutor(db)("SELECT 3 AS i, 3.0 AS r");
 * rows.rows; // [[3n, 3]]
 * db.close();
 * ```
 */
export function storedExecutor(db: Database): StoredExecutor {
  return (sql: string): StoredRows => {
    if (isEmptySql(sql)) return { columns: [], rows: [] };
    const stmt = db.prepare(sql);
    try {
      const n = stmt.columnNames.length;
      const rows: StoredValue[][] = [];
      while (stmt.step()) {
        const row = new Array<StoredValue>(n);
        for (let i = 0; i < n; i++) {
          const v = stmt.value(i);
          row[i] = typeof v === "number" && stmt.storageClass(i) === "integer" ? BigInt(v) : v;
        }
        rows.push(row);
      }
      return { columns: stmt.columnNames, rows };
    } finally {
      stmt.finalize();
    }
  };
}

/** Only white space, comments and semicolons: no statement to run. */
function isEmptySql(sql: string): boolean {
  return sql.replace(/--[^\n]*(\n|$)|\/\*[\s\S]*?(\*\/|$)|[\s;]/g, "") === "";
}
