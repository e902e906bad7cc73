/**
 * `db diff --summary`: one line per changed table with its counts, like
 * `sqldiff --summary`, and one line for the tables that did not change.
 *
 * @module
 */
import type { DatabaseDiff, RowCounts, TableDiff } from "./types.ts";

/** The changed cells after the changed rows' count: ` (3 cells)`, or nothing when none changed. */
function cells(c: RowCounts): string {
  const n = c.changed_cells;
  return c.changed === 0 || n === undefined ? "" : ` (${n} cell${n === 1 ? "" : "s"})`;
}

/** Which plane a summary counts. */
export type SummaryTarget = "data" | "schema" | "both";

function statusOf(t: TableDiff, target: SummaryTarget): string {
  return target === "data" ? t.data_status : target === "schema" ? t.schema_status : t.status;
}

/**
 * Renders the summary: per database a line with its status, then per
 * changed table `name: N changed (N cells), N added, N removed` (with
 * `schema changed`, `added` or `removed` first when the table itself
 * changed; the cells the changed rows changed, when some did).
 *
 * @param diff the diff (counts are exact whatever `maxRows` kept)
 * @param target which plane to count
 * @returns the text, ending with a newline
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "./diff_sqlite.ts";
 * import { renderDiffSummary } from "./render_summary.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db", { maxRows: 0 });
 * renderDiffSummary(diff).split("\n")[1]; // "  todos: added; 0 changed, 5 added, 0 removed"
 * ```
 */
export function renderDiffSummary(diff: DatabaseDiff, target: SummaryTarget = "both"): string {
  if (diff.databases.length === 0) return "no databases\n";
  const lines: string[] = [];
  for (const d of diff.databases) {
    lines.push(`${d.name}: ${d.status}${d.error === null ? "" : ` (${d.error})`}`);
    let unchanged = 0;
    for (const t of d.tables) {
      const status = statusOf(t, target);
      if (status === "unchanged") {
        unchanged++;
        continue;
      }
      const c = t.counts;
      const schema = target !== "data" && t.schema_status !== "unchanged"
        ? `${t.schema_status === "changed" ? "schema changed" : t.schema_status}; `
        : "";
      const data = target === "schema"
        ? ""
        : `${c.changed} changed${cells(c)}, ${c.added} added, ${c.removed} removed`;
      lines.push(`  ${t.name}: ${`${schema}${data}`.replace(/; $/, "")}`);
    }
    if (target !== "data") {
      for (const o of d.objects) lines.push(`  ${o.type} ${o.name}: ${o.status}`);
    }
    if (unchanged > 0) lines.push(`  ${unchanged} table${unchanged === 1 ? "" : "s"} unchanged`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Whether a diff holds any change in the target planes (what `db diff
 * --exit-code` reports as exit code 1).
 *
 * @param diff the diff
 * @param target which plane counts
 * @returns true when something changed
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "./diff_sqlite.ts";
 * import { diffChanged } from "./render_summary.ts";
 * const file = "examples/db_agent/users.db";
 * diffChanged(await diffSqliteDatabases(file, file)); // false
 * ```
 */
export function diffChanged(diff: DatabaseDiff, target: SummaryTarget = "both"): boolean {
  return diff.databases.some((d) =>
    d.status === "added" || d.status === "removed" ||
    (d.error !== null && d.status !== "unchanged") ||
    d.tables.some((t) => statusOf(t, target) !== "unchanged") ||
    (target !== "data" && d.objects.length > 0)
  );
}
