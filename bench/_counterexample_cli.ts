/**
 * One `dbagenteval counterexample --json -` process, timed: what the
 * counterexample benchmarks share. Wall time includes the process start;
 * CPU time (user + system) and peak memory come from GNU time.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import process from "node:process";

/** What one search process said. */
export interface CliClaim {
  readonly found: boolean;
  readonly tried: number;
  readonly strategy?: string;
  readonly databaseSql?: string;
  /** Wall seconds, process start included. */
  readonly seconds: number;
  /** The search's own seconds, as its JSON says. */
  readonly searchSeconds?: number;
  /** CPU seconds of the process (user + system). */
  readonly cpu: number;
  /** Peak resident memory, MB. */
  readonly rssMb: number;
  /** The first line of stderr, when it exited 2. */
  readonly error?: string;
}

/**
 * The command that runs the CLI: the binary given, or `deno run cli.ts`.
 *
 * @param root the repository root
 * @param binary a compiled dbagenteval, if any
 * @returns the argv prefix
 */
export function cliCommand(root: string, binary?: string): string[] {
  if (binary !== undefined) return [path.resolve(binary)];
  return [process.execPath, "run", "--allow-all", "--quiet", path.join(root, "cli.ts")];
}

/**
 * Runs one search in its own process.
 *
 * @param command the argv prefix (cliCommand)
 * @param db the `--db` value
 * @param pair the queries, row order, and the budget when not the default
 * @returns what it found, and what it cost
 */
export function cliSearch(
  command: readonly string[],
  db: string,
  pair: {
    readonly reference: string;
    readonly candidate: string;
    readonly ordered?: boolean | undefined;
    readonly budget?: number | undefined;
  },
): CliClaim {
  const t0 = performance.now();
  const r = spawnSync("/usr/bin/time", [
    "-f",
    "__CPU__ %U %S %M",
    ...command,
    "counterexample",
    "--db",
    db,
    "--reference",
    pair.reference,
    "--candidate",
    pair.candidate,
    ...(pair.ordered === true ? ["--ordered"] : []),
    ...(pair.budget !== undefined ? ["--budget", String(pair.budget)] : []),
    "--json",
    "-",
  ], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  const seconds = (performance.now() - t0) / 1000;
  const times = /__CPU__ ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  const cpu = times === null ? NaN : Number(times[1]) + Number(times[2]);
  const rssMb = times === null ? NaN : Number(times[3]) / 1024;
  if (r.status !== 0 && r.status !== 1) {
    const error = r.stderr.replace(/__CPU__.*/, "").trim().split("\n")[0] ?? "";
    return { found: false, tried: 0, seconds, cpu, rssMb, error };
  }
  const json = JSON.parse(r.stdout) as {
    found: boolean;
    database_sql?: string;
    tried: number;
    strategy?: string;
    seconds: number;
  };
  return {
    found: json.found,
    tried: json.tried,
    ...(json.strategy !== undefined ? { strategy: json.strategy } : {}),
    ...(json.database_sql !== undefined ? { databaseSql: json.database_sql } : {}),
    seconds,
    searchSeconds: json.seconds,
    cpu,
    rssMb,
  };
}
