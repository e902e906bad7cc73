/**
 * The Chinook run on PGlite, and on a PostgreSQL server when
 * DBAGENTEVAL_TEST_POSTGRES_URL names one: time and peak memory of
 * `run examples/chinook/cases_postgres.yaml --db pglite:examples/chinook/Chinook_PostgreSql.sql`
 * (and `--db postgres://...`) against the anchor measured in the same run,
 * the same agent's `run examples/chinook/cases.yaml --db examples/chinook/Chinook_Sqlite.sqlite`
 * (the embedded SQLite engine), for `deno run cli.ts`, `bun cli.ts` and each
 * `--bin` binary. With `--base DIR` (a checkout of the code before), each
 * command runs there too, alternating with this one, so before and after
 * meet the same load.
 *
 * Memory is the process tree's: the CLI, its agent hosts and its PGlite
 * host, summed, at the peak (read from /proc every 50 ms; Linux), since
 * PGlite runs in a process of its own. `statements` is 2,000 trivial
 * statements one after another through `openReferenceDatabase` (the
 * library, in one process): what one statement costs beside the engine's
 * work.
 *
 *     deno task build
 *     deno run -A bench/pglite.ts --reps 3 --bin dist/dbagenteval --base ../before \
 *       --base-bin ../before/dist/dbagenteval [--parts runs,statements]
 *
 * @module
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { median } from "./_measure.ts";

const AGENT = ["--agent", "examples/chinook/agent.ts:agent"];
const run = (cases: string, db: string) => ["run", cases, ...AGENT, "--db", db];
const SQLITE = run("examples/chinook/cases.yaml", "examples/chinook/Chinook_Sqlite.sqlite");
const PGLITE = run(
  "examples/chinook/cases_postgres.yaml",
  "pglite:examples/chinook/Chinook_PostgreSql.sql",
);
const SERVER = process.env["DBAGENTEVAL_TEST_POSTGRES_URL"];

interface Figures {
  readonly wall: number;
  readonly cpu: number;
  readonly rssMb: number;
}

/** The process and its descendants, from /proc. */
function tree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    let tasks: string[];
    try {
      tasks = fs.readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue;
    }
    for (const t of tasks) {
      try {
        const kids = fs.readFileSync(`/proc/${out[i]}/task/${t}/children`, "utf8").trim();
        if (kids !== "") out.push(...kids.split(/\s+/).map(Number));
      } catch {
        // gone meanwhile
      }
    }
  }
  return out;
}

function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m === null ? 0 : Number(m[1]) * 1024;
  } catch {
    return 0;
  }
}

/** CPU seconds of a process and its reaped children, from /proc (before it is reaped). */
function cpuSeconds(pid: number): number {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return 0;
  }
}

/** One run; the example agent fails some cases on purpose, so exit 1 is a finished run. */
function once(argv: readonly string[], cwd: string): Promise<Figures> {
  const started = performance.now();
  const child = spawn(argv[0]!, argv.slice(1), { cwd, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (c) => stderr += c);
  let peak = 0;
  let cpu = 0;
  const poll = setInterval(() => {
    const pids = tree(child.pid!);
    peak = Math.max(peak, pids.reduce((n, p) => n + rssBytes(p), 0));
    cpu = Math.max(cpu, pids.reduce((n, p) => n + cpuSeconds(p), 0));
  }, 50);
  return new Promise((resolve, reject) => {
    child.on("exit", (code) => {
      clearInterval(poll);
      if (code !== 0 && code !== 1) {
        return reject(new Error(`${argv.join(" ")} exited ${code}: ${stderr.slice(-1000)}`));
      }
      resolve({ wall: (performance.now() - started) / 1000, cpu, rssMb: peak / 2 ** 20 });
    });
  });
}

function medianOf(runs: readonly Figures[]): Figures {
  return {
    wall: median(runs.map((f) => f.wall)),
    cpu: median(runs.map((f) => f.cpu)),
    rssMb: median(runs.map((f) => f.rssMb)),
  };
}

const show = (f: Figures) =>
  `${f.wall.toFixed(1)} s, ${f.cpu.toFixed(1)} s, ${f.rssMb.toFixed(0)} MB`;

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    reps: { type: "string", default: "1" },
    bin: { type: "string", multiple: true },
    base: { type: "string" },
    "base-bin": { type: "string", multiple: true },
    // runs, statements or both (comma-separated)
    parts: { type: "string", default: "runs,statements" },
  },
});
const parts = new Set(values.parts.split(","));
const reps = Number(values.reps);
const here = path.resolve(import.meta.dirname ?? ".", "..");
const trees: [string, string][] = [["after", here]];
if (values.base !== undefined) trees.push(["before", path.resolve(values.base)]);
const runtimes: [string, (root: string) => string[]][] = [
  ["deno run cli.ts", () => ["deno", "run", "--allow-all", "cli.ts"]],
  ["bun cli.ts", () => ["bun", "cli.ts"]],
];
const bins = values.bin ?? [];
const baseBins = values["base-bin"] ?? [];
bins.forEach((b, i) => {
  runtimes.push([`binary ${i + 1}`, (root) => [root === here ? b : (baseBins[i] ?? b)]]);
});

console.log(`load average ${fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3)}`);
console.log(
  "| command | code | SQLite run: wall, CPU, peak tree RSS | PGlite run | PGlite / SQLite (RSS) |" +
    (SERVER !== undefined ? " server run |" : ""),
);
console.log(`| --- | --- | --- | --- | --- |${SERVER !== undefined ? " --- |" : ""}`);
for (const [name, command] of parts.has("runs") ? runtimes : []) {
  const got = new Map<string, { a: Figures[]; p: Figures[]; s: Figures[] }>();
  for (let i = 0; i < reps; i++) {
    // Before and after alternate, so that both meet the same load.
    for (const [label, root] of trees) {
      const g = got.get(label) ?? { a: [], p: [], s: [] };
      got.set(label, g);
      g.a.push(await once([...command(root), ...SQLITE], root));
      g.p.push(await once([...command(root), ...PGLITE], root));
      if (SERVER !== undefined) {
        g.s.push(
          await once(
            [...command(root), ...run("examples/chinook/cases_postgres.yaml", SERVER)],
            root,
          ),
        );
      }
    }
  }
  for (const [label] of trees) {
    const g = got.get(label)!;
    const a = medianOf(g.a);
    const p = medianOf(g.p);
    console.log(
      `| ${name} | ${label} | ${show(a)} | ${show(p)} | ${(p.rssMb / a.rssMb).toFixed(1)} |` +
        (SERVER !== undefined ? ` ${show(medianOf(g.s))} |` : ""),
    );
  }
}

// What one statement costs, beside the engine's work: through the library, in one process.
const STATEMENTS = `
const [root, db, n] = Deno.args;
const { openReferenceDatabase } = await import(root + "/lib/databases/registry.ts");
const database = await openReferenceDatabase(db);
for (let i = 0; i < 50; i++) await database.execute("SELECT 1 AS n");
const started = performance.now();
for (let i = 0; i < Number(n); i++) await database.execute("SELECT " + i + " AS n");
console.log(((performance.now() - started) / Number(n)).toFixed(3));
await database.close();
`;
const script = path.join(
  fs.mkdtempSync(path.join(process.env["TMPDIR"] ?? "/tmp", "bench-")),
  "s.ts",
);
fs.writeFileSync(script, STATEMENTS);
const dbs = parts.has("statements")
  ? ["pglite:examples/chinook/Chinook_PostgreSql.sql", ...(SERVER !== undefined ? [SERVER] : [])]
  : [];
console.log("\n| database | code | ms per statement (2,000 in a row, median of the reps) |");
console.log("| --- | --- | --- |");
for (const db of dbs) {
  const ms = new Map<string, number[]>();
  for (let i = 0; i < reps; i++) {
    for (const [label, root] of trees) {
      const config = path.join(root, "deno.json");
      const args = ["run", "--allow-all", "--quiet", "--config", config, script, root, db, "2000"];
      const r = spawnSync("deno", args, {
        cwd: root,
        encoding: "utf8",
      });
      if (r.status !== 0) throw new Error(`statements on ${db} (${label}): ${r.stderr}`);
      ms.set(label, [...(ms.get(label) ?? []), Number(r.stdout.trim())]);
    }
  }
  for (const [label] of trees) {
    const shown = db.startsWith("postgres") ? "postgres:// (the test server)" : db;
    console.log(`| ${shown} | ${label} | ${median(ms.get(label)!).toFixed(3)} |`);
  }
}
fs.rmSync(path.dirname(script), { recursive: true, force: true });
