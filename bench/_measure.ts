/**
 * Shared by the benchmark scripts: runs a command, returning its wall time
 * and peak RSS (GNU time's %M), and the median of a list.
 *
 * @module
 */
import { spawnSync } from "node:child_process";

/** One measured run. */
export interface Measured {
  readonly seconds: number;
  readonly peakRssMb: number;
  /** User plus system CPU seconds: less moved by other processes than wall time on a busy machine. */
  readonly cpuSeconds: number;
  readonly stdout: string;
  /** Killed at `timeoutMs`. */
  readonly timedOut?: boolean;
}

/**
 * Runs `argv` under /usr/bin/time and measures it.
 *
 * @param argv the command and its arguments
 * @param options the working folder; `discardStdout` sends stdout to /dev/null
 * @returns wall time, peak RSS and stdout
 */
export function measure(
  argv: readonly string[],
  options: {
    cwd?: string;
    discardStdout?: boolean;
    /** Exit codes that are not a failure (default only 0). */
    codes?: readonly number[];
    /**
     * Kill the command (with SIGKILL, through coreutils' `timeout`, so the
     * command itself dies, not only /usr/bin/time) after this many
     * milliseconds; its figures are then `timedOut`.
     */
    timeoutMs?: number;
  } = {},
): Measured {
  const start = performance.now();
  const killer = options.timeoutMs === undefined
    ? []
    : ["timeout", "-s", "KILL", `${options.timeoutMs / 1000}`];
  const r = spawnSync("/usr/bin/time", ["-f", "__PEAK_KB__ %M __CPU__ %U %S", ...killer, ...argv], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
    stdio: ["ignore", options.discardStdout ? "ignore" : "pipe", "pipe"],
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  const seconds = (performance.now() - start) / 1000;
  if (options.timeoutMs !== undefined && r.status === 137) {
    return { seconds, peakRssMb: NaN, cpuSeconds: NaN, stdout: r.stdout ?? "", timedOut: true };
  }
  if (r.error) throw r.error;
  if (!(options.codes ?? [0]).includes(r.status ?? -1)) {
    throw new Error(`${argv.join(" ")} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  }
  const kb = Number(/__PEAK_KB__ (\d+)/.exec(r.stderr)?.[1] ?? NaN);
  const cpu = /__CPU__ ([\d.]+) ([\d.]+)/.exec(r.stderr);
  const cpuSeconds = cpu === null ? NaN : Number(cpu[1]) + Number(cpu[2]);
  return { seconds, peakRssMb: kb / 1024, cpuSeconds, stdout: r.stdout ?? "" };
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
