/**
 * `run` writing its run file as it goes (lib/eval/run_stream.ts): where the
 * file goes, the cases a `--resume` already has, and reading the run back
 * for the reports that need every case.
 *
 * @module
 */
import * as path from "node:path";
import process from "node:process";
import { onShutdown } from "../isolation/shutdown.ts";
import { makeTempDir } from "../isolation/temp_storage.ts";
import type { CaseResult } from "../eval/suite.ts";
import { readRunFile, type RunFile, runFileCase } from "../eval/run_file.ts";
import { type RunFileHeader, RunFileWriter } from "../eval/run_stream.ts";
import { RunTally } from "../eval/run_tally.ts";
import type { CheckResult } from "../eval/check.ts";

/** What a stopped run says about itself. */
const SIGNAL_NAMES = { SIGINT: "Ctrl-C (SIGINT)", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP" } as const;

/** A run in progress: feed it each case; finish it for the totals and the run file. */
export class StreamedRun {
  readonly tally: RunTally;
  readonly #writer: RunFileWriter | undefined;
  readonly #file: string | undefined;
  /**
   * Positions, among the selected cases, of the cases still to run (a
   * --resume leaves out those it has).
   */
  readonly positions: Int32Array;
  readonly #resumed: RunFile | undefined;
  readonly #ids: readonly string[];
  readonly #offShutdown: () => void;
  readonly #temp: { readonly path: string; dispose(): void } | undefined;
  #done = 0;

  /**
   * @param ids the ids of the run's cases, in order
   * @param header the run file's fields before its cases
   * @param file where the run file goes (--json, or the --resume file), or
   * undefined when only a report needs it (then a temporary file, if `keep`)
   * @param keep whether a run file is needed at all
   * @param resumed the run file --resume finishes
   * @param resumeWith the command that finishes the run from its run file,
   * printed when a signal stops it (`dbagenteval run ... --resume FILE`)
   */
  constructor(
    ids: readonly string[],
    header: RunFileHeader,
    file: string | undefined,
    keep: boolean,
    resumed: RunFile | undefined,
    resumeWith?: string,
  ) {
    this.#resumed = resumed;
    this.#ids = ids;
    this.tally = new RunTally(ids);
    const kept = file !== undefined;
    if (file === undefined && keep) {
      this.#temp = makeTempDir("run");
      file = path.join(this.#temp.path, "run.json");
    }
    this.#file = file;
    this.#writer = file === undefined ? undefined : new RunFileWriter(file, header);
    // Ctrl-C (or SIGTERM, SIGHUP) ends the file where it is: the case in
    // flight, whose agent is being stopped, must not be written as an ERROR
    // that --resume would keep. Then the process ends (lib/isolation/shutdown.ts),
    // saying how far the run got and how to finish it.
    this.#offShutdown = onShutdown((signal) => {
      this.#stop();
      const done = this.#done + (resumed?.cases.length ?? 0);
      const where = kept && resumeWith !== undefined
        ? `; ${file} holds them: finish the run with\n  ${resumeWith}`
        : "; no run file was kept (--json FILE keeps one that --resume finishes)";
      process.stderr.write(
        `\ninterrupted by ${SIGNAL_NAMES[signal]} after ${done} of ${ids.length} case(s)${where}\n`,
      );
    });
    const done = new Map((resumed?.cases ?? []).map((c) => [c.id, c]));
    const todo: number[] = [];
    ids.forEach((id, i) => {
      const kept = done.get(id);
      if (kept === undefined) {
        if (done.size > 0) todo.push(i);
        return;
      }
      this.#writer?.add(i, kept);
      this.tally.add(i, {
        id: kept.id,
        verdict: kept.verdict,
        failedStage: kept.failed_stage ?? undefined,
        error: kept.error ?? undefined,
        checks: kept.checks as readonly Pick<CheckResult, "stage" | "name" | "status" | "detail">[],
      });
    });
    this.positions = done.size > 0
      ? Int32Array.from(todo)
      : Int32Array.from({ length: ids.length }, (_, i) => i);
  }

  /**
   * Records the result of the case at `positions[index]`.
   *
   * @param result the case's result
   * @param index its position in `positions`
   */
  add(result: CaseResult, index: number): void {
    this.#done++;
    const at = this.positions[index]!;
    this.#writer?.add(at, runFileCase(result));
    // The id the run already holds, not the case's copy of it.
    this.tally.add(at, {
      id: this.#ids[at]!,
      verdict: result.verdict,
      failedStage: result.failedStage,
      error: result.error,
      checks: result.checks,
    });
  }

  /**
   * Writes the totals and closes the file; reads the run back when asked.
   *
   * @param judgeCalls judge calls of this run
   * @param durationMs wall time of this run
   * @param readBack whether the caller needs the whole run (reports)
   * @param scores the leaderboard scores (--score), written after the totals
   * @returns the run file, when read back
   */
  async finish(
    judgeCalls: number,
    durationMs: number,
    readBack: boolean,
    scores?: RunFile["scores"],
  ): Promise<RunFile | undefined> {
    this.#writer?.finish({
      totals: this.tally.totals,
      failures_by_stage: this.tally.failuresByStage,
      judge_calls: judgeCalls + (this.#resumed?.judge_calls ?? 0),
      duration_ms: Math.round((durationMs + (this.#resumed?.duration_ms ?? 0)) * 10) / 10,
      ...(scores === undefined ? {} : { scores }),
    });
    return readBack && this.#file !== undefined ? await readRunFile(this.#file) : undefined;
  }

  #stop(): void {
    this.#offShutdown();
    this.#writer?.close();
  }

  /** Closes the file (a partial run if not finished) and removes a temporary one. */
  close(): void {
    this.#stop();
    this.#temp?.dispose();
  }
}
