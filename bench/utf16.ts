/**
 * What diffing a UTF-16 database costs beside the same data in UTF-8. One
 * pair of files per encoding, made with the sqlite3 shell (into
 * bench/data/utf16/, gitignored): a rowid table (read from the pages in
 * both encodings) and a keyless one (compared by SQLite: for UTF-16, after
 * the side's tables are copied in UTF-8, lib/diff/_utf8_copy.ts), N rows
 * each, 1% of them changed. `db diff --summary` runs on the UTF-8 pair and
 * the UTF-16le pair alternately, with sqldiff on each as the anchor; prints
 * the median wall time, peak RSS, and whether the counts agree.
 *
 * Usage: deno run -A bench/utf16.ts [--rows N] [--reps N]
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { measure, median } from "./_measure.ts";

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");
const DATA = path.join(ROOT, "bench", "data", "utf16");
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const rows = Number(arg("--rows") ?? 500_000);
const reps = Number(arg("--reps") ?? 3);

function shell(file: string, sql: string): void {
  const r = spawnSync("sqlite3", [file], { input: sql, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`sqlite3 ${file}: ${r.stderr}`);
}

/** The pair in `encoding`, made once. */
function pair(encoding: string): [string, string] {
  const a = path.join(DATA, `${encoding}-${rows}-a.db`);
  const b = path.join(DATA, `${encoding}-${rows}-b.db`);
  if (fs.existsSync(b)) return [a, b];
  fs.mkdirSync(DATA, { recursive: true });
  fs.rmSync(a, { force: true });
  shell(
    a,
    `PRAGMA encoding = '${encoding}';
     CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, city TEXT);
     CREATE TABLE k (name TEXT, note TEXT);
     WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${rows})
       INSERT INTO t SELECT x, 'nom-é-' || x, 'Zürich ' || (x % 97) FROM c;
     INSERT INTO k SELECT name, city FROM t;`,
  );
  fs.copyFileSync(a, b);
  shell(
    b,
    `UPDATE t SET city = 'Genève' WHERE id % 100 = 0;
     DELETE FROM k WHERE rowid % 100 = 0;
     INSERT INTO k SELECT 'neu-ü-' || id, city FROM t WHERE id % 100 = 1;`,
  );
  return [a, b];
}

const pairs = { "UTF-8": pair("UTF-8"), "UTF-16le": pair("UTF-16le") };
const ours = (a: string, b: string) =>
  measure(["deno", "run", "-A", path.join(ROOT, "cli.ts"), "db", "diff", "--summary", a, b], {
    codes: [0, 1],
  });
const sqldiff = (a: string, b: string) =>
  measure(["sqldiff", "--summary", a, b], { discardStdout: true });

const runs: Record<string, { ours: number[]; oursMb: number[]; sqldiff: number[]; out: string }> =
  {};
for (let r = 0; r < reps; r++) {
  for (const [enc, [a, b]] of Object.entries(pairs)) {
    const o = ours(a, b);
    const s = sqldiff(a, b);
    const run = runs[enc] ??= { ours: [], oursMb: [], sqldiff: [], out: o.stdout };
    run.ours.push(o.seconds);
    run.oursMb.push(o.peakRssMb);
    run.sqldiff.push(s.seconds);
  }
}
const load = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`${rows} rows a table, 1% changed; ${reps} runs each, interleaved; load ${load}`);
for (const [enc, run] of Object.entries(runs)) {
  const t = median(run.ours);
  const s = median(run.sqldiff);
  console.log(
    `${enc.padEnd(8)}  db diff --summary ${t.toFixed(2)} s, ${
      median(run.oursMb).toFixed(0)
    } MB peak; sqldiff ${s.toFixed(2)} s (ours/sqldiff ${(t / s).toFixed(2)})`,
  );
}
const same =
  runs["UTF-8"]!.out.replace(/^\S+: /m, "") === runs["UTF-16le"]!.out.replace(/^\S+: /m, "");
console.log(`same counts in both encodings: ${same}\n${runs["UTF-16le"]!.out}`);
