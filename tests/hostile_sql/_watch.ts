/**
 * What the hostile-SQL matrices share: a CLI run watched for its time, its
 * process tree's memory and a SIGTERM in its middle, and the reading of
 * its run file.
 *
 * @module
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import process from "node:process";
import { cliCommand } from "../cli.ts";

/**
 * What the acceptance's bound on a whole run (--timeout + 10 s) is
 * multiplied by: 3 on a machine running more than twice as many threads as
 * it has cores (a shared developer box), where wall time says little about
 * the run; three times still catches a hang, the failure it is for.
 */
export const OVERLOAD = os.loadavg()[0]! > 2 * os.cpus().length ? 3 : 1;

/** What a watched run did. */
export interface Finished {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  /** The most resident memory of the process and its children at once. */
  readonly peakBytes: number;
  /** How long before the end SIGTERM was sent, if it was. */
  readonly signalledMsAgo: number | undefined;
}

/** The process and its descendants, from /proc (Linux). */
export function tree(pid: number): number[] {
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

/** A process's resident memory, from /proc. */
export function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m === null ? 0 : Number(m[1]) * 1024;
  } catch {
    return 0;
  }
}

/**
 * Runs the CLI in `cwd` with a TMPDIR of its own, watching its memory;
 * kills it past the run limit (a hang is the failure this catches).
 */
export function runWatched(
  args: readonly string[],
  cwd: string,
  tmp: string,
  options: {
    /** SIGTERM this long after `file` appears (the run has started its run file). */
    readonly signalAfter?: { readonly file: string; readonly ms: number };
    /** SIGKILL it past this (default 36 s). */
    readonly killAfterMs?: number;
  } = {},
): Promise<Finished> {
  const [cmd, ...pre] = cliCommand();
  const started = performance.now();
  const child = spawn(cmd!, [...pre, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: "1", GITHUB_ACTIONS: "", TMPDIR: tmp },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => stdout += d);
  child.stderr.on("data", (d) => stderr += d);
  let peak = 0;
  const watch = setInterval(() => {
    if (child.pid === undefined) return;
    peak = Math.max(peak, tree(child.pid).reduce((n, p) => n + rssBytes(p), 0));
  }, 50);
  const kill = setTimeout(() => child.kill("SIGKILL"), options.killAfterMs ?? 36_000);
  let signalled = 0;
  const after = options.signalAfter;
  const waitForFile = after === undefined ? undefined : setInterval(() => {
    if (!fs.existsSync(after.file)) return;
    clearInterval(waitForFile);
    setTimeout(() => {
      signalled = performance.now();
      // Not child.kill(): Deno's child_process then reports the signal it
      // sent, whatever the process did with it.
      process.kill(child.pid!, "SIGTERM");
    }, after.ms);
  }, 20);
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      clearInterval(watch);
      clearInterval(waitForFile);
      clearTimeout(kill);
      resolve({
        signalledMsAgo: signalled === 0 ? undefined : performance.now() - signalled,
        code,
        signal,
        stdout,
        stderr,
        ms: performance.now() - started,
        peakBytes: peak,
      });
    });
  });
}

/** A case of a run file, as the matrix reads it. */
export interface RunCase {
  readonly id: string;
  readonly verdict: string;
  readonly error: string | null;
  readonly checks: readonly { readonly status: string; readonly detail: string }[];
  readonly stages?: readonly { readonly kind: string; readonly error?: string }[];
}

/** The cases of a run file, by id. */
export function readRun(file: string): Map<string, RunCase> {
  const run = JSON.parse(fs.readFileSync(file, "utf8")) as { cases: RunCase[] };
  return new Map(run.cases.map((c) => [c.id, c]));
}

/** Everything a case's run-file entry says, to match a message against. */
export function said(c: RunCase): string {
  return [
    c.error ?? "",
    ...c.checks.map((k) => k.detail),
    ...(c.stages ?? []).map((s) => s.error ?? ""),
  ].join("\n");
}

/** A cases file of these cases. */
export function yamlCases(rows: readonly { id: string; question: string; sql?: string }[]): string {
  return rows.map((r) =>
    `- id: ${r.id}\n  question: ${JSON.stringify(r.question)}\n` +
    (r.sql === undefined ? "" : `  reference_sql: ${JSON.stringify(r.sql)}\n`)
  ).join("");
}
