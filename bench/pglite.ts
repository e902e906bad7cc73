/**
 * The Chinook run on PGlite: peak memory and time of
 * `run examples/chinook/cases_postgres.yaml --db pglite:examples/chinook/Chinook_PostgreSql.sql`
 * against the anchor measured in the same run, the same agent's
 * `run examples/chinook/cases.yaml --db examples/chinook/Chinook_Sqlite.sqlite`
 * (the embedded SQLite engine), for `deno run cli.ts`, `bun cli.ts` and each
 * `--bin` binary. Each command runs under /usr/bin/time; RSS is the CLI's
 * own process at its peak (the agent hosts are smaller).
 *
 *     deno task build
 *     deno run -A bench/pglite.ts --reps 3 --bin dist/dbagenteval
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import process from "node:process";
import { parseArgs } from "node:util";
import { median } from "./_measure.ts";

const AGENT = ["--agent", "examples/chinook/agent.ts:agent"];
const SQLITE = [
  "run",
  "examples/chinook/cases.yaml",
  ...AGENT,
  "--db",
  "examples/chinook/Chinook_Sqlite.sqlite",
];
const PGLITE = [
  "run",
  "examples/chinook/cases_postgres.yaml",
  ...AGENT,
  "--db",
  "pglite:examples/chinook/Chinook_PostgreSql.sql",
];

interface Figures {
  readonly wall: number;
  readonly cpu: number;
  readonly rssMb: number;
}

/** One run; the example agent fails some cases on purpose, so exit 1 is a finished run. */
function once(argv: readonly string[]): Figures {
  const r = spawnSync("/usr/bin/time", ["-f", "__FIGURES__ %e %U %S %M", ...argv], {
    encoding: "utf8",
    stdio: ["ignore", "ignore", "pipe"],
    maxBuffer: 1 << 26,
  });
  if (r.error) throw r.error;
  const m = /__FIGURES__ ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  if ((r.status !== 0 && r.status !== 1) || m === null) {
    throw new Error(`${argv.join(" ")} exited ${r.status}: ${r.stderr.slice(-1000)}`);
  }
  return { wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), rssMb: Number(m[4]) / 1024 };
}

function medianOf(runs: readonly Figures[]): Figures {
  return {
    wall: median(runs.map((f) => f.wall)),
    cpu: median(runs.map((f) => f.cpu)),
    rssMb: median(runs.map((f) => f.rssMb)),
  };
}

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { reps: { type: "string", default: "1" }, bin: { type: "string", multiple: true } },
});
const reps = Number(values.reps);
const commands: [string, string[]][] = [
  ["deno run cli.ts", ["deno", "run", "--allow-all", "cli.ts"]],
  ["bun cli.ts", ["bun", "cli.ts"]],
  ...(values.bin ?? []).map((b): [string, string[]] => [b, [b]]),
];
console.log(
  "| command | SQLite run: wall, CPU, peak RSS | PGlite run: wall, CPU, peak RSS | PGlite / SQLite (RSS) |",
);
console.log("| --- | --- | --- | --- |");
for (const [name, cmd] of commands) {
  const anchor: Figures[] = [];
  const pglite: Figures[] = [];
  for (let i = 0; i < reps; i++) {
    anchor.push(once([...cmd, ...SQLITE]));
    pglite.push(once([...cmd, ...PGLITE]));
  }
  const a = medianOf(anchor);
  const p = medianOf(pglite);
  const show = (f: Figures) =>
    `${f.wall.toFixed(1)} s, ${f.cpu.toFixed(1)} s, ${f.rssMb.toFixed(0)} MB`;
  console.log(`| ${name} | ${show(a)} | ${show(p)} | ${(p.rssMb / a.rssMb).toFixed(1)} |`);
}
