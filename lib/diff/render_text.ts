/**
 * The diff for a person: a summary per database and table (like
 * `sqldiff --summary`, plus schema changes), then the row changes with
 * values as SQL literals.
 *
 * @module
 */
import type { SqliteRow, SqliteValue } from "../sqlite/value.ts";
import { sqlLiteral } from "../sqlite/sql_text.ts";
import { mapRow, rowValue } from "./_held_rows.ts";
import type { AddedRow, DatabaseChange, DatabaseDiff, TableDiff } from "./types.ts";

/**
 * Options of {@link renderDiffText}.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "./diff_sqlite.ts";
 * import { renderDiffText, type RenderOptions } from "./render_text.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const options: RenderOptions = { target: "schema" };
 * renderDiffText(diff, options).split("\n")[0]; // "users.db: added"
 * ```
 */
export interface RenderOptions {
  /** Which plane to show. Default both. */
  readonly target?: "data" | "schema" | "both";
  /**
   * List unchanged tables one per line. Default false: they are counted in
   * one line (`12 unchanged tables`), so thousands of them do not bury the
   * changes.
   */
  readonly showUnchanged?: boolean;
  /**
   * List every kept row of a table added or removed whole. Default false:
   * such a table is one line (`after.db: - table logs (10000 rows)`), so a
   * dropped table's rows do not bury the changes.
   */
  readonly tableRows?: boolean;
}

const LONG = 60;

/** A value as a SQL literal, long ones shortened for the terminal. */
function literal(v: SqliteValue): string {
  if (v instanceof Uint8Array && v.length > LONG / 2) {
    return `${sqlLiteral(v.subarray(0, LONG / 2)).slice(0, -1)}...' (${v.length} bytes)`;
  }
  if (typeof v === "string" && v.length > LONG) {
    return `${sqlLiteral(v.slice(0, LONG)).slice(0, -1)}...' (${v.length} chars)`;
  }
  return sqlLiteral(v);
}

/** Bytes shown either side of the first difference of a long value. */
const AROUND = 8;

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/**
 * A changed value for a person: short ones as literals; long BLOBs or texts
 * by where they first differ and the bytes (characters) around it, since two
 * long values often share a prefix longer than anything printed.
 */
function change(before: SqliteValue, after: SqliteValue): string {
  const blobs = before instanceof Uint8Array && after instanceof Uint8Array;
  const texts = typeof before === "string" && typeof after === "string";
  if (!(blobs || texts) || Math.max(before.length, after.length) <= LONG / 2) {
    return `${literal(before)} -> ${literal(after)}`;
  }
  let at = 0;
  while (at < before.length && at < after.length && before[at] === after[at]) at++;
  const from = Math.max(0, at - AROUND);
  const window = (v: Uint8Array | string): string => {
    const end = Math.min(v.length, at + AROUND + 1);
    const part = typeof v === "string"
      ? sqlLiteral(v.slice(from, end)).slice(1, -1)
      : hex(v.subarray(from, end));
    return `${from > 0 ? "..." : ""}${part}${end < v.length ? "..." : ""}`;
  };
  const unit = blobs ? "byte" : "character";
  return `${before.length} -> ${after.length} ${unit}s, first difference at ${unit} ${at}: ${
    blobs ? "x" : ""
  }'${window(before)}' -> ${blobs ? "x" : ""}'${window(after)}'`;
}

function rowText(row: SqliteRow): string {
  return Object.entries(row).map(([k, v]) => `${k}=${literal(v)}`).join(", ");
}

function tableLine(t: TableDiff, target: RenderOptions["target"]): string[] {
  const status = target === "data"
    ? t.data_status
    : target === "schema"
    ? t.schema_status
    : t.status;
  const out: string[] = [];
  const c = t.counts;
  const data = target !== "schema" && t.data_status === "changed"
    ? `; rows: ${c.changed} changed, ${c.added} added, ${c.removed} removed`
    : "";
  out.push(`  ${t.name}: ${status}${data}`);
  if (target !== "data") {
    for (const col of t.columns.added) {
      const dflt = col.default === null ? "" : ` DEFAULT ${col.default}`;
      out.push(`    + column ${col.name} ${col.type}${dflt}`.replace(/ +$/, ""));
    }
    for (const col of t.columns.removed) out.push(`    - column ${col.name} ${col.type}`.trimEnd());
    for (const col of t.columns.changed) {
      const what = col.changes.map((a) =>
        `${a} ${JSON.stringify(col.before[a])} -> ${JSON.stringify(col.after[a])}`
      );
      out.push(`    ~ column ${col.name}: ${what.join(", ")}`);
    }
  }
  return out;
}

function databaseSummary(d: DatabaseChange, options: RenderOptions): string[] {
  const target = options.target;
  const out = [`${d.name}: ${d.status}${d.error === null ? "" : ` (${d.error})`}`];
  let unchanged = 0;
  for (const t of d.tables) {
    const status = target === "data"
      ? t.data_status
      : target === "schema"
      ? t.schema_status
      : t.status;
    if (status === "unchanged" && options.showUnchanged !== true) unchanged++;
    else out.push(...tableLine(t, target));
  }
  if (unchanged > 0) {
    out.push(`  ${unchanged} unchanged table${unchanged === 1 ? "" : "s"}`);
  }
  if (target !== "data") {
    for (const o of d.objects) out.push(`  ${o.type} ${o.name} on ${o.table}: ${o.status}`);
  }
  for (const s of d.skipped) out.push(`  skipped ${s.name}: ${s.reason}`);
  return out;
}

function rowLines(d: DatabaseChange, t: TableDiff, options: RenderOptions): string[] {
  if (t.data_status === "unchanged") return [];
  const whole = t.schema_status === "added" || t.schema_status === "removed";
  if (whole && options.tableRows !== true) {
    const n = t.schema_status === "added" ? t.counts.added : t.counts.removed;
    const sign = t.schema_status === "added" ? "+" : "-";
    return [`${d.name}: ${sign} table ${t.name} (${n} row${n === 1 ? "" : "s"})`];
  }
  const out = [`${d.name} ${t.name}:`];
  const more = (shown: number, total: number): void => {
    if (total > shown) out.push(`  ... and ${total - shown} more`);
  };
  for (const r of t.rows.changed) {
    const key = rowText(r.key);
    const what = r.changed_columns.map((c) =>
      `${c} ${change(rowValue(r, "before", c) ?? null, rowValue(r, "after", c) ?? null)}`
    );
    out.push(`  ~ ${key}: ${what.join(", ")}`);
  }
  more(t.rows.changed.length, t.counts.changed);
  // mapRow: a wide row held as its values is not built (_held_rows.ts).
  const entries = (r: AddedRow): string => mapRow(r, (k, v) => `${k}=${literal(v)}`).join(", ");
  for (const r of t.rows.added) out.push(`  + ${entries(r)}`);
  more(t.rows.added.length, t.counts.added);
  for (const r of t.rows.removed) out.push(`  - ${entries(r)}`);
  more(t.rows.removed.length, t.counts.removed);
  if (t.bytes_cut === true) {
    out.push("  (rows past the --max-bytes budget were counted, not kept; raise it to see them)");
  }
  return out;
}

/**
 * Renders a diff as text for a terminal.
 *
 * @param diff the diff
 * @param options which plane to show, unchanged tables, rows of whole tables
 * @returns the text, ending with a newline
 * @example
 * ```ts
 * import { renderDiffText } from "./render_text.ts";
 * import { DIFF_FORMAT_VERSION } from "./types.ts";
 * renderDiffText({
 *   version: DIFF_FORMAT_VERSION,
 *   settings: { include_schema: true, include_data: true, max_rows: 1000, tables: null },
 *   databases: [],
 * }); // "no databases\n"
 * ```
 */
export function renderDiffText(diff: DatabaseDiff, options: RenderOptions = {}): string {
  const target = options.target ?? "both";
  if (diff.databases.length === 0) return "no databases\n";
  const lines: string[] = [];
  for (const d of diff.databases) lines.push(...databaseSummary(d, { ...options, target }));
  if (target !== "schema") {
    const rows = diff.databases.flatMap((d) => d.tables.flatMap((t) => rowLines(d, t, options)));
    if (rows.length > 0) lines.push("", "Row changes:", ...rows);
  }
  return `${lines.join("\n")}\n`;
}
