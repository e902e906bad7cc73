/**
 * The counterexample search on published query pairs (bench/_published_pairs.ts):
 * VeriEQL's Literature and Calcite sets and SQLSolver's Calcite pairs, each
 * on an empty database with the pair's schema. For VeriEQL's Literature set:
 * how many of VeriEQL's refutations we make; for every set: the claims we
 * make, each rebuilt in the sqlite3 shell (the script run through
 * `sqlite3`, both queries run there) and counted false when the two queries
 * give equal rows there; time per pair, process start included.
 *
 *     git clone --depth 1 https://github.com/VeriEQL/VeriEQL bench/data/VeriEQL
 *     git clone --depth 1 https://github.com/SJTU-IPADS/SQLSolver bench/data/SQLSolver
 *     deno run -A bench/counterexample_published.ts [--in-process] [--only literature|calcite|sqlsolver]
 *         [--data DIR] [--verbose]
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { findCounterexample } from "../lib/counterexample/search.ts";
import { compareRows } from "../lib/compare/rows.ts";
import type { RowSet } from "../lib/row_set.ts";
import type { SqliteValue } from "../lib/sqlite/value.ts";
import { type PublishedPair, publishedPairs, type PublishedSet } from "./_published_pairs.ts";
import { cliCommand as cliCommandOf, cliSearch } from "./_counterexample_cli.ts";

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");
const args = process.argv.slice(2);
const option = (name: string): string | undefined =>
  args.includes(name) ? args[args.indexOf(name) + 1] : undefined;
const inProcess = args.includes("--in-process");
const verbose = args.includes("--verbose");
const only = option("--only");
const data = option("--data") ?? path.join(ROOT, "bench/data");

interface Claim {
  readonly found: boolean;
  readonly strategy?: string;
  readonly tried: number;
  readonly databaseSql?: string;
  readonly seconds: number;
  readonly cpu: number;
  readonly error?: string;
}

function cliCommand(): string[] {
  return cliCommandOf(ROOT, process.env["DBAGENTEVAL_BIN"] || undefined);
}

async function search(file: string, reference: string, candidate: string): Promise<Claim> {
  const t0 = performance.now();
  if (inProcess) {
    try {
      const r = await findCounterexample({ db: file, reference, candidate });
      return {
        found: r.found,
        tried: r.tried,
        ...(r.strategy !== undefined ? { strategy: r.strategy } : {}),
        ...(r.databaseSql !== undefined ? { databaseSql: r.databaseSql } : {}),
        seconds: (performance.now() - t0) / 1000,
        cpu: NaN,
      };
    } catch (e) {
      return { found: false, tried: 0, seconds: 0, cpu: NaN, error: (e as Error).message };
    }
  }
  return cliSearch(cliCommand(), file, { reference, candidate });
}

/** Parses the sqlite3 shell's `.mode quote` output (with headers) into a RowSet. */
export function parseQuoted(text: string): RowSet {
  const lines: SqliteValue[][] = [];
  let row: SqliteValue[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'") {
      let j = i + 1;
      let s = "";
      for (;;) {
        if (text[j] === "'" && text[j + 1] === "'") {
          s += "'";
          j += 2;
        } else if (text[j] === "'") break;
        else s += text[j++];
      }
      row.push(s);
      i = j + 1;
    } else if (c === ",") i++;
    else if (c === "\n") {
      lines.push(row);
      row = [];
      i++;
    } else {
      const m = /^[^,\n]*/.exec(text.slice(i))![0];
      if (m === "NULL") row.push(null);
      else if (/^X'/i.test(m)) {
        const hex = m.slice(2, -1);
        row.push(Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16)));
      } else row.push(Number(m));
      i += m.length;
    }
  }
  if (row.length > 0) lines.push(row);
  if (lines.length === 0) return { columns: [], rows: [] };
  return { columns: lines[0]!.map(String), rows: lines.slice(1) };
}

/** Runs the claimed database's script in the sqlite3 shell: null when the queries differ there. */
function sqlite3Verdict(script: string, a: string, b: string): string | null {
  const run = (sql: string): RowSet => {
    const r = spawnSync("sqlite3", ["-bail", ":memory:"], {
      input: `${script}\n.headers on\n.mode quote\n${sql};\n`,
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(r.stderr.trim());
    return parseQuoted(r.stdout);
  };
  try {
    const fk = spawnSync("sqlite3", ["-bail", ":memory:"], {
      input: `${script}\nPRAGMA foreign_key_check;\n`,
      encoding: "utf8",
    });
    if (fk.status !== 0 || fk.stdout.trim() !== "") return "foreign key check fails";
    const ra = run(a);
    const rb = run(b);
    // Equal by the harness's comparison (the candidate's rows as actual), or
    // equal value for value by position whatever the column names: either is
    // a false claim.
    if (compareRows(rb, ra)) return "equal rows in the sqlite3 shell (compareRows)";
    if (positional(ra) === positional(rb)) return "equal rows in the sqlite3 shell (by position)";
  } catch (e) {
    return `sqlite3 shell: ${(e as Error).message}`;
  }
  return null;
}

/** Rows as a sorted multiset of their values by position, numbers to 2 decimal places. */
function positional(rows: RowSet): string {
  const cell = (v: unknown): string =>
    typeof v === "number"
      ? `n${Math.round(v * 100) / 100}`
      : v === null
      ? "null"
      : typeof v === "string"
      ? `s${JSON.stringify(v)}`
      : `b${String(v)}`;
  return rows.rows.map((r) => r.map(cell).join(",")).sort().join("\n");
}

function percentile(values: number[], p: number): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((x, y) => x - y);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

let pairs: PublishedPair[];
try {
  pairs = publishedPairs(data);
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ce-published-"));
try {
  const files = new Map<string, string>();
  const fileOf = (schema: string): string => {
    let f = files.get(schema);
    if (f === undefined) {
      f = path.join(dir, `schema${files.size}.db`);
      const db = new DatabaseSync(f);
      db.exec(schema);
      db.close();
      files.set(schema, f);
    }
    return f;
  };
  const sets: PublishedSet[] = ["literature", "calcite", "sqlsolver"];
  // Anchor: process start alone (dbagenteval --version), in the same run.
  const anchors: number[] = [];
  for (let k = 0; k < 5; k++) {
    const [cmd, ...pre] = cliCommand();
    const t0 = performance.now();
    spawnSync(cmd!, [...pre, "--version"]);
    anchors.push((performance.now() - t0) / 1000);
  }
  const anchor = percentile(anchors, 50);
  const loadStart = os.loadavg()[0]!;
  interface Result {
    pair: PublishedPair;
    claim: Claim;
    problem: string | null;
  }
  const results: Result[] = [];
  for (const set of sets) {
    if (only !== undefined && only !== set) continue;
    for (const pair of pairs.filter((p) => p.set === set && p.untranslatable === null)) {
      const claim = await search(fileOf(pair.schema), pair.a, pair.b);
      const problem = claim.found ? sqlite3Verdict(claim.databaseSql!, pair.a, pair.b) : null;
      results.push({ pair, claim, problem });
      if (verbose) {
        console.error(
          `${set} ${pair.index} ${pair.verdict} ${
            claim.found ? `claimed (${claim.strategy}, ${claim.tried})` : "none"
          } ${claim.seconds.toFixed(2)}s ${problem ?? ""} ${claim.error ?? ""}`,
        );
      }
    }
  }
  console.log(
    "| set | pairs (translated / all) | VeriEQL refutes | we refute | of VeriEQL's refutations | false claims | could not run | median s | p95 s | median/anchor | CPU median s | CPU p95 s |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const set of sets) {
    const r = results.filter((x) => x.pair.set === set);
    if (r.length === 0) continue;
    const all = pairs.filter((p) => p.set === set).length;
    const veri = r.filter((x) => x.pair.verdict === "NEQ");
    const ours = r.filter((x) => x.claim.found && x.problem === null);
    const both = veri.filter((x) => x.claim.found && x.problem === null);
    const falseClaims = r.filter((x) => x.claim.found && x.problem !== null);
    const errors = r.filter((x) => x.claim.error !== undefined);
    const times = r.map((x) => x.claim.seconds);
    console.log(
      `| ${set} | ${r.length} / ${all} | ${
        set === "sqlsolver" ? "-" : veri.length
      } | ${ours.length} | ${
        set === "sqlsolver" ? "-" : `${both.length}/${veri.length}`
      } | ${falseClaims.length} | ${errors.length} | ${percentile(times, 50).toFixed(3)} | ${
        percentile(times, 95).toFixed(3)
      } | ${(percentile(times, 50) / anchor).toFixed(2)} | ${
        percentile(r.map((x) => x.claim.cpu), 50).toFixed(2)
      } | ${percentile(r.map((x) => x.claim.cpu), 95).toFixed(2)} |`,
    );
  }
  const byStrategy = new Map<string, number>();
  for (const x of results.filter((x) => x.claim.found)) {
    byStrategy.set(x.claim.strategy ?? "?", (byStrategy.get(x.claim.strategy ?? "?") ?? 0) + 1);
  }
  console.log(`\nanchor (dbagenteval --version, process start): ${anchor.toFixed(3)} s`);
  console.log(`found by: ${[...byStrategy].map(([s, n]) => `${s} ${n}`).join(", ")}`);
  const missed = results.filter((x) => x.pair.verdict === "NEQ" && !x.claim.found);
  console.log(
    `VeriEQL refutes, we do not: ${
      missed.map((x) => `${x.pair.set} ${x.pair.index}`).join(", ") || "none"
    }`,
  );
  const extra = results.filter((x) =>
    x.pair.verdict !== "NEQ" && x.claim.found && x.problem === null
  );
  console.log(
    `we refute, VeriEQL does not: ${
      extra.map((x) => `${x.pair.set} ${x.pair.index}`).join(", ") || "none"
    }`,
  );
  for (const x of results.filter((x) => x.claim.found && x.problem !== null)) {
    console.log(`FALSE CLAIM ${x.pair.set} ${x.pair.index}: ${x.problem}`);
  }
  for (const x of results.filter((x) => x.claim.error !== undefined)) {
    console.log(`could not run ${x.pair.set} ${x.pair.index}: ${x.claim.error}`);
  }
  console.log(
    `load average: ${loadStart.toFixed(1)} at the start, ${
      os.loadavg()[0]!.toFixed(1)
    } at the end (${os.cpus().length} cores)`,
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
