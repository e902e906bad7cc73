/**
 * Writing a run file as the run goes, and reading one that was cut short.
 *
 * The file is the run file of run-format.md, laid out so that every case is
 * on a line of its own and reaches the disk as soon as it and every case
 * before it have finished:
 *
 *   {"format":"dbagenteval-run",...,"cases":[
 *   {"id":"a",...}
 *   ,{"id":"b",...}
 *   ],"totals":{...},"failures_by_stage":{...},"judge_calls":0,"duration_ms":12.5}
 *
 * A finished file is one JSON document, as before. A run that was killed or
 * interrupted leaves the first line and the cases written so far (the last
 * line perhaps torn); {@link readPartialRun} reads that back as a run of
 * those cases, and `run --resume` finishes it.
 *
 * @module
 */
import * as fs from "node:fs";
import { UsageError } from "../errors.ts";
import type { RunFile, RunFileCase } from "./run_file.ts";
import { runFileJson } from "./run_file_json.ts";

/** The fields of a run file that come before its cases. */
export type RunFileHeader = Omit<
  RunFile,
  "cases" | "totals" | "failures_by_stage" | "judge_calls" | "duration_ms"
>;

/** The fields of a run file that come after its cases. */
export type RunFileEnd = Pick<
  RunFile,
  "totals" | "failures_by_stage" | "judge_calls" | "duration_ms" | "scores"
>;

const CASES_OPEN = ',"cases":[';

/**
 * Writes a run file case by case, in the order of the cases: a case that
 * finishes early waits (as its JSON text) until every case before it is
 * written. Each line is written with one system call, so a run stopped at
 * any moment leaves a file {@link readPartialRun} reads.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs";
 * import * as os from "node:os";
 * import * as path from "node:path";
 * import { RunFileWriter } from "./run_stream.ts";
 * import { parseRunFile } from "./run_file.ts";
 * const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "run-")), "run.json");
 * const header = { format: "dbagenteval-run", version: 1, tool_version: "0", created_at: "2025-01-01T00:00:00Z" } as const;
 * const writer = new RunFileWriter(file, header);
 * const c = { id: "a", question: "Q", tags: [], verdict: "PASS", failed_stage: null, error: null, duration_ms: 1, answer: "A", sql: null, checks: [] } as const;
 * writer.add(0, c);
 * writer.finish({ totals: { total: 1, passed: 1, failed: 0, errors: 0, skipped: 0 }, failures_by_stage: {}, judge_calls: 0, duration_ms: 1 });
 * parseRunFile(fs.readFileSync(file, "utf8"), "run.json").cases.length; // 1
 * ```
 */
export class RunFileWriter {
  readonly #fd: number;
  readonly #waiting = new Map<number, string>();
  #next = 0;
  #written = 0;
  #closed = false;

  /**
   * Creates (or empties) the file and writes the header line.
   *
   * @param file the run file
   * @param header its fields before the cases
   */
  constructor(file: string, header: RunFileHeader) {
    this.#fd = fs.openSync(file, "w");
    this.#write(`${JSON.stringify(header).slice(0, -1)}${CASES_OPEN}\n`);
  }

  #write(text: string): void {
    const bytes = Buffer.from(text, "utf8");
    let off = 0;
    while (off < bytes.length) off += fs.writeSync(this.#fd, bytes, off);
  }

  #line(json: string): void {
    this.#write(`${this.#written === 0 ? "" : ","}${json}\n`);
    this.#written++;
  }

  /**
   * Adds the case at `index` (its position among the run's cases).
   *
   * @param index the position, from 0
   * @param c the case, or its JSON text
   */
  add(index: number, c: RunFileCase | string): void {
    if (this.#closed) return; // stopped (Ctrl-C): the file ends where it was
    const json = typeof c === "string" ? c : runFileJson(c);
    if (index === this.#next && this.#waiting.size === 0) {
      // The usual case: the next line, with none waiting for it.
      this.#line(json);
      this.#next++;
      return;
    }
    this.#waiting.set(index, json);
    while (this.#waiting.has(this.#next)) {
      this.#line(this.#waiting.get(this.#next)!);
      this.#waiting.delete(this.#next);
      this.#next++;
    }
  }

  /**
   * Writes the cases still waiting (those after a case that never ran, with
   * --fail-fast), then the totals, and closes the file.
   *
   * @param end the totals and the run's figures
   */
  finish(end: RunFileEnd): void {
    if (this.#closed) return;
    for (const i of [...this.#waiting.keys()].sort((a, b) => a - b)) {
      this.#line(this.#waiting.get(i)!);
    }
    this.#waiting.clear();
    this.#write(`]${JSON.stringify(end).replace(/^\{/, ",")}\n`);
    this.close();
  }

  /** Closes the file without the totals: the file is then a partial run. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    fs.closeSync(this.#fd);
  }
}

/**
 * Reads a run file that a run left unfinished (killed, interrupted): its
 * header and every whole case line, with the totals counted from them.
 *
 * @param text the file's text (that JSON.parse refused)
 * @returns the run as a JSON value (to validate as any run file), or
 * undefined when the text is not a run file written case by case
 * @example
 * ```ts
 * import { readPartialRun } from "./run_stream.ts";
 * const text = '{"format":"dbagenteval-run","version":1,"tool_version":"0","created_at":"x","cases":[\n' +
 *   '{"id":"a","question":"Q","tags":[],"verdict":"PASS","failed_stage":null,"error":null,"duration_ms":1,"answer":null,"sql":null,"checks":[]}\n' +
 *   ',{"id":"b","quest';
 * (readPartialRun(text) as { cases: unknown[] }).cases.length; // 1
 * ```
 */
export function readPartialRun(text: string): unknown {
  const lines = text.split("\n");
  const first = lines[0] ?? "";
  if (!first.startsWith('{"format":') || !first.endsWith(CASES_OPEN)) return undefined;
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(`${first.slice(0, -CASES_OPEN.length)}}`);
  } catch {
    return undefined;
  }
  const cases: RunFileCase[] = [];
  for (const raw of lines.slice(1)) {
    if (raw.startsWith("]")) break;
    const line = raw.startsWith(",") ? raw.slice(1) : raw;
    try {
      cases.push(JSON.parse(line) as RunFileCase);
    } catch {
      break; // the line the run was writing when it stopped
    }
  }
  const count = (verdict: string) => cases.filter((c) => c.verdict === verdict).length;
  const byStage = new Map<string, number>();
  for (const c of cases) {
    if (c.verdict === "FAIL" && c.failed_stage !== null) {
      byStage.set(c.failed_stage, (byStage.get(c.failed_stage) ?? 0) + 1);
    }
  }
  return {
    ...header,
    totals: {
      total: cases.length,
      passed: count("PASS"),
      failed: count("FAIL"),
      errors: count("ERROR"),
      skipped: count("SKIP"),
    },
    failures_by_stage: Object.fromEntries([...byStage].sort((a, b) => b[1] - a[1])),
    judge_calls: 0,
    duration_ms: cases.reduce((sum, c) => sum + c.duration_ms, 0),
    cases,
    partial: true,
  };
}

/**
 * Checks that a run file can be resumed by this run: every case it holds is
 * one this run selects.
 *
 * @param run the run file to resume
 * @param file its name, for messages
 * @param ids the ids this run selects, in order
 * @throws {UsageError} when the run file holds a case this run does not select
 */
export function checkResumable(run: RunFile, file: string, ids: readonly string[]): void {
  const wanted = new Set(ids);
  const stray = run.cases.find((c) => !wanted.has(c.id));
  if (stray !== undefined) {
    throw new UsageError(
      `--resume ${file}: it has case "${stray.id}", which this run does not select; resume with the cases file and options of the run that wrote it`,
    );
  }
}
