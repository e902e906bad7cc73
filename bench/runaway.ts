/**
 * Runaway queries: four predictions that never end (a four-way cross join
 * of Spider's world_1 `city`, 4,079 rows), beside four that answer at
 * once, through `run --predictions ... --concurrency 4 --timeout 5`. With
 * SQL in the harness's own thread the four ran one after another (about
 * 4 x 5 s) and stalled every other case; in the worker pool they overlap,
 * so the run should take about one --timeout. `--score spider` is run too:
 * before the pool the scoring step ran the runaways again with no time
 * limit at all (it is killed here after --kill-after seconds).
 *
 *   deno run -A bench/runaway.ts [--cli OTHER/cli.ts] [--bin FILE]... [--repeat K] [--kill-after S]
 *
 * Each command is run K times, interleaved; medians of wall time and peak
 * RSS (GNU time) are printed.
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
const REPEAT = Number(flag("--repeat") ?? 3);
const KILL_AFTER = Number(flag("--kill-after") ?? 60);
const root = path.resolve(import.meta.dirname!, "..");
const world = path.join(root, "tests", "data", "spider", "database", "world_1", "world_1.sqlite");
const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
const clis = [path.join(root, "cli.ts"), ...(flag("--cli") ? [path.resolve(flag("--cli")!)] : [])];
const bins = args.flatMap((a, i) =>
  a === "--bin" && args[i + 1] ? [path.resolve(args[i + 1]!)] : []
);

const RUNAWAY = "SELECT count(*) FROM city a, city b, city c, city d";
const QUICK = [
  "SELECT count(*) FROM city",
  "SELECT Name FROM country WHERE Code = 'FRA'",
  "SELECT count(*) FROM countrylanguage WHERE IsOfficial = 'T'",
  "SELECT max(Population) FROM city",
];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-runaway-"));
try {
  const cases = [...Array(4).keys()].flatMap((i) => [
    { id: `runaway${i}`, sql: QUICK[i]!, predicted: `${RUNAWAY} WHERE a.ID > ${i}` },
    { id: `quick${i}`, sql: QUICK[i]!, predicted: QUICK[i]! },
  ]);
  fs.writeFileSync(
    path.join(dir, "cases.yaml"),
    cases.map((c) => `- id: ${c.id}\n  question: "${c.id}?"\n  reference_sql: "${c.sql}"\n`)
      .join(""),
  );
  fs.writeFileSync(path.join(dir, "pred.sql"), cases.map((c) => c.predicted).join("\n") + "\n");

  const commands: { name: string; argv: string[] }[] = [];
  const run = ["run", "cases.yaml", "--predictions", "pred.sql", "--db", world];
  const limits = ["--concurrency", "4", "--timeout", "5"];
  for (const cli of clis) {
    const name = cli === clis[0] ? "cli.ts (this tree)" : `cli.ts (${path.dirname(cli)})`;
    const runtime = isBun
      ? [process.execPath, cli]
      : [process.execPath, "run", "--allow-all", "--quiet", cli];
    commands.push({ name, argv: [...runtime, ...run, ...limits] });
    commands.push({
      name: `${name} --score spider`,
      argv: [...runtime, ...run, ...limits, "--score", "spider"],
    });
  }
  for (const bin of bins) {
    commands.push({ name: `binary ${bin}`, argv: [bin, ...run, ...limits] });
    commands.push({
      name: `binary ${bin} --score spider`,
      argv: [bin, ...run, ...limits, "--score", "spider"],
    });
  }
  const results = new Map<string, Measured[]>(commands.map((c) => [c.name, []]));
  for (let r = 0; r < REPEAT; r++) {
    for (const c of commands) {
      results.get(c.name)!.push(
        measure(c.argv, {
          cwd: dir,
          discardStdout: true,
          codes: [1],
          timeoutMs: KILL_AFTER * 1000,
        }),
      );
    }
  }
  console.log(
    `runtime: ${isBun ? `bun ${process.versions["bun"]}` : `deno ${process.versions["deno"]}`}, ` +
      `load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}, median of ${REPEAT}`,
  );
  for (const c of commands) {
    const m = results.get(c.name)!;
    const killed = m.filter((x) => x.timedOut).length;
    const done = m.filter((x) => !x.timedOut);
    console.log(
      `${c.name.padEnd(60)} ${
        done.length === 0
          ? `killed after ${KILL_AFTER} s`
          : `${median(done.map((x) => x.seconds)).toFixed(1)} s, ${
            median(done.map((x) => x.peakRssMb)).toFixed(0)
          } MB`
      }${
        killed > 0 && done.length > 0
          ? ` (${killed} of ${m.length} killed after ${KILL_AFTER} s)`
          : ""
      }`,
    );
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
