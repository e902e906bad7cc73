/**
 * What `db diff --html FILE` costs beside `db diff --summary` on the same
 * pair, in the same runs, alternately: the median wall time and CPU time of
 * each, their ratios to the summary's, and each one's peak RSS (GNU time,
 * the whole process), with the page's size. The anchor is the summary because it
 * is the diff with the least output (counts only): what the page adds is the
 * rows it keeps (--max-rows of each kind per table) and its rendering. The
 * JSON document of the same kept rows (`--json FILE`), measured alongside,
 * tells the two apart: what keeping the rows costs any output that shows them.
 *
 *   deno run -A bench/diff_html.ts --bin dist/dbagenteval [--reps 3] [--big] [--only w1]
 *
 * One untimed run first reads the files into the page cache. Workloads from bench/gen_diff_data.ts in bench/data: W1 (2M rows, 2%
 * changed), with --big W1 at 20M rows. Not a test: it prints figures.
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { measure, type Measured, median } from "./_measure.ts";

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");
const DATA = path.join(ROOT, "bench", "data");
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const reps = Number(arg("--reps") ?? 3);
const bin = arg("--bin");
const cli = bin === undefined ? [process.execPath, "run", "-A", path.join(ROOT, "cli.ts")] : [bin];
const workloads: [string, string, string][] = [["w1", "w1_before.db", "w1_after.db"]];
if (process.argv.includes("--big")) workloads.push(["w1big", "w1big_before.db", "w1big_after.db"]);
const only = arg("--only")?.split(",");
const out = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-bench-html-"));

try {
  console.log(
    `${bin ?? "deno run cli.ts"}, ${reps} alternating runs, load ${os.loadavg()[0]!.toFixed(1)}`,
  );
  for (const [name, before, after] of workloads) {
    if (only !== undefined && !only.includes(name)) continue;
    const a = path.join(DATA, before);
    const b = path.join(DATA, after);
    if (!fs.existsSync(a) || !fs.existsSync(b)) {
      console.log(
        `${name}: skipped (run bench/gen_diff_data.ts${name === "w1big" ? " --big" : ""})`,
      );
      continue;
    }
    const page = path.join(out, `${name}.html`);
    // The anchor first; then the page with the summary on stdout (what the page
    // itself costs), the page with the text the command prints without
    // options (what `--html FILE` alone does), and the JSON document of the
    // same kept rows.
    const variants: [string, string[]][] = [
      ["--summary", ["--summary"]],
      ["--html FILE --summary", ["--html", page, "--summary"]],
      ["--html FILE", ["--html", page]],
      ["--json FILE", ["--json", `${page}.json`]],
    ];
    const runs = variants.map((): Measured[] => []);
    // Untimed first: the files into the page cache, so neither command pays for the disk.
    measure([...cli, "db", "diff", a, b, "--summary"], { discardStdout: true });
    for (let i = 0; i < reps; i++) {
      variants.forEach(([, args], v) => {
        runs[v]!.push(measure([...cli, "db", "diff", a, b, ...args], { discardStdout: true }));
      });
    }
    const wall = (m: Measured[]) => median(m.map((r) => r.seconds));
    const cpu = (m: Measured[]) => median(m.map((r) => r.cpuSeconds));
    const peak = (m: Measured[]) => Math.max(...m.map((r) => r.peakRssMb)).toFixed(0);
    const size = fs.statSync(page).size;
    const rows =
      (fs.readFileSync(page, "utf8").match(/<tr class="(added|removed|changed)">/g) ?? [])
        .length;
    console.log(
      `${name}: page ${(size / 1024).toFixed(0)} KiB, ${rows} rows; load ${
        os.loadavg()[0]!.toFixed(1)
      }`,
    );
    const anchor = runs[0]!;
    variants.forEach(([label], v) => {
      const m = runs[v]!;
      console.log(
        `  ${label.padEnd(22)} ${wall(m).toFixed(2)} s (ratio ${
          (wall(m) / wall(anchor)).toFixed(2)
        }), CPU ${cpu(m).toFixed(2)} s (ratio ${(cpu(m) / cpu(anchor)).toFixed(2)}), peak RSS ${
          peak(m)
        } MB`,
      );
    });
  }
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
