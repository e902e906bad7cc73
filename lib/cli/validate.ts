/**
 * `dbagenteval validate CASES [--db FILE]`: reads a cases file and reports
 * its first mistake with file and line, without running any agent. With
 * `--db`, it also runs every reference query (read-only) and reports each
 * one that fails, so a typo in a table name is found before an agent is asked.
 *
 * @module
 */
import * as fs from "node:fs";
import process from "node:process";
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import { CasesFileError, UsageError } from "../errors.ts";
import { closeDefaultPool, configureDefaultPool } from "../isolation/pool.ts";
import { limitsForResultMb } from "../isolation/service.ts";
import { loadCases } from "../eval/cases.ts";
import { openReferenceDatabase } from "../databases/registry.ts";

/** The options of `validate`. */
export interface ValidateOptions {
  /** Run each reference_sql read-only on this SQLite file. */
  readonly db?: string;
  /** With a postgres:// --db: accept a login with file or program rights on the server. */
  readonly allowSuperuser?: boolean;
  /** Seconds each reference query may run (default 300, as `run`'s --timeout). */
  readonly timeout?: number;
  /** --max-result-mb and --max-temp-mb, as `run` takes them. */
  readonly maxResultMb?: number;
  readonly maxTempMb?: number;
}

/** `--timeout`'s default: `run`'s. */
const DEFAULT_TIMEOUT_S = 300;
/** Reference queries run at once. */
const AT_ONCE = 4;

/** The line of each case's reference_sql in the file, by case index. */
function referenceLines(file: string): (number | undefined)[] {
  const text = fs.readFileSync(file, "utf8");
  if (/\.jsonl$/i.test(file)) {
    return text.split("\n").map((line, i) => line.trim() === "" ? undefined : i + 1)
      .filter((line) => line !== undefined);
  }
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, logLevel: "silent" });
  if (!isSeq(doc.contents)) return [];
  return doc.contents.items.map((item) => {
    if (!isMap(item)) return undefined;
    const pair = item.items.find((p) =>
      isPair(p) && isScalar(p.key) && p.key.value === "reference_sql"
    );
    const offset = (pair?.value as { range?: [number] } | undefined)?.range?.[0];
    return offset === undefined ? undefined : counter.linePos(offset).line;
  });
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}

/**
 * Checks a cases file, and with `db` its reference queries.
 *
 * @param file the cases file (.yaml, .yml, .json or .jsonl)
 * @param options `db`: the SQLite file to run the reference queries on
 * @returns the exit code: 0 when every case is valid (and every reference
 *   query runs), 2 otherwise
 */
export async function validateCommand(
  file: string,
  options: ValidateOptions = {},
): Promise<number> {
  let cases;
  try {
    cases = await loadCases(file);
  } catch (error) {
    // A mistake in a cases file prints as `error: file:line: message`, as
    // run prints it (and every error of the CLI starts with error:).
    if (!(error instanceof CasesFileError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    return 2;
  }
  if (options.db === undefined) {
    process.stdout.write(`${file}: ${cases.length} case(s) OK\n`);
    return 0;
  }
  const seconds = options.timeout ?? DEFAULT_TIMEOUT_S;
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(`--timeout: expected a number of seconds above 0, e.g. 30`);
  }
  // Each query runs in a worker of the pool, under the deadline and the engines' limits.
  configureDefaultPool({
    size: AT_ONCE,
    limits: limitsForResultMb(options.maxResultMb ?? 32, options.maxTempMb),
  });
  // A missing or broken database, an unreachable server: a usage error, before any query.
  const db = await openReferenceDatabase(options.db, {
    allowSuperuser: options.allowSuperuser === true,
    statementTimeoutMs: seconds * 1000,
    ...(options.maxResultMb !== undefined
      ? { resultLimitBytes: options.maxResultMb * 2 ** 20 }
      : {}),
  });
  try {
    const lines = referenceLines(file);
    // A few queries at once (a runaway holds one worker until its
    // deadline, not the whole check); reported in the file's order. PGlite
    // is one engine: there, one at a time, each once the engine is up (a
    // query that waited behind a runaway would fail for it).
    const jobs = [...cases.entries()].filter(([, c]) => c.reference_sql !== undefined);
    const atOnce = db.kind === "pglite" ? 1 : AT_ONCE;
    const reasons: (string | undefined)[] = new Array(jobs.length);
    let next = 0;
    const take = async (): Promise<void> => {
      while (next < jobs.length) {
        const at = next++;
        try {
          await db.ready?.();
          await db.execute(jobs[at]![1].reference_sql!);
        } catch (error) {
          // PostgreSQL's errors already start with the database's name.
          reasons[at] = firstLine(error).replace(`${db.name}: `, "");
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(atOnce, jobs.length) }, take));
    const ran = jobs.length;
    let failed = 0;
    jobs.forEach(([index, c], at) => {
      const reason = reasons[at];
      if (reason === undefined) return;
      failed++;
      const line = lines[index];
      process.stderr.write(
        `error: ${file}${
          line === undefined ? "" : `:${line}`
        }: case ${c.id}: reference_sql fails on ${db.name}: ${reason}\n`,
      );
    });
    if (failed > 0) {
      process.stderr.write(`${failed} of ${ran} reference quer${ran === 1 ? "y" : "ies"} failed\n`);
      return 2;
    }
    process.stdout.write(
      `${file}: ${cases.length} case(s) OK; ${ran} reference quer${
        ran === 1 ? "y runs" : "ies run"
      } on ${db.name}\n`,
    );
    return 0;
  } finally {
    await db.close();
    await closeDefaultPool({ exiting: true });
  }
}
