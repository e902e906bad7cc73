/**
 * For tests: the processes whose command line contains a marker, read from
 * /proc (Linux), so a test can show that no agent process was left behind.
 *
 * @module
 */
import * as fs from "node:fs";
import process from "node:process";

/**
 * The live processes whose command line contains `marker`.
 *
 * @param marker e.g. a temporary folder the agent's script lives in
 * @returns their pids and command lines
 */
export function processesMatching(marker: string): { pid: number; args: string }[] {
  const found: { pid: number; args: string }[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string;
    try {
      args = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      // A zombie (exited, not yet reaped) has an empty command line and runs nothing.
    } catch {
      continue; // gone meanwhile
    }
    if (args.includes(marker) && Number(entry) !== process.pid) {
      found.push({ pid: Number(entry), args: args.trim() });
    }
  }
  return found;
}

/**
 * Waits until no process matches (processes take a moment to be reaped).
 *
 * @param marker the marker
 * @param ms how long to wait at most
 * @returns what still matches then
 */
export async function leftBehind(marker: string, ms = 2000): Promise<string[]> {
  const until = Date.now() + ms;
  for (;;) {
    const left = processesMatching(marker);
    if (left.length === 0 || Date.now() > until) return left.map((p) => `${p.pid} ${p.args}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
