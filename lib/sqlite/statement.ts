/**
 * A prepared statement, stepped and read through the raw `sqlite3_column_*`
 * exports: the oo1 wrapper is about 4x slower in the scan loops of the diff
 * engine.
 *
 * @module
 */
import type { Database } from "./database.ts";
import type { Ptr, RawExports, Sqlite } from "./wasm.ts";
import { decodeSqliteTextAt, encodeSqliteText } from "./text.ts";
import { onStepStart } from "./guard.ts";
import { setColumn, type SqliteRow, type SqliteValue } from "./value.ts";

const SQLITE_ROW = 100;
const SQLITE_DONE = 101;
const SQLITE_INTEGER = 1;
const SQLITE_FLOAT = 2;
const SQLITE_TEXT = 3;
const SQLITE_BLOB = 4;

/**
 * Values bound to `?` placeholders, in order.
 *
 * @example
 * ```ts
 * import { openMemoryDatabase, type SqliteParams } from "../../mod.ts";
 * const params: SqliteParams = [1, "a", null, 2n ** 60n, new Uint8Array([0xff])];
 * const db = await openMemoryDatabase();
 * db.query("SELECT ? AS a, ? AS b, ? AS c, ? AS d, ? AS e", params);
 * db.close();
 * ```
 */
export type SqliteParams = readonly SqliteValue[];

/**
 * A prepared statement. Step it and read the current row, or iterate it.
 * Reads go through the raw `sqlite3_column_*` exports: the oo1 wrapper is
 * about 4x slower in the scan loops of the diff engine.
 *
 * @example
 * ```ts
 * import { openMemoryDatabase } from "./database.ts";
 * const db = await openMemoryDatabase();
 * const statement = db.prepare("SELECT ? * 2 AS twice").bind([21]);
 * statement.step(); // true
 * statement.object(); // { twice: 42 }
 * statement.finalize();
 * db.close();
 * ```
 */
export class Statement {
  readonly #sqlite: Sqlite;
  readonly #db: Database;
  readonly #stmt: Ptr;
  readonly #raw: RawExports;
  readonly #sql: string;
  #done = false;
  /** The result's column names. */
  readonly columnNames: readonly string[];

  /** @internal Use {@link Database.prepare}. */
  constructor(sqlite: Sqlite, db: Database, stmt: Ptr, sql: string) {
    this.#sqlite = sqlite;
    this.#db = db;
    this.#stmt = stmt;
    this.#raw = sqlite.wasm.exports;
    this.#sql = sql;
    const n = sqlite.wasm.exports.sqlite3_column_count(stmt);
    const names: string[] = [];
    for (let i = 0; i < n; i++) {
      names.push(sqlite.capi.sqlite3_column_name(stmt, i));
    }
    this.columnNames = names;
  }

  /**
   * Binds values to the `?` placeholders, resetting the statement first.
   *
   * @param params the values, in placeholder order
   * @returns this statement
   */
  bind(params: SqliteParams): this {
    const raw = this.#sqlite.wasm.exports;
    raw.sqlite3_reset(this.#stmt);
    this.#done = false;
    // A loop, and 32-bit integers bound without a BigInt: the diff binds a
    // rowid range per query, hundreds of thousands of times, and Bun gives
    // the memory of short-lived closures and BigInts back late.
    for (let i = 0; i < params.length; i++) {
      const v = params[i]!;
      const at = i + 1;
      let rc: number;
      if (v === null) rc = raw.sqlite3_bind_null(this.#stmt, at);
      else if (typeof v === "bigint") {
        rc = raw.sqlite3_bind_int64(this.#stmt, at, v);
      } else if (typeof v === "number") {
        // -0 is a REAL (SQLite keeps its sign), not the INTEGER 0.
        rc = (v | 0) === v && !Object.is(v, -0)
          ? raw.sqlite3_bind_int(this.#stmt, at, v)
          : Number.isSafeInteger(v) && !Object.is(v, -0)
          ? raw.sqlite3_bind_int64(this.#stmt, at, BigInt(v))
          : raw.sqlite3_bind_double(this.#stmt, at, v);
      } else if (typeof v === "string") {
        rc = this.#bindBytes(at, encodeSqliteText(v), true);
      } else rc = this.#bindBytes(at, v, false);
      if (rc !== 0) this.#throw(rc);
    }
    return this;
  }

  // The package's sqlite3_bind_text wrapper throws on a plain string in this
  // build, so text and BLOBs are copied into the heap here and handed over
  // with SQLITE_WASM_DEALLOC, which frees them when SQLite is done.
  #bindBytes(at: number, bytes: Uint8Array, asText: boolean): number {
    const { wasm, capi } = this.#sqlite;
    const p = wasm.alloc(Math.max(bytes.length, 1));
    wasm.heap8u().set(bytes, p);
    const free = capi.SQLITE_WASM_DEALLOC;
    return asText
      ? wasm.exports.sqlite3_bind_text(this.#stmt, at, p, bytes.length, free)
      : wasm.exports.sqlite3_bind_blob(this.#stmt, at, p, bytes.length, free);
  }

  /**
   * Advances to the next row.
   *
   * @returns true when a row is ready, false when the statement is done
   */
  step(): boolean {
    if (this.#done) return false;
    onStepStart?.();
    const rc = this.#sqlite.wasm.exports.sqlite3_step(this.#stmt);
    if (rc === SQLITE_ROW) return true;
    this.#done = true;
    if (rc === SQLITE_DONE) return false;
    return this.#throw(rc);
  }

  /**
   * The value of column `i` of the current row.
   *
   * @param i the 0-based column index
   * @returns the value, as SQLite stores it
   */
  value(i: number): SqliteValue {
    const raw = this.#raw;
    const s = this.#stmt;
    switch (raw.sqlite3_column_type(s, i)) {
      case SQLITE_INTEGER: {
        // A double holds every integer up to 2^53 exactly: read that first
        // and only allocate a bigint for the rare value beyond it.
        const d = raw.sqlite3_column_double(s, i);
        return Number.isSafeInteger(d) ? d : raw.sqlite3_column_int64(s, i);
      }
      case SQLITE_FLOAT:
        return raw.sqlite3_column_double(s, i);
      case SQLITE_TEXT: {
        const p = raw.sqlite3_column_text(s, i);
        return decodeSqliteTextAt(this.#sqlite.wasm.heap8u(), p, raw.sqlite3_column_bytes(s, i));
      }
      case SQLITE_BLOB: {
        const n = raw.sqlite3_column_bytes(s, i);
        if (n === 0) return new Uint8Array(0);
        const p = raw.sqlite3_column_blob(s, i);
        return this.#sqlite.wasm.heap8u().slice(p, p + n);
      }
      default:
        return null;
    }
  }

  /**
   * The storage class of column `i` of the current row: `value()` reads an
   * INTEGER and a REAL of the same value as the same number.
   *
   * @param i the 0-based column index
   * @returns "integer", "real", "text", "blob" or "null"
   */
  storageClass(i: number): "integer" | "real" | "text" | "blob" | "null" {
    switch (this.#raw.sqlite3_column_type(this.#stmt, i)) {
      case SQLITE_INTEGER:
        return "integer";
      case SQLITE_FLOAT:
        return "real";
      case SQLITE_TEXT:
        return "text";
      case SQLITE_BLOB:
        return "blob";
      default:
        return "null";
    }
  }

  /** The current row as an array of values. */
  row(): SqliteValue[] {
    const n = this.columnNames.length;
    const out = new Array<SqliteValue>(n);
    for (let i = 0; i < n; i++) out[i] = this.value(i);
    return out;
  }

  /**
   * The current row as an object keyed by column name. A column named
   * `__proto__` is an own property like any other (a plain assignment would
   * replace the object's prototype instead).
   */
  object(): SqliteRow {
    const out: SqliteRow = {};
    this.columnNames.forEach((name, i) => setColumn(out, name, this.value(i)));
    return out;
  }

  /** Iterates the remaining rows as arrays. */
  *rows(): Generator<SqliteValue[], void, undefined> {
    while (this.step()) yield this.row();
  }

  /** Resets the statement so it can run again with the same bindings. */
  reset(): void {
    this.#sqlite.wasm.exports.sqlite3_reset(this.#stmt);
    this.#done = false;
  }

  /** Frees the statement. */
  finalize(): void {
    this.#db.forget(this);
    this.#sqlite.wasm.exports.sqlite3_finalize(this.#stmt);
  }

  #throw(rc: number): never {
    const raw = this.#sqlite.wasm.exports;
    raw.sqlite3_reset(this.#stmt);
    throw this.#db.errorFor(this.#sql, rc);
  }
}
