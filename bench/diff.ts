/**
 * The diff benchmark: runs `sqldiff` (Debian's sqlite3-tools) and our
 * `dbagenteval db diff` alternately on each workload of gen_diff_data.ts and
 * prints the median wall time of each, the median ratio ours/sqldiff, and
 * the peak RSS of ours (from /usr/bin/time -v, our side as a child process).
 * Both produce their full output: sqldiff's SQL to /dev/null, ours the
 * summary to /dev/null and the JSON document with --json /dev/null.
 * "Ours" is `deno run -A cli.ts` and, with `--bin PATH` (repeatable), also
 * each compiled binary (`deno task build` writes dist/dbagenteval), each
 * with its own ratio: the binary is what CI runners download.
 *
 * Usage: deno run -A bench/diff.ts [--reps N] [--only w1,w2] [--big] [--bin PATH]...
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
  /** User plus system CPU seconds: less moved by other processes than wall time on a busy machine. */
  readonly cpu: number;
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
  const user = Number(/User time \(seconds\): ([\d.]+)/.exec(r.stderr)?.[1] ?? NaN);
  const system = Number(/System time \(seconds\): ([\d.]+)/.exec(r.stderr)?.[1] ?? NaN);
  return { seconds, maxRssKb: Number(rss[1]), cpu: user + system };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const deno = process.execPath;
const bins = process.argv.flatMap((a, i) => (a === "--bin" ? [process.argv[i + 1]!] : []));
const ourCommands: [string, string[]][] = [
  ["deno run", [deno, "run", "-A", "--quiet", "cli.ts"]],
  ...bins.map((b): [string, string[]] => [b, [path.resolve(b)]]),
];
console.log(`reps=${reps}; ours = <command> db diff A B --json /dev/null, for each of:`);
for (const [label, cmd] of ourCommands) console.log(`  ${label}: ${cmd.join(" ")}`);
for (const [name, a, b] of workloads) {
  if (only !== undefined && !only.includes(name)) continue;
  const before = path.join(DATA, a);
  const after = path.join(DATA, b);
  const theirs: Run[] = [];
  const ours = ourCommands.map((): { runs: Run[]; ratios: number[] } => ({ runs: [], ratios: [] }));
  for (let i = 0; i < reps; i++) {
    const s = timed(["sh", "-c", `/usr/bin/sqldiff "${before}" "${after}" > /dev/null`]);
    theirs.push(s);
    ourCommands.forEach(([, cmd], k) => {
      const o = timed([...cmd, "db", "diff", before, after, "--json", "/dev/null"]);
      ours[k]!.runs.push(o);
      ours[k]!.ratios.push(o.seconds / s.seconds);
    });
  }
  const mb = (runs: Run[]): string => (Math.max(...runs.map((r) => r.maxRssKb)) / 1024).toFixed(0);
  console.log(
    `${name}: sqldiff ${median(theirs.map((r) => r.seconds)).toFixed(2)} s (CPU ${
      median(theirs.map((r) => r.cpu)).toFixed(2)
    } s), peak RSS ${mb(theirs)} MB`,
  );
  ourCommands.forEach(([label], k) => {
    const { runs, ratios } = ours[k]!;
    console.log(
      `  ${label}: ${median(runs.map((r) => r.seconds)).toFixed(2)} s, median ratio ${
        median(ratios).toFixed(2)
      }, CPU ${median(runs.map((r) => r.cpu)).toFixed(2)} s, peak RSS ${mb(runs)} MB`,
    );
  });
}
