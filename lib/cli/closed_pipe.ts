/**
 * `dbagenteval db diff A B | head -2`: when the reader closes the pipe, the
 * next write fails with EPIPE. Unix tools die of SIGPIPE there, silently; the
 * shell reports 128 + 13 = 141. We end the same way: no stack trace, and never
 * exit code 1, which `--select` and `run` use for "no match" and "failed".
 *
 * @module
 */
import process from "node:process";

/** The exit code of a process that SIGPIPE ended, as shells report it. */
export const CLOSED_PIPE_EXIT = 141;

/**
 * Whether an error is a write to a pipe whose reader has gone.
 *
 * @param error anything thrown or emitted
 * @returns true for EPIPE
 */
export function isClosedPipe(error: unknown): boolean {
  return typeof error === "object" && error !== null &&
    (error as { code?: unknown }).code === "EPIPE";
}

/**
 * Ends the process quietly with {@link CLOSED_PIPE_EXIT} when stdout or
 * stderr reports a closed pipe (Deno and Bun emit it on the stream, after
 * the write call has returned).
 */
export function endQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: unknown) => {
      if (isClosedPipe(error)) process.exit(CLOSED_PIPE_EXIT);
      throw error;
    });
  }
}
