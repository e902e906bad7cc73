/**
 * Benchmark of the counterexample search on query pairs of our own
 * (bench/counterexample_pairs.ts): the share of near misses caught, the
 * counterexamples claimed for equivalent rewrites (must be 0), time per
 * pair with process start, and the size of the shrunk databases. Every
 * claimed counterexample is reproduced in two other SQLite builds (the
 * sqlite3 shell and node:sqlite): its script runs with foreign keys on,
 * its CREATE TABLE statements are the given database's verbatim, and the
 * two queries differ on it.
 *
 *     deno run -A bench/counterexample.ts [--in-process] [--only chinook|shop|lab] [--limit N]
 *         [--budget N] [--verbose]
 *
 * The anchor is `dbagenteval --version` (process start alone), measured in
 * the same run.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { findCounterexample } from "../lib/counterexample/search.ts";
import { build, reproduce, tableSql, validate } from "./counterexample_check.ts";
import { cliCommand as cliCommandOf, cliSearch } from "./_counterexample_cli.ts";
import {
  type Instance,
  instances,
  LAB_SQL,
  type PairDb,
  SHOP_SQL,
} from "./counterexample_pairs.ts";

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");
const args = process.argv.slice(2);
const inProcess = args.includes("--in-process");
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
const limit = args.includes("--limit") ? Number(args[args.indexOf("--limit") + 1]) : Infinity;
const verbose = args.includes("--verbose");
const budget = args.includes("--budget") ? Number(args[args.indexOf("--budget") + 1]) : undefined;

interface Claim {
  /** CPU seconds of the process (user + system), from GNU time; NaN in-process. */
  readonly cpu: number;
  readonly found: boolean;
  readonly tried: number;
  readonly databaseSql?: string;
  readonly seconds: number;
  readonly error?: string;
}

function cliCommand(): string[] {
  return cliCommandOf(ROOT, process.env["DBAGENTEVAL_BIN"] || undefined);
}

async function search(
  file: string,
  reference: string,
  candidate: string,
  ordered: boolean,
): Promise<Claim> {
  const t0 = performance.now();
  if (inProcess) {
    const r = await findCounterexample({ db: file, reference, candidate, ordered, budget });
    return {
      cpu: NaN,
      found: r.found,
      tried: r.tried,
      ...(r.databaseSql !== undefined ? { databaseSql: r.databaseSql } : {}),
      seconds: (performance.now() - t0) / 1000,
    };
  }
  return cliSearch(cliCommand(), file, { reference, candidate, ordered, budget });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ce-bench-"));
try {
  const files: Record<PairDb, string> = {
    chinook: path.join(ROOT, "examples/chinook/Chinook_Sqlite.sqlite"),
    shop: build(dir, "shop.db", SHOP_SQL),
    lab: build(dir, "lab.db", LAB_SQL),
  };
  const schemas = Object.fromEntries(
    (Object.keys(files) as PairDb[]).map((k) => [k, tableSql(files[k])]),
  ) as Record<PairDb, Map<string, string>>;
  const chinookBefore = fs.statSync(files.chinook);
  const chinookBytes = fs.readFileSync(files.chinook);

  const all = instances().filter((i) => only === undefined || i.db === only);
  const kept: Instance[] = [];
  for (const i of all) {
    const why = validate(i, files[i.db], schemas[i.db]);
    if (why === null) kept.push(i);
    else if (verbose) console.error(`dropped (${why}): ${i.family}: ${i.nearMiss}`);
  }
  const used = kept.slice(0, limit);
  console.log(
    `instances: ${all.length} written, ${kept.length} valid, ${used.length} used (${
      used.length * 2
    } pairs)`,
  );

  // Anchor: process start alone.
  const anchors: number[] = [];
  for (let k = 0; k < 5; k++) {
    const [cmd, ...pre] = cliCommand();
    const t0 = performance.now();
    spawnSync(cmd!, [...pre, "--version"]);
    anchors.push((performance.now() - t0) / 1000);
  }
  const anchor = percentile(anchors, 50);

  interface Row {
    db: PairDb;
    kind: "near miss" | "equivalent";
    family: string;
    claim: Claim;
    problem: string | null;
    inserts: number;
  }
  const rows: Row[] = [];
  for (const i of used) {
    for (const kind of ["near miss", "equivalent"] as const) {
      const candidate = kind === "near miss" ? i.nearMiss : i.equivalent;
      const pair = { reference: i.reference, candidate, ordered: i.ordered ?? false };
      const claim = await search(files[i.db], i.reference, candidate, pair.ordered);
      const problem = claim.error ??
        (claim.found ? reproduce(claim.databaseSql!, pair, schemas[i.db]) : null);
      const inserts = claim.databaseSql?.split("\n").filter((l) => l.startsWith("INSERT")).length ??
        0;
      rows.push({ db: i.db, kind, family: i.family, claim, problem, inserts });
      if (verbose && ((kind === "near miss") !== claim.found || problem !== null)) {
        console.error(
          `${kind} ${claim.found ? "claimed" : "missed"} ${problem ?? ""}: ${candidate}`,
        );
      }
    }
  }
  const after = fs.statSync(files.chinook);
  const unchanged = after.mtimeMs === chinookBefore.mtimeMs &&
    Buffer.compare(fs.readFileSync(files.chinook), chinookBytes) === 0;

  console.log(
    `\nanchor (dbagenteval --version, process start): ${anchor.toFixed(3)} s${
      inProcess ? " (searches ran in-process)" : ""
    }`,
  );
  console.log(
    "| database | near misses caught | claims on equivalents | claims not reproduced | median s | p95 s | median/anchor | CPU median s | CPU p95 s | shrunk rows (median, max) |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const db of ["chinook", "shop", "lab", "all"] as const) {
    const r = rows.filter((x) => db === "all" || x.db === db);
    if (r.length === 0) continue;
    const near = r.filter((x) => x.kind === "near miss");
    const caught = near.filter((x) => x.claim.found && x.problem === null).length;
    const falseClaims = r.filter((x) => x.kind === "equivalent" && x.claim.found).length;
    const bad = r.filter((x) => x.claim.found && x.problem !== null).length;
    const times = r.map((x) => x.claim.seconds);
    const sizes = r.filter((x) => x.claim.found).map((x) => x.inserts);
    const med = percentile(times, 50);
    const cpu = r.map((x) => x.claim.cpu);
    console.log(
      `| ${db} | ${caught}/${near.length} (${
        (100 * caught / Math.max(1, near.length)).toFixed(1)
      }%) | ${falseClaims} | ${bad} | ${med.toFixed(3)} | ${percentile(times, 95).toFixed(3)} | ${
        (med / anchor).toFixed(2)
      } | ${percentile(cpu, 50).toFixed(2)} | ${percentile(cpu, 95).toFixed(2)} | ${
        percentile(sizes, 50)
      }, ${Math.max(0, ...sizes)} |`,
    );
  }
  const triedToFind = rows.filter((x) => x.kind === "near miss" && x.claim.found).map((x) =>
    x.claim.tried
  );
  console.log(
    `\ndatabases tried until a near miss was caught: median ${percentile(triedToFind, 50)}, p95 ${
      percentile(triedToFind, 95)
    }, max ${Math.max(0, ...triedToFind)}`,
  );
  const missed = rows.filter((x) => x.kind === "near miss" && !x.claim.found);
  if (missed.length > 0) {
    console.log(
      `\nnear misses not caught: ${
        [...new Set(missed.map((m) => `${m.db}/${m.family}`))].join(", ")
      }`,
    );
  }
  const errors = rows.filter((x) => x.claim.error !== undefined);
  if (errors.length > 0) {
    console.log(`\nsearches that could not run: ${errors.length}, e.g. ${errors[0]!.claim.error}`);
  }
  console.log(
    `load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(", ")} (2 cores)`,
  );
  console.log(`\nChinook file unchanged (bytes and mtime): ${unchanged}`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
