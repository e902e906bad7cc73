/**
 * A run writing its run file as it goes (lib/eval/run_stream.ts), as an
 * observer of the case loop: where the file goes, the cases a `--resume`
 * already has, what a signal that stops the run says, and reading the run
 * back for the reports that need every case.
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
import type { RunEnd, RunObserver } from "../eval/run_loop.ts";

/** What a stopped run says about itself. */
const SIGNAL_NAMES = { SIGINT: "Ctrl-C (SIGINT)", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP" } as const;

/** Where a run's file goes and what it starts from. */
export interface RunFileSetting {
  /** The ids of the run's cases, in order. */
  readonly ids: readonly string[];
  /** The run file's fields before its cases. */
  readonly header: RunFileHeader;
  /**
   * Where the run file goes (--json, or the --resume file), or undefined
   * when only a report needs it (then a temporary file, if `keep`).
   */
  readonly file: string | undefined;
  /** Whether the run is read back when it ends (for the reports that need every case). */
  readonly keep: boolean;
  /** The run file --resume finishes. */
  readonly resumed?: RunFile | undefined;
  /**
   * The command that finishes the run from its run file, printed when a
   * signal stops it (`dbagenteval run ... --resume FILE`).
   */
  readonly resumeWith?: string | undefined;
  /** The leaderboard scores (--score), written after the totals; asked for when the run ends. */
  readonly scores?: (() => RunFile["scores"] | undefined) | undefined;
}

/**
 * The run file of a run in progress, as an observer of its loop: each case
 * is written as it finishes, the totals when the run ends, and only the
 * tally stays in memory (positions and verdict bytes). A run stopped by a
 * signal leaves a file that --resume finishes.
 */
export class RunFileObserver implements RunObserver {
  readonly tally: RunTally;
  readonly #writer: RunFileWriter | undefined;
  readonly #file: string | undefined;
  /**
   * Positions, among the selected cases, of the cases still to run (a
   * --resume leaves out those it has): the loop's case at index i is the
   * run's case at positions[i].
   */
  readonly positions: Int32Array;
  readonly #setting: RunFileSetting;
  readonly #offShutdown: () => void;
  readonly #temp: { readonly path: string; dispose(): void } | undefined;
  #done = 0;
  /** The whole run, read back when it ended (with `keep`). */
  run: RunFile | undefined;

  /** @param setting the run's cases, header, file and what it resumes */
  constructor(setting: RunFileSetting) {
    const { ids, header, resumed, resumeWith } = setting;
    let file = setting.file;
    this.#setting = setting;
    this.tally = new RunTally(ids);
    const kept = file !== undefined;
    if (file === undefined && setting.keep) {
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
  caseDone(result: CaseResult, index: number): void {
    this.#done++;
    const at = this.positions[index]!;
    this.#writer?.add(at, runFileCase(result));
    // The id the run already holds, not the case's copy of it.
    this.tally.add(at, {
      id: this.#setting.ids[at]!,
      verdict: result.verdict,
      failedStage: result.failedStage,
      error: result.error,
      checks: result.checks,
    });
  }

  /**
   * Writes the totals and closes the file; reads the run back into `run`
   * when the setting keeps it.
   *
   * @param end the loop's figures
   */
  async finish(end: RunEnd): Promise<void> {
    const resumed = this.#setting.resumed;
    const scores = this.#setting.scores?.();
    this.#writer?.finish({
      totals: this.tally.totals,
      failures_by_stage: this.tally.failuresByStage,
      judge_calls: end.judgeCalls + (resumed?.judge_calls ?? 0),
      duration_ms: Math.round((end.durationMs + (resumed?.duration_ms ?? 0)) * 10) / 10,
      ...(scores === undefined ? {} : { scores }),
    });
    if (this.#setting.keep && this.#file !== undefined) this.run = await readRunFile(this.#file);
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
