/**
 * Host processes: this CLI started again as a child of itself, to run what
 * may never yield apart from the run (an `--agent` module, PGlite's engine).
 * A child can always be killed, whatever it runs; a Worker cannot: neither
 * Deno nor Bun stops a thread that is inside a WebAssembly loop. The parent
 * side starts it with {@link selfCommand}; the child side ends itself with
 * {@link watchParent} when its parent is gone.
 *
 * @module
 */
import * as path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

/**
 * The command that starts this CLI again: the binary, or the runtime on
 * cli.ts.
 *
 * @returns the program and its first arguments
 * @throws TypeError when this module is not a local file (imported from a URL)
 * @example
 * ```ts
 * import { selfCommand } from "./host_process.ts";
 * const [program] = selfCommand(); // deno, bun, or the dbagenteval binary
 * ```
 */
export function selfCommand(): string[] {
  const bun = (globalThis as { Bun?: { main?: string } }).Bun;
  const here = import.meta.url;
  // In a bun-compiled binary the sources live in a virtual folder.
  if (bun !== undefined && (here.includes("$bunfs") || here.includes("~BUN"))) {
    return [process.execPath];
  }
  const cli = path.resolve(path.dirname(fileURLToPath(here)), "..", "cli.ts");
  return bun !== undefined
    ? [process.execPath, cli]
    : [process.execPath, "run", "--allow-all", "--quiet", cli];
}

// A thread of its own ends the host, and the process group it leads, when
// the run is gone (killed, so it could not kill its hosts): the host's main
// thread may be in a loop that never yields, where nothing on it runs again.
const WATCH = `
import process from "node:process";
const parent = process.ppid;
setInterval(() => {
  if (process.ppid === parent) return;
  try {
    process.kill(-process.pid, "SIGKILL");
  } catch {
    process.kill(process.pid, "SIGKILL");
  }
}, 500);
`;

/**
 * In a host process: ends it (and its process group) within half a second
 * of its parent ending, even while its main thread never yields.
 *
 * @example
 * ```ts ignore
 * import { watchParent } from "./host_process.ts";
 * watchParent(); // first thing in a host's entry point
 * ```
 */
export function watchParent(): void {
  try {
    const url = URL.createObjectURL(new Blob([WATCH], { type: "text/javascript" }));
    const worker = new Worker(url, { type: "module" });
    (worker as { unref?: () => void }).unref?.();
  } catch {
    // No workers here: the run still kills its hosts when it ends normally.
  }
}
