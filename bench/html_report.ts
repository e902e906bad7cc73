/**
 * How fast a large HTML report opens: a run of N cases (default 1,000, each
 * with a trace, 20 agent rows, 20 reference rows and 5 checks; a third
 * failing) is written with htmlReport() and opened in headless Chromium
 * from its file. The page's own clock (performance.now() at the end of its
 * last script, when the table is built, its script has run and the filters
 * are set) gives the time to open; the anchor is the same measurement of a
 * 1-case report in the same run (what Chromium costs for any page), so the
 * ratio says what the 1,000 cases add. Also opens one case (#open=...) to
 * time building its details.
 *
 *   deno run -A bench/html_report.ts [--cases 1000] [--runs 5]
 *
 * Not a test: it prints figures and asserts nothing.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { htmlReport, type RunFile, type RunFileCase } from "../mod.ts";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const N = arg("--cases", 1000);
const RUNS = arg("--runs", 5);
const CHROMIUM = process.env["CHROMIUM"] ?? "/usr/bin/chromium";

function makeCase(i: number): RunFileCase {
  const fail = i % 3 === 0;
  const rows = Array.from({ length: 20 }, (_, r) => ({ id: r, name: `item ${r}`, total: r * 10 }));
  const agentRows = fail ? rows.map((r) => (r.id === 7 ? { ...r, total: -1 } : r)) : rows;
  const checks = [
    { stage: "generate", name: "no_error", status: "PASS" as const, detail: "" },
    { stage: "generate", name: "read_only", status: "PASS" as const, detail: "" },
    { stage: "execute", name: "no_error", status: "PASS" as const, detail: "" },
    {
      stage: "execute",
      name: "reference_rows",
      status: fail ? "FAIL" as const : "PASS" as const,
      detail: fail ? "row 8: total is -1, the reference has 70" : "20 row(s)",
    },
    { stage: "answer", name: "no_error", status: "PASS" as const, detail: "" },
  ];
  const sql =
    `SELECT id, name, SUM(amount) AS total FROM orders WHERE store_id = 's${i}' GROUP BY id`;
  return {
    id: `case-${i}`,
    question: `What is the total per item in store ${i}?`,
    tags: [i % 2 ? "odd" : "even", `group-${i % 7}`],
    verdict: fail ? "FAIL" : "PASS",
    failed_stage: fail ? "execute" : null,
    error: null,
    duration_ms: 100 + (i % 50) * 13,
    answer: `The totals are ${agentRows.map((r) => r.total).join(", ")}.`,
    sql,
    checks,
    line: 1 + i * 4,
    trace: [
      { kind: "generate", name: "generate", output: sql },
      { kind: "execute", name: "execute", output: null, rows: agentRows },
      { kind: "answer", name: "answer", output: "The totals are ..." },
    ],
    reference_rows: rows,
  };
}

function runOf(n: number): RunFile {
  const cases = Array.from({ length: n }, (_, i) => makeCase(i));
  const failed = cases.filter((c) => c.verdict === "FAIL").length;
  return {
    format: "dbagenteval-run",
    version: 1,
    tool_version: "bench",
    created_at: new Date(0).toISOString(),
    totals: { total: n, passed: n - failed, failed, errors: 0, skipped: 0 },
    failures_by_stage: failed > 0 ? { execute: failed } : {},
    judge_calls: 0,
    duration_ms: 1000,
    cases,
    cases_file: "bench.yaml",
  };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-html-"));
// Forcing a layout first, so the time includes laying out the table, not only parsing it.
const CLOCK =
  `<script>void document.body.offsetHeight; document.body.dataset.openedMs = String(performance.now());</script>`;

function write(name: string, run: RunFile): { file: string; bytes: number } {
  const html = htmlReport(run).replace("</body>", `${CLOCK}</body>`);
  const file = path.join(dir, name);
  fs.writeFileSync(file, html);
  return { file, bytes: Buffer.byteLength(html) };
}

function openMs(file: string, hash = ""): number {
  const r = spawnSync(CHROMIUM, [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    `--user-data-dir=${fs.mkdtempSync(path.join(dir, "p-"))}`,
    "--dump-dom",
    `file://${file}${hash}`,
  ], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, timeout: 120_000 });
  const m = /data-opened-ms="([\d.]+)"/.exec(r.stdout);
  if (m === null) throw new Error(`no timing in the page: ${r.stderr.slice(-500)}`);
  return Number(m[1]);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const small = write("one.html", runOf(1));
const big = write("big.html", runOf(N));
const t0 = performance.now();
htmlReport(runOf(N));
const buildMs = performance.now() - t0;
const anchor: number[] = [];
const ours: number[] = [];
const opened: number[] = [];
for (let i = 0; i < RUNS; i++) {
  anchor.push(openMs(small.file));
  ours.push(openMs(big.file));
  opened.push(openMs(big.file, `#open=case-${N - 1 - ((N - 1) % 3)}`));
}
const a = median(anchor);
const b = median(ours);
const c = median(opened);
console.log(
  `report of ${N} cases: ${(big.bytes / 1024).toFixed(0)} KiB, built in ${buildMs.toFixed(0)} ms`,
);
console.log(`anchor (1-case report) opens in ${a.toFixed(0)} ms (median of ${RUNS})`);
console.log(`${N}-case report opens in ${b.toFixed(0)} ms: ratio ${(b / a).toFixed(2)}`);
console.log(
  `${N}-case report with a failing case opened: ${c.toFixed(0)} ms: ratio ${(c / a).toFixed(2)}`,
);
fs.rmSync(dir, { recursive: true, force: true });
