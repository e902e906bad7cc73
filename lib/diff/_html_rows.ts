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
    // A BLOB shown whole needs no hash to tell it apart (and a hash is most of its cost).
    const cut = v.length > BLOB_PREFIX;
    return `<span class="blob">x'${bytesHex(v.subarray(0, BLOB_PREFIX))}${cut ? "…" : ""}'</span>` +
      ` <span class="size">${v.length} byte${v.length === 1 ? "" : "s"}${
        cut ? `, sha256 ${shortHash(v)}` : ""
      }</span>`;
  }
  // A number is digits, a sign, a point, an exponent: nothing to escape. A
  // finite one is written as sqlLiteral writes it, without its options' cost.
  if (typeof v === "number" && Number.isFinite(v) && !Object.is(v, -0)) {
    return Number.isSafeInteger(v) ? v.toFixed(0) : String(v);
  }
  if (typeof v !== "string") return sqlLiteral(v);
  if (v === "") return '<span class="empty" title="empty text">\'\'</span>';
  if (v.length <= FOLD_CHARS) return esc(v);
  return `<details class="long"><summary>${
    esc(v.slice(0, FOLD_CHARS - 20))
  }… <span class="size">${v.length} characters</span></summary>${esc(shownText(v))}</details>`;
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

/** Each column's `<td>` as written for a cell, unchanged and changed. */
function openers(c: Columns): { plain: string[]; changed: string[] } {
  return {
    plain: c.names.map((n) => cellClass(c, n)),
    changed: c.names.map((n) => cellClass(c, n, "chg")),
  };
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
 * Writes the rows of one kind as a table, a row at a time, with a heading
 * giving the exact count and, when rows were not kept, how many more there are.
 */
export function writeRowTable(
  t: TableDiff,
  kind: "added" | "removed" | "changed",
  write: (html: string) => void,
): void {
  const count = t.counts[kind];
  if (count === 0) return;
  write(`<h4 class="kind-${kind}">${kind[0]!.toUpperCase()}${kind.slice(1)} rows: ${count}</h4>`);
  if (kind === "changed") changedTable(t, write);
  else if (t.rows[kind].length > 0) {
    const rows = t.rows[kind];
    const c = columnsOf(t, namesOf(rows[0]!, "row"));
    const sign = kind === "added" ? "+" : "-";
    const { plain } = openers(c);
    write(`<table class="rows ${kind}">${header(c)}<tbody>\n`);
    for (const r of rows) {
      let cells = "";
      for (let i = 0; i < c.names.length; i++) {
        cells += `${plain[i]}${htmlValue(rowValue(r, "row", c.names[i]!))}</td>`;
      }
      write(`<tr class="${kind}"><td class="kind">${sign}</td>${cells}</tr>\n`);
    }
    write("</tbody></table>");
  }
  write(more(t, kind, t.rows[kind].length));
}

function changedTable(t: TableDiff, write: (html: string) => void): void {
  const rows = t.rows.changed;
  if (rows.length === 0) return;
  const after = namesOf(rows[0]!, "after");
  const before = namesOf(rows[0]!, "before").filter((n) => !after.includes(n));
  const c = columnsOf(t, [...after, ...before], rows);
  if (c.hidden > 0) {
    write(
      `<p class="muted">${c.hidden} column${
        c.hidden === 1 ? "" : "s"
      } that no row below changed are left out of this wide table.</p>`,
    );
  }
  const td = openers(c);
  write(`<table class="rows changed">${header(c)}<tbody>\n`);
  for (const r of rows) {
    const changed = r.changed_columns;
    let cells = "";
    for (let i = 0; i < c.names.length; i++) {
      const n = c.names[i]!;
      const old = rowValue(r, "before", n);
      const now = rowValue(r, "after", n);
      cells += changed.includes(n)
        ? `${td.changed[i]}<span class="old">${
          htmlValue(old)
        }</span><span class="arrow"> → </span><span class="new">${htmlValue(now)}</span></td>`
        : `${td.plain[i]}${htmlValue(now !== undefined ? now : old)}</td>`;
    }
    write(`<tr class="changed"><td class="kind">~</td>${cells}</tr>\n`);
  }
  write("</tbody></table>");
}
