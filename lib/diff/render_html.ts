/**
 * The diff as one self-contained HTML page (`db diff --html FILE`): the
 * databases and tables with their status and exact counts, the schema
 * changes (columns, the CREATE statements old and new, indexes, views and
 * triggers), and per table the rows added, removed and changed, with the
 * changed cells marked old -> new (lib/diff/_html_rows.ts).
 *
 * The page is written as the diff streams: each changed table's section when
 * the table is done (its rows are the ones the diff keeps, `maxRows` of each
 * kind, so memory stays flat), each database's summary when the database is
 * done, the page's summary at the end. The summaries come last in the file
 * and first on the screen (CSS `order`), so nothing waits for the end of a
 * 1 GB diff but the overview. No script: folding is `<details>`, and the
 * page's Content-Security-Policy lets no script run and nothing load.
 *
 * @module
 */
import { BASE_STYLE, escapeHtml } from "../html_page.ts";
import { esc, writeRowTable } from "./_html_rows.ts";
import type { DiffListener } from "./listener.ts";
import type {
  ChangeStatus,
  ColumnInfo,
  DatabaseChange,
  DatabaseDiff,
  SchemaObjectChange,
  TableDiff,
} from "./types.ts";

/**
 * Options of {@link HtmlRenderer} and {@link renderDiffHtml}.
 *
 * @example
 * ```ts
 * import type { HtmlDiffOptions } from "./render_html.ts";
 * const options: HtmlDiffOptions = { before: "before.db", after: "after.db" };
 * options.before; // "before.db"
 * ```
 */
export interface HtmlDiffOptions {
  /** The BEFORE path as given, for the page's title. */
  readonly before?: string;
  /** The AFTER path as given. */
  readonly after?: string;
  /** Which plane to show. Default both. */
  readonly target?: "data" | "schema" | "both";
}

const STYLE = `${BASE_STYLE}
body { display: flex; flex-direction: column; }
body > header { order: -2; } body > #overview { order: -1; }
section.db { display: flex; flex-direction: column; border-top: 2px solid var(--line); margin-top: 16px; }
section.db > .db-head { order: -1; }
.st { font-size: 12px; font-weight: 600; border-radius: 10px; padding: 1px 8px; }
.st-added { background: #dafbe1; color: #116329; } .st-removed { background: #ffebe9; color: #a40e26; }
.st-changed { background: #fff8c5; color: #7d4e00; } .st-unchanged { background: #f6f8fa; color: #59636e; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
section.table { margin: 14px 0 6px; }
table.rows { width: auto; font: 12px/1.4 ui-monospace, monospace; margin: 4px 0; }
table.rows td, table.rows th { border: 1px solid var(--line); padding: 2px 6px; white-space: pre-wrap; overflow-wrap: anywhere; max-width: 480px; }
tr.added td.kind { color: #116329; } tr.removed td.kind { color: #a40e26; } tr.changed td.kind { color: #7d4e00; }
tr.added td { background: #f0fff4; } tr.removed td { background: #fff5f5; }
td.chg { background: #fff8c5; outline: 1px solid #d4a72c; }
td.chg .old { background: #ffebe9; text-decoration: line-through; } td.chg .new { background: #dafbe1; }
th.key, td.key { font-weight: 600; }
th.before-only, td.before-only { background: #fff0f0; } th.after-only, td.after-only { background: #effff3; }
th .side { display: block; font: 10px system-ui, sans-serif; color: #59636e; }
.null { color: #8250df; font-style: italic; } .empty { color: #8250df; } .absent { color: #8c959f; }
.size { color: #59636e; font-size: 11px; } .blob { color: #0550ae; }
details.long summary { cursor: pointer; }
p.more { color: #7d4e00; margin: 2px 0 10px; }
.sql { display: flex; gap: 12px; flex-wrap: wrap; } .sql > div { flex: 1 1 420px; min-width: 0; }
.sql pre { font-size: 12px; }
table.objects .sql > div { flex-basis: 240px; }
ul.cols { margin: 4px 0; padding-left: 20px; font-family: ui-monospace, monospace; font-size: 12px; }
`;

function status(s: ChangeStatus | "unreadable"): string {
  return `<span class="st st-${s === "unreadable" ? "removed" : s}">${s}</span>`;
}

function statusOf(t: TableDiff, target: HtmlDiffOptions["target"]): ChangeStatus {
  return target === "data" ? t.data_status : target === "schema" ? t.schema_status : t.status;
}

function sqlPair(before: string | null, after: string | null): string {
  const side = (label: string, sql: string | null) =>
    sql === null ? "" : `<div><div class="muted">${label}</div><pre>${esc(sql)}</pre></div>`;
  return `<div class="sql">${side("before", before)}${side("after", after)}</div>`;
}

function column(c: ColumnInfo): string {
  return [
    esc(c.name),
    c.type === "" ? "" : esc(c.type),
    c.not_null ? "NOT NULL" : "",
    c.default === null ? "" : `DEFAULT ${esc(c.default)}`,
  ].filter((s) => s !== "").join(" ");
}

function schemaPart(t: TableDiff): string {
  if (t.schema_status === "unchanged") return "";
  const items = [
    ...t.columns.added.map((c) => `<li class="after-only">+ column ${column(c)}</li>`),
    ...t.columns.removed.map((c) => `<li class="before-only">- column ${column(c)}</li>`),
    ...t.columns.changed.map((c) =>
      `<li>~ column ${esc(c.name)}: ${
        c.changes.map((what) =>
          `${what} ${esc(JSON.stringify(c.before[what]))} → ${esc(JSON.stringify(c.after[what]))}`
        ).join(", ")
      }</li>`
    ),
  ];
  const list = items.length === 0 ? "" : `<ul class="cols">${items.join("")}</ul>`;
  return `${list}${sqlPair(t.sql_before, t.sql_after)}`;
}

function objectRows(objects: readonly SchemaObjectChange[]): string {
  if (objects.length === 0) return "";
  const rows = objects.map((o) =>
    `<tr><td>${o.type}</td><td>${esc(o.name)}</td><td>${esc(o.table)}</td><td>${
      status(o.status)
    }</td><td>${sqlPair(o.sql_before, o.sql_after)}</td></tr>`
  ).join("\n");
  return `<h3>Indexes, views and triggers</h3><table class="objects"><thead><tr><th>Type</th><th>Name</th><th>Table</th><th>Status</th><th>SQL</th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
}

/**
 * Writes the HTML page of a diff as the diff streams: give it to
 * `streamSqliteDiff` or `diffFilesystemDatabases` as their listener, then
 * call {@link HtmlRenderer.finish} with the finished diff.
 *
 * @example
 * ```ts
 * import { streamSqliteDiff } from "./diff_sqlite.ts";
 * import { HtmlRenderer } from "./render_html.ts";
 * let page = "";
 * const html = new HtmlRenderer({ write: (t) => void (page += t) });
 * html.finish(await streamSqliteDiff(null, "examples/db_agent/users.db", {}, html));
 * page.includes("</html>"); // true
 * ```
 */
export class HtmlRenderer implements DiffListener {
  readonly #out: { write(text: string): void };
  readonly #options: HtmlDiffOptions;
  #db = 0;
  #tables = 0;
  #open = false;
  /** The section ids of the open database's changed tables, by name. */
  #ids = new Map<string, string>();
  /** The section id of each database written, by name. */
  #written = new Map<string, string>();

  /**
   * Writes the page's head.
   *
   * @param out where the page goes
   * @param options the paths for the title, the plane shown
   */
  constructor(out: { write(text: string): void }, options: HtmlDiffOptions = {}) {
    this.#out = out;
    this.#options = options;
    const title = options.before === undefined
      ? "Database diff"
      : `Database diff: ${options.before} → ${options.after ?? ""}`;
    out.write(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(title, { shown: "attribute" })}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>${esc(title)}</h1></header>
`);
  }

  #section(): void {
    if (this.#open) return;
    this.#open = true;
    this.#out.write(`<section class="db" id="d${this.#db}">\n`);
  }

  /** Writes a changed table's section. */
  tableDone(t: TableDiff): void {
    const s = statusOf(t, this.#options.target);
    if (s === "unchanged") return;
    this.#section();
    const id = `d${this.#db}-t${this.#tables++}`;
    this.#ids.set(t.name, id);
    const showSchema = this.#options.target !== "data";
    const showRows = this.#options.target !== "schema";
    const c = t.counts;
    const counts = t.data_status === "unchanged" || !showRows
      ? ""
      : ` <span class="muted">${c.changed} changed, ${c.added} added, ${c.removed} removed</span>`;
    const whole = t.schema_status === "added" || t.schema_status === "removed";
    const write = (html: string) => this.#out.write(html);
    write(
      `<section class="table" id="${id}" data-table="${
        escapeHtml(t.name, { shown: "attribute" })
      }"><h3>${esc(t.name)} ${status(s)}${counts}</h3>${showSchema ? schemaPart(t) : ""}`,
    );
    const rows = c.added + c.removed + c.changed;
    if (showRows && rows > 0) {
      // A table added or removed whole: its rows folded, so they do not bury the rest.
      if (whole) write(`<details><summary>${rows} row${rows === 1 ? "" : "s"}</summary>`);
      for (const kind of ["changed", "added", "removed"] as const) writeRowTable(t, kind, write);
      if (whole) write("</details>");
    }
    write("</section>\n");
  }

  /** Writes the database's summary (shown above its tables) and closes its section. */
  done(d: DatabaseChange): void {
    this.#section();
    this.#out.write(this.#summary(d));
    this.#out.write("</section>\n");
    this.#written.set(d.name, `d${this.#db}`);
    this.#open = false;
    this.#ids = new Map();
    this.#db++;
  }

  #summary(d: DatabaseChange): string {
    const target = this.#options.target;
    const changed = d.tables.filter((t) => statusOf(t, target) !== "unchanged");
    const unchanged = d.tables.filter((t) => statusOf(t, target) === "unchanged");
    const paths = d.before_path === d.after_path
      ? esc(d.path)
      : `${esc(d.before_path ?? "(none)")} → ${esc(d.after_path ?? "(none)")}`;
    const line = (t: TableDiff) => {
      const id = this.#ids.get(t.name);
      const name = id === undefined ? esc(t.name) : `<a href="#${id}">${esc(t.name)}</a>`;
      const c = t.counts;
      return `<tr><td>${name}</td><td>${status(statusOf(t, target))}</td><td>${
        status(t.schema_status)
      }</td><td class="n">${c.changed}</td><td class="n">${c.added}</td><td class="n">${c.removed}</td></tr>`;
    };
    const tables = changed.length === 0
      ? '<p class="muted">No table changed.</p>'
      : `<table class="tables"><thead><tr><th>Table</th><th>Status</th><th>Schema</th><th>Changed rows</th><th>Added rows</th><th>Removed rows</th></tr></thead><tbody>\n${
        changed.map(line).join("\n")
      }\n</tbody></table>`;
    const rest = unchanged.length === 0
      ? ""
      : `<details class="unchanged"><summary>${unchanged.length} unchanged table${
        unchanged.length === 1 ? "" : "s"
      }</summary><p>${unchanged.map((t) => esc(t.name)).join(", ")}</p></details>`;
    const skipped = d.skipped.map((s) =>
      `<p class="muted">Skipped ${esc(s.name)}: ${esc(s.reason)}</p>`
    ).join("");
    const error = d.error === null ? "" : `<p class="error">${esc(d.error)}</p>`;
    return `<div class="db-head"><h2>${esc(d.name)} ${
      status(d.error === null ? d.status : "unreadable")
    }</h2><p class="muted">${paths}</p>${error}${tables}${rest}${
      target === "data" ? "" : objectRows(d.objects)
    }${skipped}</div>\n`;
  }

  /**
   * Writes what only the end knows (the databases that could not be read,
   * the overview of all of them) and closes the page.
   *
   * @param diff the finished diff
   */
  finish(diff: DatabaseDiff): void {
    if (this.#open) this.#out.write("</section>\n");
    this.#open = false;
    for (const d of diff.databases) if (!this.#written.has(d.name)) this.done(d);
    const total = (k: "added" | "removed" | "changed") =>
      diff.databases.reduce((n, d) => n + d.tables.reduce((m, t) => m + t.counts[k], 0), 0);
    const items = diff.databases.map((d) =>
      `<li><a href="#${this.#written.get(d.name)}">${esc(d.name)}</a> ${
        status(d.error === null ? d.status : "unreadable")
      }</li>`
    ).join("");
    const settings = `at most ${diff.settings.max_rows} rows of each kind per table on this page`;
    this.#out.write(
      `<section id="overview"><p>${diff.databases.length} database${
        diff.databases.length === 1 ? "" : "s"
      }: ${total("changed")} rows changed, ${total("added")} added, ${
        total("removed")
      } removed <span class="muted">(exact counts; ${settings})</span></p><ul>${items}</ul></section>
</body>
</html>
`,
    );
  }
}

/**
 * A diff document as one HTML page (what `db diff --html` writes).
 *
 * @param diff the diff
 * @param options the paths for the title, the plane shown
 * @returns the page
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "./diff_sqlite.ts";
 * import { renderDiffHtml } from "./render_html.ts";
 * const page = renderDiffHtml(await diffSqliteDatabases(null, "examples/db_agent/users.db"));
 * page.startsWith("<!DOCTYPE html>"); // true
 * ```
 */
export function renderDiffHtml(diff: DatabaseDiff, options: HtmlDiffOptions = {}): string {
  const parts: string[] = [];
  const html = new HtmlRenderer({ write: (t) => void parts.push(t) }, options);
  for (const d of diff.databases) {
    if (d.error === null) {
      for (const t of d.tables) html.tableDone(t);
      html.done(d);
    }
  }
  html.finish(diff);
  return parts.join("");
}
