/**
 * The `db diff --sql` patch of a big pair: for each command, alternately,
 * `<command> db diff BEFORE AFTER --json FILE --sql FILE` (wall, CPU, peak
 * RSS of the diff writing both outputs), then the script applied to a byte
 * copy of BEFORE with the sqlite3 shell (`-bail`; wall time and the file's
 * size after), and the patched copy diffed against AFTER (it must show no
 * difference). Prints the medians per command.
 *
 * The default pair is W5 (`deno run -A bench/gen_diff_data.ts --add-column`:
 * 10M rows, a column added with ALTER TABLE on the after side, 1% of rows
 * updated, 0.5% deleted, 0.5% inserted).
 *
 *   deno run -A bench/patch.ts [--reps 3] [--pair w5] [--cli NAME=cli.ts]... [--bin NAME=PATH]...
 *
 * `--cli before=/work/base/cli.ts` runs another checkout's cli.ts under this
 * Deno (the code before a change, measured in the same runs); this
 * checkout's cli.ts is always one of the commands.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { median } from "./_measure.ts";

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");
const DATA = path.join(ROOT, "bench", "data");
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const all = (name: string): string[] =>
  process.argv.flatMap((a, i) => (a === name ? [process.argv[i + 1]!] : []));
const reps = Number(arg("--reps") ?? 3);
const pair = arg("--pair") ?? "w5";
const before = path.join(DATA, `${pair}_before.db`);
const after = path.join(DATA, `${pair}_after.db`);
const deno = process.execPath;
const here: [string, string[]] = ["this checkout", [deno, "run", "-A", "--quiet", "cli.ts"]];
const commands: [string, string[]][] = [
  here,
  ...all("--cli").map((spec): [string, string[]] => {
    const [name, cli] = spec.split("=") as [string, string];
    return [name, [deno, "run", "-A", "--quiet", path.resolve(cli)]];
  }),
  ...all("--bin").map((spec): [string, string[]] => {
    const [name, bin] = spec.split("=") as [string, string];
    return [name, [path.resolve(bin)]];
  }),
];

interface Run {
  readonly seconds: number;
  readonly cpu: number;
  readonly rssMb: number;
}

function timed(cmd: readonly string[]): Run {
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
  const user = Number(/User time \(seconds\): ([\d.]+)/.exec(r.stderr)?.[1] ?? NaN);
  const system = Number(/System time \(seconds\): ([\d.]+)/.exec(r.stderr)?.[1] ?? NaN);
  return {
    seconds: Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]),
    cpu: user + system,
    rssMb: Number(rss[1]) / 1024,
  };
}

const work = path.join(DATA, `patch-bench-${process.pid}`);
fs.mkdirSync(work, { recursive: true });
const results = commands.map(() => ({
  diff: [] as Run[],
  apply: [] as Run[],
  sizes: [] as number[],
}));
try {
  console.log(`${pair}: ${before} -> ${after}, ${reps} rounds, load ${loadAverage()}`);
  for (let rep = 0; rep < reps; rep++) {
    commands.forEach(([label, cmd], k) => {
      const json = path.join(work, "diff.json");
      const sql = path.join(work, "patch.sql");
      const diff = timed([...cmd, "db", "diff", before, after, "--json", json, "--sql", sql]);
      const copy = path.join(work, "patched.db");
      fs.copyFileSync(before, copy);
      // (A shell redirect: Deno's spawnSync takes no file descriptor as stdin.)
      const apply = timed(["sh", "-c", 'sqlite3 -bail "$1" < "$2"', "sh", copy, sql]);
      const size = fs.statSync(copy).size;
      // The patched copy must be the after file, to this checkout's diff.
      const check = spawnSync(
        here[1][0]!,
        [...here[1].slice(1), "db", "diff", copy, after, "--exit-code", "--max-rows", "3"],
        { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 26 },
      );
      fs.rmSync(copy);
      if (check.status !== 0) {
        throw new Error(
          `${label}: the patched copy differs from ${after} (exit ${check.status}):\n${check.stdout}${check.stderr}`,
        );
      }
      results[k]!.diff.push(diff);
      results[k]!.apply.push(apply);
      results[k]!.sizes.push(size);
      console.log(
        `  round ${rep + 1} ${label}: diff ${diff.seconds.toFixed(1)} s (CPU ${
          diff.cpu.toFixed(1)
        } s), ${diff.rssMb.toFixed(0)} MB; apply ${apply.seconds.toFixed(1)} s, file ${
          (size / 1e9).toFixed(2)
        } GB; load ${loadAverage()}`,
      );
    });
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
console.log(`before file ${(fs.statSync(before).size / 1e9).toFixed(2)} GB; medians:`);
commands.forEach(([label], k) => {
  const { diff, apply, sizes } = results[k]!;
  console.log(
    `  ${label}: db diff --json --sql ${median(diff.map((r) => r.seconds)).toFixed(1)} s, CPU ${
      median(diff.map((r) => r.cpu)).toFixed(1)
    } s, peak RSS ${median(diff.map((r) => r.rssMb)).toFixed(0)} MB (max ${
      Math.max(...diff.map((r) => r.rssMb)).toFixed(0)
    }); sqlite3 applies it in ${median(apply.map((r) => r.seconds)).toFixed(1)} s, file ${
      (median(sizes) / 1e9).toFixed(2)
    } GB`,
  );
});

function loadAverage(): string {
  try {
    return fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0]!;
  } catch {
    return "?";
  }
}
