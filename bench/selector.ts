/**
 * matchesDiff over a diff with 10,000 changed rows, with a typical where
 * selector. The target is under 50 ms. Nothing here asserts a time. Each
 * line gives the median wall time and the median CPU time of the process
 * (steadier when the machine is shared).
 *
 *   deno run -A bench/selector.ts      (or: bun bench/selector.ts)
 */
import type { ChangedRow, DatabaseDiff } from "../lib/diff/types.ts";
import process from "node:process";
import { explainMatch, matchesDiff } from "../selector/mod.ts";

const ROWS = 10_000;
const ROLES = ["user", "editor", "manager", "viewer"];

function makeDiff(): DatabaseDiff {
  const changed: ChangedRow[] = [];
  for (let id = 1; id <= ROWS; id++) {
    const before = { id, name: `user${id}`, role: ROLES[id % 4]!, score: id * 1.5 };
    const after = { ...before, role: ROLES[(id + 1) % 4]! };
    changed.push({ key: { id }, before, after, changed_columns: ["role"] });
  }
  return {
    version: 1,
    settings: { include_schema: true, include_data: true, max_rows: ROWS, tables: null },
    databases: [{
      name: "users.db",
      path: "users.db",
      before_path: "users.db",
      after_path: "users.db",
      exists_before: true,
      exists_after: true,
      status: "changed",
      tables: [{
        name: "users",
        status: "changed",
        schema_status: "unchanged",
        data_status: "changed",
        key: ["id"],
        key_kind: "rowid",
        compared_columns: ["id", "name", "role", "score"],
        columns: { added: [], removed: [], changed: [] },
        rows: { added: [], removed: [], changed },
        counts: { added: 0, removed: 0, changed: ROWS },
        truncated: false,
        sql_before: null,
        sql_after: null,
      }],
      objects: [],
      skipped: [],
      error: null,
    }],
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** CPU milliseconds of this process so far (user + system): steadier than wall time on a busy machine. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function time(label: string, run: () => unknown, times = 15): void {
  run(); // warm up
  const samples: number[] = [];
  const cpu: number[] = [];
  let result: unknown;
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    const c0 = cpuMs();
    result = run();
    samples.push(performance.now() - t0);
    cpu.push(cpuMs() - c0);
  }
  console.log(
    `${label.padEnd(58)} median ${median(samples).toFixed(2).padStart(7)} ms  ` +
      `cpu ${median(cpu).toFixed(2).padStart(7)} ms  -> ${String(result)}`,
  );
}

const diff = makeDiff();
const noneMatch = {
  rows: { changed: { where: [{ role: { $in: ["admin", "root"] } }] } },
};
const lastMatches = {
  rows: { changed: { where: [{ role: "user", score: { $gte: ROWS * 1.5 - 10 } }] } },
};
const counted = {
  rows: {
    changed: {
      where: { $before: { role: "manager" }, $after: { role: "viewer" } },
      $count: { $gte: 2000 },
    },
  },
};
const runtime = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined" ? "bun" : "deno";
console.log(`selector bench (${runtime}), ${ROWS} changed rows`);
time("matchesDiff, $in where, no row matches (full scan)", () => matchesDiff(diff, noneMatch));
time("matchesDiff, two-column where, the last rows match", () => matchesDiff(diff, lastMatches));
time("matchesDiff, $before/$after where with $count", () => matchesDiff(diff, counted));
time(
  "explainMatch, $in where, no match (nearest miss)",
  () => explainMatch(diff, noneMatch).matched,
);
