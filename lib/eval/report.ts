/**
 * What writes a report format: a finished run (the run file's data, so
 * shards and merged runs get the same reports as one run) and where it goes.
 * A format's file exports its {@link ReportWriter}; lib/eval/reports.ts
 * lists the formats (the option and the writer of each).
 *
 * @module
 */
import type { RunFile } from "./run_file.ts";

/** Where a report goes, as the command that writes it arranges. */
export interface ReportTarget {
  /** The option's value: the file (`-` for stdout), or true for a switch. */
  readonly value: string | boolean;
  /** Writes the report's text to the option's file (`-`: stdout), ending it with a newline. */
  writeFile(text: string): void;
  /** Lines for a person: stdout, or stderr when a report takes stdout. */
  readonly human: { write(text: string): unknown };
}

/**
 * Writes one report format of a finished run.
 *
 * @example
 * ```ts
 * import type { ReportWriter } from "./report.ts";
 * const writeCount: ReportWriter = (run, to) => to.writeFile(String(run.totals.total));
 * ```
 */
export type ReportWriter = (run: RunFile, to: ReportTarget) => void;
