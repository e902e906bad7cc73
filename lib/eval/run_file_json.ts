/**
 * SQLite values in the run file: the rows it keeps hold values as they are
 * (a bigint, a BLOB's bytes, NaN), written with the codec of the diff
 * document (lib/sqlite/value_json.ts: `{"$bigint": "..."}`, `{"$blob":
 * "..."}`, `{"$real": "..."}`) and read back to the same values, so a run
 * file read back compares as the run did.
 *
 * @module
 */
import { decodeValue, valueReplacer } from "../sqlite/value_json.ts";
import type { RunFile, RunFileCase } from "./run_file.ts";
import type { Row } from "./trace.ts";
import type { ReportWriter } from "./report.ts";

/**
 * Rows as the run file keeps them (it keeps the first `RUN_FILE_MAX_ROWS`
 * of each list): each row a plain copy whose values are what reading the
 * file back gives. A SQLite value stays itself (a bigint, a BLOB's bytes,
 * NaN: {@link runFileJson} writes them with the codec); anything else an
 * agent put in a row becomes JSON data (a Date its text, undefined null).
 *
 * @param rows a stage's or the reference query's rows (those kept)
 * @returns the kept rows
 * @example
 * ```ts
 * import { runFileRows } from "./run_file_json.ts";
 * runFileRows([{ n: 2n ** 64n, at: new Date(0), x: undefined }]);
 * // [{ n: 18446744073709551616n, at: "1970-01-01T00:00:00.000Z", x: null }]
 * ```
 */
export function runFileRows(rows: readonly Row[]): Record<string, unknown>[] {
  return rows.map((row) => {
    // A spread defines each key, so a "__proto__" column stays a column.
    const out: Record<string, unknown> = { ...row };
    for (const key of Object.keys(out)) {
      const value = out[key];
      const kept = keptValue(value);
      if (kept !== value) out[key] = kept;
    }
    return out;
  });
}

function keptValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === "function" || typeof value === "symbol") return String(value);
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return value;
  return JSON.parse(JSON.stringify(value, valueReplacer) ?? "null");
}

/** Whether a value in a row needs the codec: JSON has no literal for it. */
function special(value: unknown): boolean {
  return typeof value === "bigint" || value instanceof Uint8Array ||
    (typeof value === "number" && (!Number.isFinite(value) || Object.is(value, -0)));
}

/** Every list of rows a case holds. */
function* caseRows(c: RunFileCase): Generator<readonly Record<string, unknown>[]> {
  for (const stage of c.trace ?? []) if (stage.rows !== undefined) yield stage.rows;
  if (c.reference_rows !== undefined) yield c.reference_rows;
  if (c.counterexample !== undefined) {
    yield c.counterexample.reference_rows;
    yield c.counterexample.candidate_rows;
  }
}

function hasSpecial(c: RunFileCase): boolean {
  for (const rows of caseRows(c)) {
    for (const row of rows) for (const key in row) if (special(row[key])) return true;
  }
  return false;
}

/**
 * A run file, or one case of it, as JSON text: what `run --json` writes.
 * Values in rows that JSON has no literal for are written as the diff
 * document writes them (`{"$bigint": "9007199254740993"}`, `{"$blob":
 * "AP8Q"}`, `{"$real": "NaN"}`), so {@link parseRunFile} gives them back;
 * `JSON.stringify` alone cannot write a bigint, and would write a BLOB as
 * an object of numbered bytes.
 *
 * @param value the run file, or a case
 * @param space the indent, as for JSON.stringify
 * @returns the JSON text
 * @example
 * ```ts
 * import { parseRunFile, toRunFile } from "./run_file.ts";
 * import { runFileJson } from "./run_file_json.ts";
 * import { runSuite } from "./suite.ts";
 * import { defineCase } from "./cases.ts";
 * const result = await runSuite([defineCase({ id: "a", question: "Q" })], () => ({
 *   rows: [{ id: 9007199254740993n, photo: new Uint8Array([0, 255]), ratio: 1.0 }],
 * }));
 * const text = runFileJson(toRunFile(result), 2);
 * parseRunFile(text, "run.json").cases[0]?.trace?.[0]?.rows;
 * // [{ id: 9007199254740993n, photo: Uint8Array [0, 255], ratio: 1 }]
 * ```
 */
export function runFileJson(value: RunFile | RunFileCase, space?: number): string {
  const cases = "format" in value ? value.cases : [value];
  const replacer = cases.some(hasSpecial) ? valueReplacer : undefined;
  return JSON.stringify(value, replacer, space);
}

/**
 * Turns the codec's one-key objects in a case's rows back into their
 * values, in place: what {@link runFileJson} wrote, read back.
 *
 * @param c a case as JSON.parse read it
 * @example
 * ```ts
 * import { decodeRunFileRows } from "./run_file_json.ts";
 * import type { RunFileCase } from "./run_file.ts";
 * const c = JSON.parse('{"reference_rows": [{"b": {"$blob": "AP8="}}]}') as RunFileCase;
 * decodeRunFileRows(c);
 * c.reference_rows; // [{ b: Uint8Array [0, 255] }]
 * ```
 */
export function decodeRunFileRows(c: RunFileCase): void {
  for (const rows of caseRows(c)) {
    for (const row of rows as Record<string, unknown>[]) {
      for (const key of Object.keys(row)) {
        const value = row[key];
        if (value !== null && typeof value === "object") row[key] = decodeValue(value);
      }
    }
  }
}

/**
 * Writes the report of `--json FILE` (lib/eval/reports.ts lists it).
 *
 * @param run the finished run
 * @param to where it goes
 * @example
 * ```ts
 * import { writeRunFileReport } from "./run_file_json.ts";
 * typeof writeRunFileReport; // "function"
 * ```
 */
export const writeRunFileReport: ReportWriter = (run, to) => to.writeFile(runFileJson(run, 2));
