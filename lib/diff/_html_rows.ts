/**
 * The HTML diff's values and row tables: a value as a person reads it (NULL
 * apart from empty text, a BLOB by its size, hash and first bytes, long text
 * folded), and one table per kind of row change with the changed cells
 * marked old -> new and the columns one side has marked as such. Every
 * string from a file is escaped with bidi controls and control characters
 * shown by name (lib/html_page.ts).
 *
 * @module
 */
import { escapeHtml } from "../html_page.ts";
import { sqlLiteral } from "../sqlite/sql_text.ts";
import { shortHash, shownText } from "../sqlite/shown_value.ts";
import { bytesHex, type SqliteValue } from "../sqlite/value.ts";
import { heldRows, rowValue } from "./_held_rows.ts";
import type { AddedRow, ChangedRow, TableDiff } from "./types.ts";

/** Escapes file-supplied text for element content, unseen characters shown. */
export const esc = (text: string): string => escapeHtml(text, { shown: "text" });

/** Text longer than this is folded: its start shown, the rest a click away. */
const FOLD_CHARS = 80;
/** The bytes of a BLOB shown in hex. */
const BLOB_PREFIX = 16;
/** A table wider than this shows, for changed rows, its key and the columns that changed. */
const WIDE = 12;

/**
 * One value: `NULL` and `''` marked apart, numbers as SQL literals, long
 * text folded in a `<details>`, a BLOB as its first bytes, size and hash.
 * `undefined` is a column the row's side does not have.
 */
export function htmlValue(v: SqliteValue | undefined): string {
  if (v === undefined) return '<span class="absent" title="no such column on this side">—</span>';
  if (v === null) return '<span class="null">NULL</span>';
  if (v instanceof Uint8Array) {
    const hex = bytesHex(v.subarray(0, BLOB_PREFIX));
    return `<span class="blob">x'${hex}${v.length > BLOB_PREFIX ? "…" : ""}'</span>` +
      ` <span class="size">${v.length} byte${v.length === 1 ? "" : "s"}, sha256 ${
        shortHash(v)
      }</span>`;
  }
  if (typeof v !== "string") return `<span class="num">${esc(sqlLiteral(v))}</span>`;
  if (v === "") return '<span class="empty" title="empty text">\'\'</span>';
  if (v.length <= FOLD_CHARS) return `<span class="text">${esc(v)}</span>`;
  return `<details class="long"><summary><span class="text">${
    esc(v.slice(0, FOLD_CHARS - 20))
  }…</span> <span class="size">${v.length} characters</span></summary><span class="text">${
    esc(shownText(v))
  }</span></details>`;
}

function namesOf(change: AddedRow | ChangedRow, side: "row" | "before" | "after"): string[] {
  const held = heldRows(change)?.[side];
  if (held !== undefined) return [...held.names];
  return Object.keys((change as unknown as Record<string, object>)[side]!);
}

interface Columns {
  readonly names: readonly string[];
  readonly beforeOnly: ReadonlySet<string>;
  readonly afterOnly: ReadonlySet<string>;
  readonly key: ReadonlySet<string>;
  /** Unchanged columns left out of a wide table's changed rows. */
  readonly hidden: number;
}

function header(c: Columns): string {
  const th = (n: string): string => {
    const side = c.beforeOnly.has(n)
      ? ' class="before-only"><span class="side">before only</span> '
      : c.afterOnly.has(n)
      ? ' class="after-only"><span class="side">after only</span> '
      : c.key.has(n)
      ? ' class="key">'
      : ">";
    return `<th${side}${esc(n)}</th>`;
  };
  return `<thead><tr><th class="kind"></th>${c.names.map(th).join("")}</tr></thead>`;
}

function cellClass(c: Columns, name: string, extra = ""): string {
  const cls = [
    c.key.has(name) ? "key" : "",
    c.beforeOnly.has(name) ? "before-only" : c.afterOnly.has(name) ? "after-only" : "",
    extra,
  ].filter((s) => s !== "").join(" ");
  return cls === "" ? "<td>" : `<td class="${cls}">`;
}

function columnsOf(t: TableDiff, names: string[], changed?: readonly ChangedRow[]): Columns {
  const beforeOnly = new Set(t.columns.removed.map((c) => c.name));
  const afterOnly = new Set(t.columns.added.map((c) => c.name));
  const key = new Set(t.key_kind === "none" ? [] : t.key);
  if (changed === undefined || names.length <= WIDE) {
    return { names, beforeOnly, afterOnly, key, hidden: 0 };
  }
  const shown = new Set(changed.flatMap((r) => r.changed_columns));
  const kept = names.filter((n) => key.has(n) || shown.has(n));
  return { names: kept, beforeOnly, afterOnly, key, hidden: names.length - kept.length };
}

function more(t: TableDiff, kind: "added" | "removed" | "changed", shown: number): string {
  const left = t.counts[kind] - shown;
  if (left <= 0) return "";
  const why = t.bytes_cut === true
    ? "the --max-bytes budget of kept values was spent"
    : "--max-rows keeps the first rows of each kind";
  return `<p class="more">… and <b>${left}</b> more ${kind} row${
    left === 1 ? "" : "s"
  } not on this page (${why}; the counts are exact)</p>`;
}

/**
 * The rows of one kind as a table, with a heading giving the exact count and,
 * when rows were not kept, how many more there are.
 */
export function rowTable(t: TableDiff, kind: "added" | "removed" | "changed"): string {
  const count = t.counts[kind];
  if (count === 0) return "";
  const title = `<h4 class="kind-${kind}">${kind[0]!.toUpperCase()}${
    kind.slice(1)
  } rows: ${count}</h4>`;
  if (kind === "changed") return title + changedTable(t) + more(t, kind, t.rows.changed.length);
  const rows = t.rows[kind];
  if (rows.length === 0) return title + more(t, kind, 0);
  const c = columnsOf(t, namesOf(rows[0]!, "row"));
  const sign = kind === "added" ? "+" : "-";
  const body = rows.map((r) =>
    `<tr class="${kind}"><td class="kind">${sign}</td>${
      c.names.map((n) => `${cellClass(c, n)}${htmlValue(rowValue(r, "row", n))}</td>`).join("")
    }</tr>`
  ).join("\n");
  return `${title}<table class="rows ${kind}">${header(c)}<tbody>\n${body}\n</tbody></table>${
    more(t, kind, rows.length)
  }`;
}

function changedTable(t: TableDiff): string {
  const rows = t.rows.changed;
  if (rows.length === 0) return "";
  const after = namesOf(rows[0]!, "after");
  const before = namesOf(rows[0]!, "before").filter((n) => !after.includes(n));
  const c = columnsOf(t, [...after, ...before], rows);
  const body = rows.map((r) => {
    const changed = new Set(r.changed_columns);
    const cells = c.names.map((n) => {
      const old = rowValue(r, "before", n);
      const now = rowValue(r, "after", n);
      if (!changed.has(n)) {
        return `${cellClass(c, n)}${htmlValue(now !== undefined ? now : old)}</td>`;
      }
      return `${cellClass(c, n, "chg")}<span class="old">${
        htmlValue(old)
      }</span><span class="arrow"> → </span><span class="new">${htmlValue(now)}</span></td>`;
    });
    return `<tr class="changed"><td class="kind">~</td>${cells.join("")}</tr>`;
  }).join("\n");
  const note = c.hidden === 0
    ? ""
    : `<p class="muted">${c.hidden} column${
      c.hidden === 1 ? "" : "s"
    } that no row below changed are left out of this wide table.</p>`;
  return `${note}<table class="rows changed">${header(c)}<tbody>\n${body}\n</tbody></table>`;
}
