/**
 * The counterexample search on a held-out-style set (bench/_heldout_*.ts):
 * near misses written the way agents err, on a Chinook-like "music"
 * database, a "school" and a multi-tenant "shop" (and the shop with 300,000
 * orders), against a deliberately crude random searcher
 * (bench/_random_searcher.ts) in the same run. Each pair is one
 * `dbagenteval counterexample --json -` process (process start included);
 * with `--base-bin FILE` the binary built from the code before a change is
 * run beside it, pair by pair, alternating which goes first. Every claim is
 * reproduced in two other SQLite builds; a claim on an equivalent rewrite
 * is a false claim.
 *
 *     deno task build
 *     deno run -A bench/counterexample_heldout.ts [--bin dist/dbagenteval] [--base-bin FILE]
 *         [--only music|school|shop|shop_big] [--no-random] [--out FILE.json] [--verbose]
 *
 * Without `--bin` (or DBAGENTEVAL_BIN) it runs `deno run cli.ts`.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { reproduce, tableSql, validate } from "./counterexample_check.ts";
import { type CliClaim, cliCommand, cliSearch } from "./_counterexample_cli.ts";
import { type HeldoutDb, heldoutDb } from "./_heldout_dbs.ts";
import { type HeldoutInstance, heldoutInstances } from "./_heldout_pairs.ts";
import { randomSearch } from "./_random_searcher.ts";

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");
const args = process.argv.slice(2);
const option = (name: string): string | undefined =>
  args.includes(name) ? args[args.indexOf(name) + 1] : undefined;
const verbose = args.includes("--verbose");
const only = option("--only");
const bin = option("--bin") ?? process.env["DBAGENTEVAL_BIN"];
const baseBin = option("--base-bin");
const outFile = option("--out");

function search(binary: string | undefined, file: string, pair: Pair): CliClaim {
  return cliSearch(cliCommand(ROOT, binary), file, pair);
}

interface Pair {
  readonly reference: string;
  readonly candidate: string;
  readonly ordered: boolean;
}

function percentile(values: number[], p: number): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const dataDir = path.join(ROOT, "bench/data/heldout");
fs.mkdirSync(dataDir, { recursive: true });
const dbs: HeldoutDb[] = ["music", "school", "shop", "shop_big"];
const files = Object.fromEntries(dbs.map((d) => [d, heldoutDb(dataDir, d)])) as Record<
  HeldoutDb,
  string
>;
const schemas = Object.fromEntries(dbs.map((d) => [d, tableSql(files[d])])) as Record<
  HeldoutDb,
  Map<string, string>
>;

const all = heldoutInstances().filter((i) => only === undefined || i.db === only);
const kept: HeldoutInstance[] = [];
for (const i of all) {
  const why = validate(i, files[i.db], schemas[i.db]);
  if (why === null) kept.push(i);
  else if (verbose) console.error(`dropped (${why}): ${i.db} ${i.family}: ${i.nearMiss}`);
}
console.log(
  `instances: ${all.length} written, ${kept.length} valid (${kept.length} near misses, ${kept.length} equivalents)`,
);
const load0 = os.loadavg()[0]!;

const searchers = [
  ...(baseBin !== undefined ? [{ name: "before", binary: baseBin }] : []),
  { name: bin === undefined ? "after (deno run)" : "after", binary: bin },
];
const anchors = new Map<string, number>();
for (const s of searchers) {
  const times: number[] = [];
  for (let k = 0; k < 5; k++) {
    const [cmd, ...pre] = cliCommand(ROOT, s.binary);
    const t0 = performance.now();
    spawnSync(cmd!, [...pre, "--version"]);
    times.push((performance.now() - t0) / 1000);
  }
  anchors.set(s.name, percentile(times, 50));
}

interface Row {
  readonly searcher: string;
  readonly instance: HeldoutInstance;
  readonly kind: "near miss" | "equivalent";
  readonly claim: CliClaim;
  readonly problem: string | null;
}
const rows: Row[] = [];
let n = 0;
for (const i of kept) {
  for (const kind of ["near miss", "equivalent"] as const) {
    const pair = {
      reference: i.reference,
      candidate: kind === "near miss" ? i.nearMiss : i.equivalent,
      ordered: i.ordered ?? false,
    };
    // Alternate which binary goes first, so neither always runs warm.
    const order = n++ % 2 === 0 ? searchers : [...searchers].reverse();
    for (const s of order) {
      const claim = search(s.binary, files[i.db], pair);
      const problem = claim.error ??
        (claim.found ? reproduce(claim.databaseSql!, pair, schemas[i.db]) : null);
      rows.push({ searcher: s.name, instance: i, kind, claim, problem });
      if (verbose && ((kind === "near miss") !== claim.found || problem !== null)) {
        console.error(
          `${s.name}: ${kind} ${claim.found ? "claimed" : "missed"} ${
            problem ?? ""
          } [${i.db} ${i.family}] ${pair.candidate}`,
        );
      }
    }
    if (!args.includes("--no-random")) {
      const r = randomSearch(files[i.db], pair.reference, pair.candidate, {
        ordered: pair.ordered,
      });
      rows.push({
        searcher: "random (in-process)",
        instance: i,
        kind,
        claim: { found: r.found, tried: r.tried, seconds: r.seconds, cpu: NaN, rssMb: NaN },
        problem: null,
      });
      if (verbose && (kind === "near miss") !== r.found) {
        console.error(`random: ${kind} ${r.found ? "claimed" : "missed"} [${i.db} ${i.family}]`);
      }
    }
  }
}

console.log(
  "\n| searcher | near misses caught | claims on equivalents | errors | claims not reproduced | median s | p95 s | CPU median s | CPU p95 s |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
const names = [...new Set(rows.map((r) => r.searcher))];
for (const s of names) {
  const r = rows.filter((x) => x.searcher === s);
  const near = r.filter((x) => x.kind === "near miss");
  const caught = near.filter((x) => x.claim.found && x.problem === null).length;
  const falseClaims = r.filter((x) => x.kind === "equivalent" && x.claim.found).length;
  const errors = r.filter((x) => x.claim.error !== undefined).length;
  const bad = r.filter((x) => x.claim.found && x.problem !== null).length;
  const times = r.map((x) => x.claim.seconds);
  const cpu = r.map((x) => x.claim.cpu);
  console.log(
    `| ${s} | ${caught}/${near.length} (${
      (100 * caught / near.length).toFixed(1)
    }%) | ${falseClaims} | ${errors} | ${bad} | ${percentile(times, 50).toFixed(3)} | ${
      percentile(times, 95).toFixed(3)
    } | ${percentile(cpu, 50).toFixed(2)} | ${percentile(cpu, 95).toFixed(2)} |`,
  );
}
console.log("\nnear misses caught, by class, database and batch:");
const classes = [...new Set(kept.map((i) => i.cls))];
console.log(
  `| searcher | ${classes.join(" | ")} | ${dbs.join(" | ")} | batch 1 | batch 2 | batch 3 |`,
);
console.log(
  `| --- | ${classes.map(() => "---").join(" | ")} | ${
    dbs.map(() => "---").join(" | ")
  } | --- | --- | --- |`,
);
for (const s of names) {
  const near = rows.filter((x) => x.searcher === s && x.kind === "near miss");
  const cell = (keep: (x: Row) => boolean): string => {
    const r = near.filter(keep);
    return `${r.filter((x) => x.claim.found && x.problem === null).length}/${r.length}`;
  };
  console.log(
    `| ${s} | ${classes.map((c) => cell((x) => x.instance.cls === c)).join(" | ")} | ${
      dbs.map((d) => cell((x) => x.instance.db === d)).join(" | ")
    } | ${cell((x) => x.instance.batch === undefined)} | ${cell((x) => x.instance.batch === 2)} | ${
      cell((x) => x.instance.batch === 3)
    } |`,
  );
}
for (const s of names) {
  const missed = rows.filter((x) => x.searcher === s && x.kind === "near miss" && !x.claim.found);
  if (missed.length > 0) {
    console.log(
      `\n${s} missed: ${missed.map((m) => `${m.instance.db}/${m.instance.family}`).join("; ")}`,
    );
  }
  const wrong = rows.filter((x) => x.searcher === s && x.kind === "equivalent" && x.claim.found);
  for (const w of wrong) console.log(`${s} claimed an equivalent: ${w.instance.equivalent}`);
  const errors = rows.filter((x) => x.searcher === s && x.claim.error !== undefined);
  for (const e of errors.slice(0, 3)) console.log(`${s} error: ${e.claim.error}`);
}
for (const [s, a] of anchors) {
  console.log(`anchor (${s} --version, process start): ${a.toFixed(3)} s`);
}
console.log(
  `load average: ${load0.toFixed(1)} at the start, ${
    os.loadavg()[0]!.toFixed(1)
  } at the end (2 cores)`,
);
if (outFile !== undefined) {
  fs.writeFileSync(
    outFile,
    JSON.stringify(
      rows.map((r) => ({
        searcher: r.searcher,
        db: r.instance.db,
        cls: r.instance.cls,
        family: r.instance.family,
        kind: r.kind,
        candidate: r.kind === "near miss" ? r.instance.nearMiss : r.instance.equivalent,
        found: r.claim.found,
        tried: r.claim.tried,
        strategy: r.claim.strategy,
        seconds: r.claim.seconds,
        cpu: r.claim.cpu,
        problem: r.problem,
      })),
      null,
      1,
    ),
  );
}
