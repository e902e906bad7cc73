/**
 * A one-line progress display on stderr for long runs, shown only when
 * stderr is a terminal (never in CI logs or when piped), redrawn at most
 * ten times a second and erased when the run ends.
 *
 * @module
 */
import process from "node:process";
import type { RunObserver } from "../eval/run_loop.ts";

/** Reports progress; `done()` erases the line. */
export interface Progress {
  update(done: number, total: number): void;
  done(): void;
}

/**
 * Makes a progress line for a run.
 *
 * @param stream where to draw (default: stderr)
 * @returns the progress display, a no-op when the stream is not a terminal
 */
export function progressLine(
  stream: { isTTY?: boolean; write(text: string): unknown } = process.stderr,
): Progress {
  if (stream.isTTY !== true) return { update() {}, done() {} };
  let last = 0;
  let drawn = false;
  return {
    update(done, total) {
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      drawn = true;
      stream.write(`\r\x1b[K${done}/${total} case(s) done`);
    },
    done() {
      if (drawn) stream.write("\r\x1b[K");
    },
  };
}

/**
 * The progress display as an observer of a run's loop.
 *
 * @param progress the display, e.g. progressLine()
 * @returns the observer: each case done redraws it; the end erases it
 */
export function progressObserver(progress: Progress): RunObserver {
  let total = 0;
  let done = 0;
  return {
    start: (start) => void (total = start.total),
    caseDone: () => progress.update(++done, total),
    finish: () => progress.done(),
  };
}
