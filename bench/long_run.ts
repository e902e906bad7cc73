/**
 * Long-run benchmark: N cases (default 100,000) through `run --agent-cmd`
 * with an instant Python agent (read a line, write the expected rows), at the
 * default concurrency, with the run file streamed to --json. Measures the
 * whole CLI process: wall time and peak RSS. The anchor is 1/5 of the cases
 * in the same run, so the ratio shows whether memory grows with the length.
 * `--cli FILE` adds another checkout's cli.ts (e.g. before a change), run on
 * the same files in the same run; `--bin FILE` (repeatable) a compiled
 * binary (`deno task build`'s dist/dbagenteval), run as it is.
 *
 * `--repeat K` runs every command K times, interleaved, and gives the
 * medians.
 *
 *   deno run -A bench/long_run.ts [--cases N] [--repeat K] [--cli /path/to/other/cli.ts] [--bin FILE]...
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { measure, type Measured, median } from "./_measure.ts";

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
};
const N = Number(flag("--cases") ?? 100_000);
const REPEAT = Number(flag("--repeat") ?? 1);
const root = path.resolve(import.meta.dirname!, "..");
const clis = [path.join(root, "cli.ts"), ...(flag("--cli") ? [path.resolve(flag("--cli")!)] : [])];
const bins = args.flatMap((a, i) =>
  a === "--bin" && args[i + 1] ? [path.resolve(args[i + 1]!)] : []
);
const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-long-"));
const agent = path.join(dir, "agent.py");
fs.writeFileSync(
  agent,
  `import json, sys
for line in sys.stdin:
    r = json.loads(line)
    sys.stdout.write(json.dumps({"id": r["id"], "sql": "SELECT 1 AS n", "rows": [{"n": 1}], "answer": "1"}) + "\\n")
    sys.stdout.flush()
`,
);

function casesFile(n: number): string {
  const file = path.join(dir, `cases_${n}.jsonl`);
  const fd = fs.openSync(file, "w");
  for (let i = 0; i < n; i++) {
    fs.writeSync(
      fd,
      `{"id":"c${i}","question":"How many rows are in table ${i}?","expect":{"rows":[{"n":1}]}}\n`,
    );
  }
  fs.closeSync(fd);
  return file;
}

function runtime(cli: string): string[] {
  if (bins.includes(cli)) return [cli];
  return isBun ? [process.execPath, cli] : [process.execPath, "run", "-A", "--quiet", cli];
}

try {
  console.log(`run --agent-cmd, instant agent, ${isBun ? "bun" : "deno"}`);
  console.log(
    `| cli | cases | seconds${
      REPEAT > 1 ? ` (median of ${REPEAT})` : ""
    } | peak RSS MB | ratio to 1/5 (time, memory) |`,
  );
  console.log("| --- | ---: | ---: | ---: | --- |");
  const sizes = [Math.round(N / 5), N];
  const files = sizes.map(casesFile);
  // Every command at every size, REPEAT times over, interleaved so that a
  // change of load touches them alike; the table gives the medians.
  const all = [...clis, ...bins];
  const runs = all.map(() => sizes.map((): Measured[] => []));
  for (let r = 0; r < REPEAT; r++) {
    all.forEach((cli, c) =>
      sizes.forEach((n, i) => {
        const json = path.join(dir, `run_${n}.json`);
        runs[c]![i]!.push(measure([
          ...runtime(cli),
          "run",
          files[i]!,
          "--agent-cmd",
          `python3 ${agent}`,
          "--json",
          json,
        ], { discardStdout: true }));
        fs.rmSync(json, { force: true });
      })
    );
  }
  all.forEach((cli, c) => {
    const label = path.relative(process.cwd(), cli) || cli;
    const seconds = runs[c]!.map((ms) => median(ms.map((m) => m.seconds)));
    const rss = runs[c]!.map((ms) => median(ms.map((m) => m.peakRssMb)));
    sizes.forEach((n, i) => {
      const ratio = i === 0
        ? "anchor"
        : `${(seconds[1]! / seconds[0]!).toFixed(2)}x, ${(rss[1]! / rss[0]!).toFixed(2)}x`;
      console.log(
        `| ${label} | ${n.toLocaleString("en")} | ${seconds[i]!.toFixed(1)} | ${
          rss[i]!.toFixed(0)
        } | ${ratio} |`,
      );
    });
  });
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
