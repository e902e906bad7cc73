/**
 * Runs the CLI as a user would, for end-to-end tests. By default it runs
 * `cli.ts` under the current runtime (Deno or Bun); with DBAGENTEVAL_BIN set
 * to the compiled binary's path (as .ci/run does) it runs that instead, so
 * the same tests check the shipped executable.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import process from "node:process";

/** The repository root. */
export const ROOT: string = path.resolve(import.meta.dirname ?? ".", "..");

/** What a CLI run printed and returned. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The command that starts the CLI: the binary, or the runtime on cli.ts. */
export function cliCommand(): string[] {
  const bin = process.env["DBAGENTEVAL_BIN"];
  if (bin) return [path.resolve(bin)];
  const runtime = process.execPath;
  const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
  const cli = path.join(ROOT, "cli.ts");
  return isBun ? [runtime, cli] : [runtime, "run", "--allow-all", "--quiet", cli];
}

/** Deno's executable: this runtime, or under Bun the `deno` on the PATH (null if there is none). */
export function denoPath(): string | null {
  if (typeof (globalThis as { Bun?: unknown }).Bun === "undefined") return process.execPath;
  const r = spawnSync("deno", ["--version"], { encoding: "utf8" });
  return r.status === 0 ? "deno" : null;
}

/**
 * Runs `dbagenteval ARGS`.
 *
 * @param args the arguments
 * @param options the working folder and extra environment
 * @returns the exit code and output
 */
export function runCli(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string } = {},
): CliResult {
  const [cmd, ...pre] = cliCommand();
  const r = spawnSync(cmd!, [...pre, ...args], {
    cwd: options.cwd ?? ROOT,
    // GITHUB_ACTIONS off: run output must not change when the tests themselves run on GitHub.
    env: { ...process.env, NO_COLOR: "1", GITHUB_ACTIONS: "", ...options.env },
    encoding: "utf8",
    input: options.input ?? "",
    timeout: 120_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}
