/**
 * Harness benchmark: 1,000 cases on Chinook, each with reference SQL, and an
 * agent that answers instantly from a lookup table (no rules, no judge).
 * Measures cases per second through runSuite and through the compiled
 * binary, beside the same reference queries executed alone on the same
 * executor, and prints the harness's overhead per case.
 *
 *   deno task build   # for the binary figures (skipped when dist/dbagenteval is missing)
 *   deno run -A bench/harness.ts [--runs N] [--cases N]
 *   bun bench/harness.ts [--runs N] [--cases N]
 *   deno run -A bench/harness.ts --cases 200 --cli OTHER/cli.ts --bin FILE --bin FILE
 *
 * `--cases N` sets the number of cases (default 1,000). `--cli FILE` (another
 * checkout's cli.ts, e.g. the code before a change) and `--bin FILE`
 * (repeatable: compiled binaries) add the whole process, `run cases.yaml
 * --agent agent.js:agent --db Chinook`, for this tree's cli.ts and each of
 * them, interleaved `--runs` times: medians of wall time and peak RSS (GNU
 * time), in one table.
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { loadCases } from "../lib/eval/cases.ts";
import { runSuite } from "../lib/eval/suite.ts";
import { sqliteExecutor } from "../lib/sqlite/executor.ts";
import { measure, median } from "./_measure.ts";

const here = import.meta.dirname!;
const root = path.resolve(here, "..");
const chinook = path.join(root, "examples", "chinook", "Chinook_Sqlite.sqlite");
const binary = path.join(root, "dist", "dbagenteval");
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1] || 3) || 3;
const N = Number(args[args.indexOf("--cases") + 1] || 1000) || 1000;
const otherClis = args.flatMap((a, i) =>
  a === "--cli" && args[i + 1] ? [path.resolve(args[i + 1]!)] : []
);
const bins = args.flatMap((a, i) =>
  a === "--bin" && args[i + 1] ? [path.resolve(args[i + 1]!)] : []
);

/** 1,000 different questions, cycling through a few query shapes over Chinook's keys. */
function referenceSql(i: number): string {
  const k = i + 1;
  switch (i % 5) {
    case 0:
      return `SELECT Name, Milliseconds FROM Track WHERE TrackId = ${k}`;
    case 1:
      return `SELECT COUNT(*) FROM Track WHERE AlbumId = ${1 + (k % 347)}`;
    case 2:
      return `SELECT SUM(Total) FROM Invoice WHERE CustomerId = ${1 + (k % 59)}`;
    case 3:
      return `SELECT Title FROM Album WHERE ArtistId = ${1 + (k % 275)} ORDER BY Title`;
    default:
      return `SELECT c.Country, COUNT(*) FROM Invoice i JOIN Customer c USING (CustomerId) ` +
        `WHERE i.CustomerId = ${1 + (k % 59)} GROUP BY c.Country`;
  }
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-bench-harness-"));
try {
  // The agent's answers: the reference rows, computed once before timing.
  const execute = sqliteExecutor(chinook);
  const questions: string[] = [];
  const answers: Record<string, { sql: string; rows: unknown[] }> = {};
  const yaml: string[] = [];
  for (let i = 0; i < N; i++) {
    const question = `Question ${i + 1}?`;
    const sql = referenceSql(i);
    questions.push(question);
    answers[question] = { sql, rows: await execute(sql) };
    yaml.push(`- id: q${i + 1}\n  question: "${question}"\n  reference_sql: "${sql}"\n`);
  }
  const casesFile = path.join(tmp, "cases.yaml");
  fs.writeFileSync(casesFile, yaml.join(""));
  fs.writeFileSync(
    path.join(tmp, "agent.js"),
    `const ANSWERS = ${JSON.stringify(answers)};\nexport const agent = (q) => ANSWERS[q];\n`,
  );
  fs.writeFileSync(path.join(tmp, "one.yaml"), yaml[0]!);
  const cases = await loadCases(casesFile);
  const agent = (q: string) => answers[q];

  const alone: number[] = [];
  const suite: number[] = [];
  for (let r = 0; r < runs; r++) {
    let t = performance.now();
    for (const c of cases) await execute(c.reference_sql!);
    alone.push((performance.now() - t) / 1000);

    t = performance.now();
    const result = await runSuite(cases, agent, { execute });
    suite.push((performance.now() - t) / 1000);
    if (result.exitCode !== 0) throw new Error(`the suite did not pass:\n${result.summary()}`);
  }
  execute.close();

  const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
  const a = median(alone);
  const s = median(suite);
  console.log(
    `runtime: ${
      isBun ? `bun ${process.versions["bun"]}` : `deno ${process.versions["deno"]}`
    }, ${N} cases, median of ${runs}`,
  );
  console.log(`reference queries alone: ${a.toFixed(3)} s (${(N / a).toFixed(0)} queries/s)`);
  console.log(`runSuite:                ${s.toFixed(3)} s (${(N / s).toFixed(0)} cases/s)`);
  console.log(`harness overhead:        ${((s - a) * 1000 / N).toFixed(3)} ms per case`);

  if (otherClis.length > 0 || bins.length > 0) {
    // The whole process for each tree, interleaved.
    const runtime = isBun
      ? (cli: string) => [process.execPath, cli]
      : (cli: string) => [process.execPath, "run", "--allow-all", "--quiet", cli];
    const commands = [
      ...[path.join(root, "cli.ts"), ...otherClis].map((cli) => ({
        name: `${isBun ? "bun" : "deno run"} ${path.relative(process.cwd(), cli) || cli}`,
        argv: [...runtime(cli), "run", "cases.yaml", "--agent", "agent.js:agent", "--db", chinook],
      })),
      ...bins.map((bin) => ({
        name: `binary ${bin}`,
        argv: [bin, "run", "cases.yaml", "--agent", "agent.js:agent", "--db", chinook],
      })),
    ];
    const measured = new Map(commands.map((c) => [c.name, [] as { s: number; mb: number }[]]));
    for (let r = 0; r < runs; r++) {
      for (const c of commands) {
        const m = measure(c.argv, { cwd: tmp, discardStdout: true });
        measured.get(c.name)!.push({ s: m.seconds, mb: m.peakRssMb });
      }
    }
    console.log(
      `whole process, ${N} cases, load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}:`,
    );
    for (const c of commands) {
      const m = measured.get(c.name)!;
      console.log(
        `  ${c.name.padEnd(56)} ${median(m.map((x) => x.s)).toFixed(3)} s, ${
          median(m.map((x) => x.mb)).toFixed(0)
        } MB`,
      );
    }
  } else if (fs.existsSync(binary)) {
    const cli = (
      file: string,
    ) => [binary, "run", file, "--agent", "agent.js:agent", "--db", chinook];
    const full: number[] = [];
    const one: number[] = [];
    for (let r = 0; r < runs; r++) {
      full.push(measure(cli("cases.yaml"), { cwd: tmp, discardStdout: true }).seconds);
      one.push(measure(cli("one.yaml"), { cwd: tmp, discardStdout: true }).seconds);
    }
    const f = median(full);
    const o = median(one);
    console.log(
      `binary, ${N} cases:       ${f.toFixed(3)} s (${(N / f).toFixed(0)} cases/s with start-up)`,
    );
    console.log(`binary, 1 case:           ${o.toFixed(3)} s (start-up, loading, one case)`);
    console.log(
      `binary per case:         ${((f - o) * 1000 / (N - 1)).toFixed(3)} ms (without start-up)`,
    );
  } else {
    console.log(`binary: skipped, run deno task build first`);
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
