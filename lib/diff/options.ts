/**
 * The options every diff function takes, and their defaults.
 *
 * @module
 */
import type { DiffSettings } from "./types.ts";

/**
 * Options of {@link diffSqliteDatabases} and {@link diffFilesystemDatabases}.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases, type DiffOptions } from "../../mod.ts";
 * const options: DiffOptions = { includeSchema: false, maxRows: 10, tables: ["users"] };
 * const file = "examples/db_agent/users.db";
 * (await diffSqliteDatabases(file, file, options)).databases[0]?.status; // "unchanged"
 * ```
 */
export interface DiffOptions {
  /** Report schema changes (columns, indexes, views, triggers). Default true. */
  readonly includeSchema?: boolean;
  /** Compare rows. Default true. */
  readonly includeData?: boolean;
  /**
   * Most row changes kept per table and kind (added, removed, changed);
   * counts stay exact and `truncated` says rows were dropped. Default 1000.
   */
  readonly maxRows?: number;
  /**
   * Most bytes of values the kept row changes of one database hold (about:
   * text at a byte a character, a number 8). Once a row does not fit, no
   * more rows are kept; counts stay exact, `truncated` is true and
   * `bytes_cut` says why. Default {@link DEFAULT_MAX_BYTES} (8 MiB).
   */
  readonly maxBytes?: number;
  /** Only these tables (by name); default every table. */
  readonly tables?: readonly string[];
  /**
   * How rows of rowid tables pair: `primary_key` (the default) by the
   * declared primary key, like `sqldiff --primarykey`; `rowid` by the rowid,
   * like plain `sqldiff`, also for tables without a primary key (which are
   * then keyed, not multisets). WITHOUT ROWID tables always pair by their key.
   */
  readonly pairBy?: "primary_key" | "rowid";
}

/**
 * The default of {@link DiffOptions.maxRows}.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_ROWS } from "./options.ts";
 * DEFAULT_MAX_ROWS; // 1000
 * ```
 */
export const DEFAULT_MAX_ROWS = 1000;

/**
 * The default of {@link DiffOptions.maxBytes}: 8 MiB.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_BYTES } from "./options.ts";
 * DEFAULT_MAX_BYTES; // 8388608
 * ```
 */
export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The options with defaults filled in, in the document's spelling.
 *
 * @param options what the caller gave
 * @returns the settings recorded in the diff
 */
export function diffSettings(options: DiffOptions = {}): DiffSettings {
  const maxRows = options.maxRows ?? DEFAULT_MAX_ROWS;
  if (!Number.isInteger(maxRows) || maxRows < 0) {
    throw new RangeError(`maxRows must be a whole number of at least 0, got ${maxRows}`);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 0) {
    throw new RangeError(`maxBytes must be a whole number of at least 0, got ${maxBytes}`);
  }
  return {
    include_schema: options.includeSchema ?? true,
    include_data: options.includeData ?? true,
    max_rows: maxRows,
    max_bytes: maxBytes,
    tables: options.tables === undefined ? null : [...options.tables],
    ...(options.pairBy === "rowid" ? { pair_by: "rowid" as const } : {}),
  };
}
