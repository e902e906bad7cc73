/**
 * SQL rules benchmark: the time the built-in rules together add to one case,
 * on a 200-character query, at the median. Each case is a fresh trace, so
 * the one parse per trace is included; the parser's one-time load (the
 * dialect build's import) is measured separately and excluded.
 *
 *   deno run -A bench/rules.ts [--cases N]
 *   bun bench/rules.ts [--cases N]
 *
 * @module
 */
import process from "node:process";
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
import { loadDialect } from "../rules/_parse.ts";
import type { Dialect } from "../rules/dialect.ts";
import { median } from "./_measure.ts";

const args = process.argv.slice(2);
const N = Number(args[args.indexOf("--cases") + 1] || 2000) || 2000;

// 200 characters: a join, a filter on each side, grouping and an order.
const SQL = "SELECT o.status, COUNT(*) AS n, SUM(o.amount) AS total FROM orders o " +
  "JOIN items i ON i.order_id = o.id WHERE o.store_id = 's1' AND i.store_id = 's1' " +
  "AND o.amount > 10 GROUP BY o.status ORDER BY total DESC";

const testCase: TestCase = { id: "b", question: "q", tags: [], ordered: false, precision: 2 };

function rules(dialect: Dialect): Check[] {
  return [
    new ReadOnly({ dialect }),
    new TenantFilter("store_id", { value: "s1", dialect }),
    new AllowedTables(["orders", "items"], { dialect }),
    new AllowedColumns(["status", "amount", "order_id", "id", "store_id"], { dialect }),
    new NoJoins({ dialect }),
    new NoSubqueries({ dialect }),
    new NumbersGrounded(),
  ];
}

async function perCase(dialect: Dialect, sql: string): Promise<number[]> {
  const list = rules(dialect);
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
console.log(`${runtime}, ${N} cases per dialect, query of ${SQL.length} characters`);
for (const dialect of ["sqlite", "postgres", "mysql"] as const) {
  const loadStart = performance.now();
  await loadDialect(dialect);
  const load = performance.now() - loadStart;
  const sample = Trace.simple("q", { sql: SQL, rows: [{ total: 2000 }], answer: "2,000" });
  const statuses = (await Promise.all(rules(dialect).map((r) => r.run(sample, testCase, {}))))
    .flat().map((r) => r.status);
  // The query joins, so only NoJoins fails: proof the rules read it, not a parse error.
  if (statuses.join() !== "PASS,PASS,PASS,PASS,FAIL,PASS,PASS") {
    throw new Error(`unexpected findings: ${statuses}`);
  }
  const times = await perCase(dialect, SQL);
  const sorted = [...times].sort((a, b) => a - b);
  const p90 = sorted[Math.floor(sorted.length * 0.9)]!;
  console.log(
    `${dialect.padEnd(9)} parser load ${load.toFixed(0)} ms (once); ` +
      `7 rules per case: median ${median(times).toFixed(3)} ms, p90 ${p90.toFixed(3)} ms`,
  );
}
