/**
 * The diff for a person: a summary per database and table (like
 * `sqldiff --summary`, plus schema changes), then the row changes with
 * values as SQL literals.
 *
 * @module
 */
import type { SqliteRow, SqliteValue } from "../sqlite/value.ts";
import { sqlLiteral } from "./_sql.ts";
import type { DatabaseChange, DatabaseDiff, TableDiff } from "./types.ts";

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
    for (const col of t.columns.added) out.push(`    + column ${col.name} ${col.type}`.trimEnd());
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

function databaseSummary(d: DatabaseChange, target: RenderOptions["target"]): string[] {
  const out = [`${d.name}: ${d.status}${d.error === null ? "" : ` (${d.error})`}`];
  for (const t of d.tables) out.push(...tableLine(t, target));
  if (target !== "data") {
    for (const o of d.objects) out.push(`  ${o.type} ${o.name} on ${o.table}: ${o.status}`);
  }
  for (const s of d.skipped) out.push(`  skipped ${s.name}: ${s.reason}`);
  return out;
}

function rowLines(d: DatabaseChange, t: TableDiff): string[] {
  if (t.data_status === "unchanged") return [];
  const out = [`${d.name} ${t.name}:`];
  const more = (shown: number, total: number): void => {
    if (total > shown) out.push(`  ... and ${total - shown} more`);
  };
  for (const r of t.rows.changed) {
    const key = rowText(r.key);
    const what = r.changed_columns.map((c) =>
      `${c} ${literal(r.before[c] ?? null)} -> ${literal(r.after[c] ?? null)}`
    );
    out.push(`  ~ ${key}: ${what.join(", ")}`);
  }
  more(t.rows.changed.length, t.counts.changed);
  for (const r of t.rows.added) out.push(`  + ${rowText(r.row)}`);
  more(t.rows.added.length, t.counts.added);
  for (const r of t.rows.removed) out.push(`  - ${rowText(r.row)}`);
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
 * @param options which plane to show
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
  for (const d of diff.databases) lines.push(...databaseSummary(d, target));
  if (target !== "schema") {
    const rows = diff.databases.flatMap((d) => d.tables.flatMap((t) => rowLines(d, t)));
    if (rows.length > 0) lines.push("", "Row changes:", ...rows);
  }
  return `${lines.join("\n")}\n`;
}
