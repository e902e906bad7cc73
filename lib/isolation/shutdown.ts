/**
 * The process's answer to SIGINT (Ctrl-C), SIGTERM and SIGHUP: the one
 * place that handles them. Each part of a command that must act before the
 * process ends (close the run file and say how to resume it, remove
 * temporary folders) registers a hook with {@link onShutdown}; on a signal
 * every hook runs, newest first, and the process exits at once with 128 +
 * the signal's number (130, 143, 129), as a shell reports a process the
 * signal ended. A second signal while the hooks run ends the process
 * without waiting for them.
 *
 * The hooks are synchronous: the main thread is never blocked by SQL (that
 * runs in the pool's workers), so the signal is seen at once, and the exit
 * does not wait for a worker.
 *
 * @module
 */
import process from "node:process";

/** The signals handled, with the exit code each gives. */
const SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** A signal {@link onShutdown} hooks are told about. */
export type ShutdownSignal = keyof typeof SIGNALS;

const hooks: ((signal: ShutdownSignal) => void)[] = [];
let listening = false;
let stopping = false;

function onSignal(signal: ShutdownSignal): void {
  const code = SIGNALS[signal];
  if (stopping) process.exit(code);
  stopping = true;
  for (const hook of [...hooks].reverse()) {
    try {
      hook(signal);
    } catch (e) {
      process.stderr.write(`while stopping: ${e instanceof Error ? e.message : String(e)}\n`);
    }
  }
  process.exit(code);
}

/**
 * Runs `hook` when the process is told to stop by a signal, before it
 * exits with 128 + the signal's number.
 *
 * @param hook what to do (synchronously); it is told the signal
 * @returns a function that removes the hook
 * @example
 * ```ts
 * import { onShutdown } from "./shutdown.ts";
 * const remove = onShutdown((signal) => console.error(`stopped by ${signal}`));
 * remove();
 * ```
 */
export function onShutdown(hook: (signal: ShutdownSignal) => void): () => void {
  hooks.push(hook);
  if (!listening) {
    listening = true;
    for (const s of Object.keys(SIGNALS) as ShutdownSignal[]) {
      // Windows has no SIGHUP to listen for in every runtime.
      try {
        process.on(s, onSignal);
      } catch {
        // This runtime cannot listen for it here.
      }
    }
  }
  return () => {
    const at = hooks.indexOf(hook);
    if (at >= 0) hooks.splice(at, 1);
  };
}

/**
 * The exit code a signal gives (128 + its number).
 *
 * @param signal the signal
 * @returns 130, 143 or 129
 * @example
 * ```ts
 * import { signalExitCode } from "./shutdown.ts";
 * signalExitCode("SIGINT"); // 130
 * ```
 */
export function signalExitCode(signal: ShutdownSignal): number {
  return SIGNALS[signal];
}
