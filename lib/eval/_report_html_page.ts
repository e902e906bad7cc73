/**
 * The style and script the HTML report inlines. The script builds a case's
 * details from the run's JSON when the case is opened, with textContent only
 * (never innerHTML), so nothing an agent returned can become markup.
 *
 * URL hash: `#verdict=FAIL&tag=t&stage=execute&q=text&open=case-id` sets the
 * filters and opens a case, so a link can point at a view of the report.
 *
 * @module
 */
import { BASE_STYLE } from "../html_page.ts";

/** The report's CSS. */
export const PAGE_STYLE = `${BASE_STYLE}
.meta span { color: #59636e; margin-right: 14px; font-size: 12px; }
.totals { display: flex; gap: 12px; margin-top: 12px; flex-wrap: wrap; }
.total { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 110px; color: #59636e; }
.total b { display: block; font-size: 24px; color: #1f2328; }
.total.v-PASS b { color: var(--pass); } .total.v-FAIL b { color: var(--fail); }
.total.v-ERROR b { color: var(--error); } .total.v-SKIP b { color: var(--skip); }
#chart text { font-size: 12px; fill: #1f2328; } #chart rect { fill: var(--fail); }
.filters { display: flex; gap: 14px; align-items: center; flex-wrap: wrap; margin-bottom: 8px; }
.filters select, .filters input { font: inherit; padding: 2px 4px; }
#cases { table-layout: fixed; } #cases col.c-verdict { width: 110px; } #cases col.c-id { width: 22%; }
#cases col.c-stage { width: 130px; } #cases col.c-tags { width: 15%; } #cases col.c-time { width: 80px; }
#cases td { overflow: hidden; text-overflow: ellipsis; }
tr.case { cursor: pointer; } tr.case:hover { background: #f6f8fa; } tr.case.open { background: #eef4ff; }
td.num { text-align: right; white-space: nowrap; } td.id { font-family: ui-monospace, monospace; }
td.why { color: #59636e; max-width: 520px; overflow-wrap: anywhere; }
.verdict { font-weight: 600; } .v-PASS .verdict { color: var(--pass); } .v-FAIL .verdict { color: var(--fail); }
.v-ERROR .verdict { color: var(--error); } .v-SKIP .verdict { color: var(--skip); }
.rate { color: #59636e; font-size: 12px; margin-left: 4px; }
.tag { background: #ddf4ff; border-radius: 10px; padding: 0 7px; font-size: 12px; }
tr.detail > td { background: #fbfcfd; padding: 10px 16px 16px; }
pre.error { border-color: var(--error); }
ol.trace { padding-left: 20px; } ol.trace > li { margin-bottom: 8px; }
.stage-name { font-weight: 600; }
table.grid { width: auto; margin: 4px 0; font-family: ui-monospace, monospace; font-size: 12px; }
table.grid td, table.grid th { border: 1px solid var(--line); padding: 2px 6px; }
td.diff { background: #ffebe9; outline: 1px solid var(--fail); } tr.extra td { background: #fff8c5; }
.side { display: flex; gap: 24px; flex-wrap: wrap; align-items: flex-start; }
.status-PASS { color: var(--pass); } .status-FAIL { color: var(--fail); font-weight: 600; }
.status-ERROR { color: var(--error); font-weight: 600; } .status-SKIP { color: var(--skip); }
`;

/** The report's script (plain ES2017, no modules). */
export const PAGE_SCRIPT = `
"use strict";
(function () {
  // The run's JSON is parsed when a case is first opened, not on load: a
  // report of thousands of cases opens at the speed of its table.
  var parsed = null;
  function data() {
    if (parsed === null) parsed = JSON.parse(document.getElementById("run-data").textContent);
    return parsed;
  }
  var rows = Array.prototype.slice.call(document.querySelectorAll("#cases tr.case"));
  var later = rows.findIndex(function (row) { return row.hidden; }); // the first row past the first screen
  var byId = {};
  rows.forEach(function (row) { byId[row.dataset.id] = row; });
  var fVerdict = document.getElementById("f-verdict");
  var fTag = document.getElementById("f-tag");
  var fStage = document.getElementById("f-stage");
  var fText = document.getElementById("f-text");
  var shown = document.getElementById("shown");
  var MAX_GRID_ROWS = 100;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }
  function text(value) {
    if (value === null || value === undefined) return "NULL";
    if (typeof value === "string") return value;
    return JSON.stringify(value);
  }
  function same(a, b) {
    if (a === b) return true;
    var x = Number(a), y = Number(b);
    if (a !== null && b !== null && a !== "" && b !== "" && isFinite(x) && isFinite(y)) {
      return Math.abs(x - y) < 0.005;
    }
    return text(a) === text(b);
  }
  function cells(row) { return Object.keys(row).map(function (k) { return row[k]; }); }

  // A grid of rows; "other" (the rows to compare with) marks differing cells by position.
  function grid(title, list, other, total) {
    if (!list) return null;
    var columns = list.length > 0 ? Object.keys(list[0]) : [];
    var head = el("tr", null, columns.map(function (c) { return el("th", null, [c]); }));
    var body = list.slice(0, MAX_GRID_ROWS).map(function (row, r) {
      var values = cells(row);
      var peer = other && other[r] ? cells(other[r]) : null;
      var tr = el("tr", other && !peer ? { "class": "extra" } : null, values.map(function (v, c) {
        var differs = other && peer && (c >= peer.length || !same(v, peer[c]));
        return el("td", differs ? { "class": "diff" } : null, [text(v)]);
      }));
      return tr;
    });
    var count = (total !== undefined ? total : list.length) + " row(s)";
    return el("div", { "class": "rows" }, [
      el("h3", null, [title + " (" + count + ")"]),
      el("table", { "class": "grid" }, [el("thead", null, [head]), el("tbody", null, body)]),
    ]);
  }
  function checksTable(checks) {
    return el("table", { "class": "grid checks" }, [
      el("thead", null, [el("tr", null, ["Status", "Stage", "Check", "Detail"].map(function (h) {
        return el("th", null, [h]);
      }))]),
      el("tbody", null, checks.map(function (k) {
        return el("tr", { "class": "check" }, [
          el("td", { "class": "status-" + k.status }, [k.status]),
          el("td", null, [k.stage]), el("td", null, [k.name]), el("td", null, [k.detail]),
        ]);
      })),
    ]);
  }
  function lastRows(c) {
    var trace = c.trace || [];
    for (var i = trace.length - 1; i >= 0; i--) {
      if (trace[i].rows) return trace[i];
    }
    return null;
  }
  function dbDiff(diff) {
    var parts = [];
    (diff.databases || []).forEach(function (db) {
      (db.tables || []).forEach(function (t) {
        if (t.status === "unchanged") return;
        var counts = t.counts || { added: 0, removed: 0, changed: 0 };
        parts.push(el("h3", null, [db.name + " / " + t.name + ": " + t.status + " (" + counts.added +
          " added, " + counts.removed + " removed, " + counts.changed + " changed)"]));
        var r = t.rows || { added: [], removed: [], changed: [] };
        if (r.added.length) parts.push(grid("Added", r.added.map(function (x) { return x.row; })));
        if (r.removed.length) parts.push(grid("Removed", r.removed.map(function (x) { return x.row; })));
        if (r.changed.length) {
          var before = r.changed.map(function (x) { return x.before; });
          var after = r.changed.map(function (x) { return x.after; });
          parts.push(el("div", { "class": "side" }, [grid("Changed: before", before, after), grid("Changed: after", after, before)]));
        }
      });
      if (db.error) parts.push(el("pre", { "class": "error" }, [db.error]));
    });
    if (parts.length === 0) parts.push(el("p", { "class": "muted" }, ["No change."]));
    return el("div", { "class": "db-diff" }, parts);
  }
  function details(c) {
    var parts = [el("h3", null, ["Question"]), el("p", { "class": "question" }, [c.question])];
    if (c.error !== null) parts.push(el("pre", { "class": "error" }, [c.error]));
    if (c.attempts) {
      parts.push(el("h3", null, ["Attempts: " + c.passes + " of " + c.attempts.length + " passed" + (c.flaky ? " (flaky)" : "")]));
      parts.push(el("table", { "class": "grid attempts" }, [el("tbody", null, c.attempts.map(function (a, i) {
        var first = a.error || (a.checks.filter(function (k) { return k.status === a.verdict; })[0] || {}).detail || "";
        return el("tr", null, [el("td", null, [String(i + 1)]), el("td", { "class": "status-" + a.verdict }, [a.verdict]),
          el("td", null, [a.failed_stage || ""]), el("td", null, [first])]);
      }))]));
    }
    if (c.trace && c.trace.length) {
      parts.push(el("h3", null, ["Trace"]));
      parts.push(el("ol", { "class": "trace" }, c.trace.map(function (s) {
        return el("li", { "class": "stage", "data-kind": s.kind }, [
          el("span", { "class": "stage-name" }, [s.kind === s.name ? s.name : s.kind + " / " + s.name]),
          s.output !== null ? el("pre", null, [s.output]) : null,
          s.error ? el("pre", { "class": "error" }, [s.error]) : null,
          s.rows ? el("span", { "class": "muted" }, [" " + (s.row_count || s.rows.length) + " row(s)"]) : null,
        ]);
      })));
    }
    if (c.sql !== null) parts.push(el("h3", null, ["Agent's SQL"]), el("pre", { "class": "sql" }, [c.sql]));
    if (c.reference_sql) parts.push(el("h3", null, ["Reference SQL"]), el("pre", { "class": "sql reference-sql" }, [c.reference_sql]));
    parts.push(el("h3", null, ["Checks"]), checksTable(c.checks));
    var agent = lastRows(c);
    if (agent || c.reference_rows) {
      parts.push(el("h3", null, ["Rows"]));
      parts.push(el("div", { "class": "side rows-compare" }, [
        agent ? grid("Agent", agent.rows, c.reference_rows, agent.row_count) : null,
        c.reference_rows ? grid("Reference", c.reference_rows, agent ? agent.rows : null) : null,
      ]));
    }
    if (c.db_diff) parts.push(el("h3", null, ["Database diff"]), dbDiff(c.db_diff));
    if (c.counterexample) {
      var cx = c.counterexample;
      parts.push(el("h3", null, ["Counterexample (found after " + cx.tried + " database(s), seed " + cx.seed + ")"]));
      parts.push(el("pre", { "class": "sql" }, [cx.database_sql]));
      parts.push(el("div", { "class": "side" }, [
        grid("Agent's SQL on it", cx.candidate_rows, cx.reference_rows),
        grid("Reference SQL on it", cx.reference_rows, cx.candidate_rows),
      ]));
    }
    return el("div", { "class": "details" }, parts);
  }
  function toggle(row, open) {
    var next = row.nextElementSibling;
    var isOpen = next && next.classList.contains("detail");
    if (open === undefined) open = !isOpen;
    if (isOpen && !open) { next.remove(); row.classList.remove("open"); }
    if (!isOpen && open) {
      var c = data().cases[+row.dataset.i];
      var td = el("td", { colspan: "6" }, [details(c)]);
      row.after(el("tr", { "class": "detail", "data-for": c.id }, [td]));
      row.classList.add("open");
    }
    writeHash();
  }
  function apply() {
    var v = fVerdict.value, tag = fTag.value, stage = fStage.value, q = fText.value.toLowerCase();
    var n = 0;
    var all = revealed || filtered();
    rows.forEach(function (row, i) {
      var d = row.dataset;
      if (!all && later >= 0 && i >= later) { n++; return; } // reveal() shows it soon
      var ok = (!v || (v === "not PASS" ? d.verdict !== "PASS" : d.verdict === v)) &&
        (!tag || d.tags.split("\\n").indexOf(tag) >= 0) && (!stage || d.stage === stage) &&
        (!q || d.id.toLowerCase().indexOf(q) >= 0);
      // Only rows that change are touched: on load, with no filter, none is.
      if (row.hidden !== !ok) {
        row.hidden = !ok;
        var next = row.nextElementSibling;
        if (next && next.classList.contains("detail")) next.hidden = !ok;
      }
      if (ok) n++;
    });
    if (filtered()) revealed = true;
    shown.textContent = n + " of " + rows.length + " shown";
    writeHash();
  }
  function filtered() { return !!(fVerdict.value || fTag.value || fStage.value || fText.value); }
  var revealed = later < 0;
  var reading = false;
  function writeHash() {
    if (reading) return;
    var parts = [];
    if (fVerdict.value) parts.push("verdict=" + encodeURIComponent(fVerdict.value));
    if (fTag.value) parts.push("tag=" + encodeURIComponent(fTag.value));
    if (fStage.value) parts.push("stage=" + encodeURIComponent(fStage.value));
    if (fText.value) parts.push("q=" + encodeURIComponent(fText.value));
    document.querySelectorAll("tr.detail").forEach(function (d) {
      parts.push("open=" + encodeURIComponent(d.dataset.for));
    });
    var hash = parts.length ? "#" + parts.join("&") : "";
    if (hash !== location.hash && history.replaceState) history.replaceState(null, "", hash || location.pathname);
  }
  function readHash() {
    reading = true;
    var opened = [];
    location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
      if (!pair) return;
      var i = pair.indexOf("=");
      var key = pair.slice(0, i), value = decodeURIComponent(pair.slice(i + 1));
      if (key === "verdict") fVerdict.value = value;
      else if (key === "tag") fTag.value = value;
      else if (key === "stage") fStage.value = value;
      else if (key === "q") fText.value = value;
      else if (key === "open") opened.push(value);
    });
    apply();
    opened.forEach(function (id) {
      if (!byId[id]) return;
      byId[id].hidden = false;
      toggle(byId[id], true);
    });
    reading = false;
  }
  document.getElementById("cases").addEventListener("click", function (e) {
    var row = e.target.closest("tr.case");
    if (row) toggle(row);
  });
  document.getElementById("cases").addEventListener("keydown", function (e) {
    var row = e.target.closest("tr.case");
    if (row && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); toggle(row); }
  });
  [fVerdict, fTag, fStage].forEach(function (f) { f.addEventListener("change", apply); });
  fText.addEventListener("input", apply);
  document.querySelectorAll("#chart .bar").forEach(function (bar) {
    bar.addEventListener("click", function () { fStage.value = bar.dataset.stage; apply(); });
  });
  // Rows past the first hundred come hidden; without a filter they are shown
  // a chunk per frame after the first screen (a filter decides them at once).
  function reveal() {
    var hiddenRows = later < 0 ? [] : rows.slice(later);
    var at = 0;
    function step() {
      if (revealed || filtered()) return;
      hiddenRows.slice(at, at + 300).forEach(function (row) { row.hidden = false; });
      at += 300;
      if (at < hiddenRows.length) setTimeout(step, 0);
      else { revealed = true; document.body.dataset.allShown = "true"; }
    }
    setTimeout(step, 0);
  }
  readHash();
  if (filtered()) revealed = true;
  else reveal();
  document.body.dataset.ready = "true";
})();
`;
