/**
 * SQL rules benchmark: the time the built-in rules together add to one case,
 * on a 200-character query, at the median, per parser: node-sql-parser
 * (sqlite, mysql), PostgreSQL's own parser (postgres), and SQLite's
 * authorizer (sqlite with the database known). Each case is a fresh trace, so
 * the one parse per trace is included; the parser's one-time load is
 * measured separately and excluded. Then the same seven rules on the real
 * queries of rules/testdata (every valid one, per dialect), at the median.
 * Ratios are to the first row (node-sql-parser on sqlite), measured in the
 * same run.
 *
 *   deno run -A bench/rules.ts [--cases N]
 *   bun bench/rules.ts [--cases N]
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { Trace } from "../lib/eval/trace.ts";
import type { TestCase } from "../lib/eval/case.ts";
import type { Check } from "../lib/eval/check.ts";
import {
  AllowedColumns,
  AllowedTables,
  NoJoins,
  NoSubqueries,
  NumbersGrounded,
  ReadOnly,
  TenantFilter,
} from "../rules/mod.ts";
import { parseSql } from "../rules/parse_sql.ts";
import type { Dialect } from "../rules/dialect.ts";
import { median } from "./_measure.ts";

const args = process.argv.slice(2);
const N = Number(args[args.indexOf("--cases") + 1] || 2000) || 2000;

// 200 characters: a join, a filter on each side, grouping and an order.
const SQL = "SELECT o.status, COUNT(*) AS n, SUM(o.amount) AS total FROM orders o " +
  "JOIN items i ON i.order_id = o.id WHERE o.store_id = 's1' AND i.store_id = 's1' " +
  "AND o.amount > 10 GROUP BY o.status ORDER BY total DESC";

const testCase: TestCase = { id: "b", question: "q", tags: [], ordered: false, precision: 2 };

const TABLES = ["orders", "items"];
const COLUMNS = ["status", "amount", "order_id", "id", "store_id"];

function rules(
  dialect: Dialect,
  database?: string,
  tables = TABLES,
  columns = COLUMNS,
): Check[] {
  const o = database === undefined ? { dialect } : { dialect, database };
  return [
    new ReadOnly(o),
    new TenantFilter("store_id", { value: "s1", ...o }),
    new AllowedTables(tables, o),
    new AllowedColumns(columns, o),
    new NoJoins(o),
    new NoSubqueries(o),
    new NumbersGrounded(),
  ];
}

async function perCase(dialect: Dialect, sql: string, database?: string): Promise<number[]> {
  const list = rules(dialect, database);
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const trace = Trace.simple(`q${i}`, {
      sql,
      rows: [{ status: "DELIVERED", n: 2, total: 2000 }],
      answer: "2 delivered orders, 2,000 in total.",
    });
    const start = performance.now();
    for (const rule of list) await rule.run(trace, testCase, {});
    times.push(performance.now() - start);
  }
  return times.slice(Math.floor(N / 10)); // drop the JIT warm-up
}

const runtime = "Bun" in globalThis
  ? `bun ${process.versions.bun}`
  : `deno ${process.versions.deno}`;
console.log(`${runtime}, ${N} cases per row, query of ${SQL.length} characters`);

// A SQLite file with the benchmark query's tables, for the authorizer row.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-bench-rules-"));
const database = path.join(dir, "shop.db");
const db = new DatabaseSync(database);
db.exec(
  "CREATE TABLE orders (id INTEGER PRIMARY KEY, store_id TEXT, status TEXT, amount REAL);" +
    "CREATE TABLE items (id INTEGER PRIMARY KEY, order_id INTEGER, store_id TEXT);",
);
db.close();

const rows: [string, Dialect, string | undefined][] = [
  ["node-sql-parser", "sqlite", undefined],
  ["SQLite authorizer", "sqlite", database],
  ["libpg-query", "postgres", undefined],
  ["node-sql-parser", "mysql", undefined],
];
let anchor = 0;
for (const [parser, dialect, file] of rows) {
  const loadStart = performance.now();
  // The parser loads on its first statement; "SELECT 1" costs next to nothing beside it.
  await parseSql("SELECT 1", dialect);
  const load = performance.now() - loadStart;
  const sample = Trace.simple("q", { sql: SQL, rows: [{ total: 2000 }], answer: "2,000" });
  const statuses = (await Promise.all(
    rules(dialect, file).map((r) => r.run(sample, testCase, {})),
  )).flat().map((r) => r.status);
  // The query joins, so only NoJoins fails: proof the rules read it, not a parse error.
  if (statuses.join() !== "PASS,PASS,PASS,PASS,FAIL,PASS,PASS") {
    throw new Error(`unexpected findings: ${statuses}`);
  }
  const times = await perCase(dialect, SQL, file);
  const sorted = [...times].sort((a, b) => a - b);
  const p90 = sorted[Math.floor(sorted.length * 0.9)]!;
  const m = median(times);
  anchor ||= m;
  console.log(
    `${`${dialect} (${parser})`.padEnd(29)} load ${load.toFixed(0).padStart(3)} ms (once); ` +
      `7 rules per case: median ${m.toFixed(3)} ms (${(m / anchor).toFixed(2)}x), ` +
      `p90 ${p90.toFixed(3)} ms`,
  );
}

// The real queries: every one the rules read, the seven rules on a fresh trace each.
const corpus = fs.readFileSync(new URL("../rules/testdata/realsql.jsonl", import.meta.url), "utf8")
  .trim().split("\n").map((l) => JSON.parse(l) as { dialect: Dialect; sql: string });
for (const dialect of ["sqlite", "postgres", "mysql"] as const) {
  const times: number[] = [];
  for (const { sql } of corpus.filter((q) => q.dialect === dialect)) {
    const trace = Trace.simple("q", { sql, rows: [{ n: 1 }], answer: "1" });
    const start = performance.now();
    for (const rule of rules(dialect)) await rule.run(trace, testCase, {});
    times.push(performance.now() - start);
  }
  const m = median(times);
  console.log(
    `${`${dialect} real queries`.padEnd(29)} ${times.length} queries: ` +
      `median ${m.toFixed(3)} ms (${(m / anchor).toFixed(2)}x)`,
  );
}
fs.rmSync(dir, { recursive: true, force: true });
