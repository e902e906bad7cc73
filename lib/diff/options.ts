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
  /**
   * Per table (by name), the columns its rows pair by instead of its own key:
   * a table without a primary key, or one whose rowids VACUUM renumbered,
   * then shows rows changed, not removed and added. Each side must hold one
   * row per key value (else a `DiffKeyError`); rows whose key holds a
   * NULL compare as whole rows.
   */
  readonly keys?: Readonly<Record<string, readonly string[]>>;
  /**
   * Columns left out of the row comparison and of the rows reported: `COL`
   * in every table, or `TABLE.COL`; `*`, `?` and `[...]` globs, names
   * compared as SQLite does (ASCII case folded). The columns rows pair by
   * are never left out. The schema plane still reports them.
   */
  readonly ignore?: readonly string[];
  /** Tables left out (globs as in {@link ignore}): listed in `skipped`, with their indexes and triggers left out. */
  readonly ignoreTables?: readonly string[];
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
    ...aimSettings(options),
  };
}

/** The `keys`, `ignore` and `ignore_tables` settings, present only when given. */
function aimSettings(
  options: DiffOptions,
): Pick<DiffSettings, "keys" | "ignore" | "ignore_tables"> {
  const out: { keys?: Record<string, string[]>; ignore?: string[]; ignore_tables?: string[] } = {};
  if (options.keys !== undefined && Object.keys(options.keys).length > 0) {
    const keys: Record<string, string[]> = {};
    for (const [table, cols] of Object.entries(options.keys)) {
      if (
        !Array.isArray(cols) || cols.length === 0 ||
        cols.some((c) => typeof c !== "string" || c === "")
      ) {
        throw new RangeError(
          `keys.${table} must list the columns rows pair by, got ${JSON.stringify(cols)}`,
        );
      }
      keys[table] = [...cols];
    }
    out.keys = keys;
  }
  const patterns = (name: string, list: readonly string[] | undefined): string[] | undefined => {
    if (list === undefined || list.length === 0) return undefined;
    for (const p of list) {
      if (typeof p !== "string" || p === "" || p.startsWith(".") || p.endsWith(".")) {
        throw new RangeError(`${name}: ${JSON.stringify(p)} is not a column (COL or TABLE.COL)`);
      }
    }
    return [...list];
  };
  const ignore = patterns("ignore", options.ignore);
  if (ignore !== undefined) out.ignore = ignore;
  const tables = patterns("ignoreTables", options.ignoreTables);
  if (tables !== undefined) out.ignore_tables = tables;
  return out;
}
