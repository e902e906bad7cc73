/**
 * Long-run benchmark: N cases (default 100,000) through `run --agent-cmd`
 * with an instant Python agent (read a line, write the expected rows), at the
 * default concurrency, with the run file streamed to --json. Measures the
 * whole CLI process: wall time and peak RSS. The anchor is 1/5 of the cases
 * in the same run, so the ratio shows whether memory grows with the length.
 * `--cli FILE` adds another checkout's cli.ts (e.g. before a change), run on
 * the same files in the same run.
 *
 *   deno run -A bench/long_run.ts [--cases N] [--cli /path/to/other/cli.ts]
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { measure } from "./_measure.ts";

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
};
const N = Number(flag("--cases") ?? 100_000);
const root = path.resolve(import.meta.dirname!, "..");
const clis = [path.join(root, "cli.ts"), ...(flag("--cli") ? [path.resolve(flag("--cli")!)] : [])];
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
  return isBun ? [process.execPath, cli] : [process.execPath, "run", "-A", "--quiet", cli];
}

try {
  console.log(`run --agent-cmd, instant agent, ${isBun ? "bun" : "deno"}`);
  console.log("| cli | cases | seconds | peak RSS MB | ratio to 1/5 (time, memory) |");
  console.log("| --- | ---: | ---: | ---: | --- |");
  const sizes = [Math.round(N / 5), N];
  const files = sizes.map(casesFile);
  for (const cli of clis) {
    const label = path.relative(process.cwd(), cli) || cli;
    const results = sizes.map((n, i) => {
      const json = path.join(dir, `run_${n}.json`);
      const m = measure([
        ...runtime(cli),
        "run",
        files[i]!,
        "--agent-cmd",
        `python3 ${agent}`,
        "--json",
        json,
      ], { discardStdout: true });
      fs.rmSync(json, { force: true });
      return m;
    });
    const [small, big] = results;
    sizes.forEach((n, i) => {
      const m = results[i]!;
      const ratio = i === 0
        ? "anchor"
        : `${(big!.seconds / small!.seconds).toFixed(2)}x, ${
          (big!.peakRssMb / small!.peakRssMb).toFixed(2)
        }x`;
      console.log(
        `| ${label} | ${n.toLocaleString("en")} | ${m.seconds.toFixed(1)} | ${
          m.peakRssMb.toFixed(0)
        } | ${ratio} |`,
      );
    });
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
