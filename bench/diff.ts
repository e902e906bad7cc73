/**
 * The diff benchmark: runs `sqldiff` (Debian's sqlite3-tools) and our
 * `dbagenteval db diff` alternately on each workload of gen_diff_data.ts and
 * prints the median wall time of each, the median ratio ours/sqldiff, and
 * the peak RSS of ours (from /usr/bin/time -v, our side as a child process).
 * Both produce their full output: sqldiff's SQL to /dev/null, ours the
 * summary to /dev/null and the JSON document with --json /dev/null.
 *
 * Usage: deno run -A bench/diff.ts [--reps N] [--only w1,w2] [--big]
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import process from "node:process";

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");
const DATA = path.join(ROOT, "bench", "data");
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const reps = Number(arg("--reps") ?? 3);
const only = arg("--only")?.split(",");

const workloads: [string, string, string][] = [
  ["w1", "w1_before.db", "w1_after.db"],
  ["w2", "w1_before.db", "w2_after.db"],
  ["w3", "w1_before.db", "w3_after.db"],
  ["w4", "w4_before.db", "w4_after.db"],
];
if (process.argv.includes("--big")) workloads.push(["w1big", "w1big_before.db", "w1big_after.db"]);

interface Run {
  readonly seconds: number;
  readonly maxRssKb: number;
}

function timed(cmd: string[]): Run {
  const r = spawnSync("/usr/bin/time", ["-v", ...cmd], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`${cmd.join(" ")} failed: ${r.stderr.slice(-2000)}`);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(
    r.stderr,
  );
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  if (wall === null || rss === null) throw new Error(`no /usr/bin/time figures: ${r.stderr}`);
  const seconds = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  return { seconds, maxRssKb: Number(rss[1]) };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const deno = process.execPath;
console.log(
  `reps=${reps}; ours = ${path.basename(deno)} run -A cli.ts db diff A B --json /dev/null`,
);
for (const [name, a, b] of workloads) {
  if (only !== undefined && !only.includes(name)) continue;
  const before = path.join(DATA, a);
  const after = path.join(DATA, b);
  const theirs: Run[] = [];
  const ours: Run[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < reps; i++) {
    const s = timed(["sh", "-c", `/usr/bin/sqldiff "${before}" "${after}" > /dev/null`]);
    const o = timed([
      deno,
      "run",
      "-A",
      "--quiet",
      "cli.ts",
      "db",
      "diff",
      before,
      after,
      "--json",
      "/dev/null",
    ]);
    theirs.push(s);
    ours.push(o);
    ratios.push(o.seconds / s.seconds);
  }
  console.log(
    `${name}: sqldiff ${median(theirs.map((r) => r.seconds)).toFixed(2)} s, ours ${
      median(ours.map((r) => r.seconds)).toFixed(2)
    } s, median ratio ${median(ratios).toFixed(2)}, our peak RSS ${
      (Math.max(...ours.map((r) => r.maxRssKb)) / 1024).toFixed(0)
    } MB (sqldiff ${(Math.max(...theirs.map((r) => r.maxRssKb)) / 1024).toFixed(0)} MB)`,
  );
}
