/**
 * Harness benchmark: 1,000 cases on Chinook, each with reference SQL, and an
 * agent that answers instantly from a lookup table (no rules, no judge).
 * Measures cases per second through runSuite and through the compiled
 * binary, beside the same reference queries executed alone on the same
 * executor, and prints the harness's overhead per case.
 *
 *   deno task build   # for the binary figures (skipped when dist/dbagenteval is missing)
 *   deno run -A bench/harness.ts [--runs N]
 *   bun bench/harness.ts [--runs N]
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
const N = 1000;

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

  if (fs.existsSync(binary)) {
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
