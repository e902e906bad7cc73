/**
 * Temporary storage: the one owner of what a run writes outside its own
 * outputs, how much of it there may be, and its removal on every exit path.
 *
 * - Bytes: every engine's scratch files (SQLite's sorter spill and
 *   temporary tables, `lib/sqlite/temp_files.ts`) are counted against one
 *   cap for the process, the pool's workers included (they share the count
 *   through shared memory): a write past it fails, and the query with it
 *   ("database or disk is full"), not the machine's disk.
 * - Folders: {@link makeTempDir} makes `dbagenteval-<kind>-<pid>-<random>`
 *   in the system temp folder (`TMPDIR` moves it); each is removed when its
 *   user disposes of it, when the process exits, and on SIGINT, SIGTERM or
 *   SIGHUP (shutdown.ts). A process killed outright (`kill -9`, out of
 *   memory) leaves its folders; {@link sweepLeftovers} removes those of
 *   processes that no longer run, and every command that makes folders
 *   calls it first.
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { DEFAULT_LIMITS } from "./service.ts";
import { onShutdown } from "./shutdown.ts";

let usage: BigInt64Array = new BigInt64Array(new SharedArrayBuffer(8));
let capBytes = DEFAULT_LIMITS.tempBytes;

/**
 * Counts this thread's temporary bytes in a shared counter (a pool
 * worker's, given by its pool) against a cap.
 *
 * @param counter the shared BigInt64 counter
 * @param cap the most bytes at once
 */
export function shareTempUsage(counter: SharedArrayBuffer, cap: number): void {
  usage = new BigInt64Array(counter);
  capBytes = cap;
}

/**
 * Sets the cap of this thread's count (the main thread's; the pool gives
 * its workers theirs).
 *
 * @param cap the most bytes at once
 * @example
 * ```ts
 * import { setTempCap, tempBytesInUse } from "./temp_storage.ts";
 * setTempCap(2 ** 30);
 * tempBytesInUse(); // 0
 * ```
 */
export function setTempCap(cap: number): void {
  capBytes = cap;
}

/**
 * Takes `bytes` more of temporary storage (or gives some back, when
 * negative).
 *
 * @param bytes the change
 * @returns false, taking nothing, when the cap would be passed
 * @example
 * ```ts
 * import { reserveTempBytes } from "./temp_storage.ts";
 * reserveTempBytes(4096); // true
 * reserveTempBytes(-4096); // true
 * ```
 */
export function reserveTempBytes(bytes: number): boolean {
  const delta = BigInt(Math.trunc(bytes));
  if (delta <= 0n) {
    Atomics.add(usage, 0, delta);
    return true;
  }
  const after = Atomics.add(usage, 0, delta) + delta;
  if (after > BigInt(capBytes)) {
    Atomics.sub(usage, 0, delta);
    return false;
  }
  return true;
}

/**
 * Bytes of temporary storage in use now (in this thread's count).
 *
 * @returns the bytes
 */
export function tempBytesInUse(): number {
  return Number(Atomics.load(usage, 0));
}

/** The cap in megabytes, for messages. */
export function tempCapMb(): number {
  return Math.round(capBytes / 2 ** 20);
}

const PREFIX = "dbagenteval-";
const live = new Set<string>();
let hooked = false;

function removeLive(): void {
  for (const dir of [...live]) removeDir(dir);
}

function removeDir(dir: string): void {
  live.delete(dir);
  try {
    fs.rmSync(dir, { recursive: true, force: true });
  } catch {
    // Best effort: on every exit path nothing else can be done.
  }
}

/**
 * A temporary folder of this process: `dbagenteval-<kind>-<pid>-<random>`
 * in the system temp folder, removed by `dispose()`, at exit, on a signal,
 * and (if the process is killed outright) by the next
 * {@link sweepLeftovers}.
 *
 * @param kind what it holds (`agent-db`, `run`, `pglite`, ...): letters,
 * digits and `-`
 * @returns the folder's path and how to remove it
 * @example
 * ```ts
 * import * as fs from "node:fs";
 * import { makeTempDir } from "./temp_storage.ts";
 * const dir = makeTempDir("example");
 * fs.existsSync(dir.path); // true
 * dir.dispose();
 * fs.existsSync(dir.path); // false
 * ```
 */
export function makeTempDir(kind: string): { readonly path: string; dispose(): void } {
  if (!/^[a-z0-9-]+$/.test(kind)) throw new Error(`bad temporary folder kind "${kind}"`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${PREFIX}${kind}-${process.pid}-`));
  live.add(dir);
  if (!hooked) {
    hooked = true;
    process.on("exit", removeLive);
    onShutdown(removeLive);
  }
  return { path: dir, dispose: () => removeDir(dir) };
}

/**
 * Removes the temporary folders that processes which no longer run left
 * behind (killed outright, so their own removal never ran): those whose
 * process id, in the name, is no running process's. A folder whose id a
 * new process has taken meanwhile is left for a later sweep.
 *
 * @param dir the temp folder to look in (default the system's)
 * @returns the folders removed
 * @example
 * ```ts
 * import { sweepLeftovers } from "./temp_storage.ts";
 * sweepLeftovers().length >= 0; // true
 * ```
 */
export function sweepLeftovers(dir: string = os.tmpdir()): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = /^dbagenteval-[a-z0-9-]+?-(\d+)-[A-Za-z0-9]{6}$/.exec(name);
    if (m === null) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || alive(pid)) continue;
    const full = path.join(dir, name);
    try {
      const stat = fs.lstatSync(full);
      if (!stat.isDirectory()) continue;
      fs.rmSync(full, { recursive: true, force: true });
      removed.push(full);
    } catch {
      // Another process removed it first, or it is not ours to remove.
    }
  }
  return removed;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: alive, someone else's.
    return (e as { code?: string }).code === "EPERM";
  }
}
