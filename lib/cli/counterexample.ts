/**
 * `dbagenteval counterexample --db FILE --reference SQL --candidate SQL`:
 * looks for a database on which the two queries differ, and shows it.
 *
 * @module
 */
import * as fs from "node:fs";
import { checkOutputs } from "../run/output.ts";
import process from "node:process";
import { UsageError } from "../errors.ts";
import { databaseName } from "../databases/database_name.ts";
import { valueReplacer } from "../sqlite/value_json.ts";
import { changesText, type Counterexample, rowsAsJson } from "../counterexample/mod.ts";
import { findCounterexampleIsolated } from "../counterexample/isolated.ts";
import { closeDefaultPool } from "../isolation/pool.ts";
import { SHOWN_TEXT_CHARS, shownBlob, shownText } from "../sqlite/shown_value.ts";

/** The options of `counterexample`, as cli.ts parses them. */
export interface CounterexampleCommandOptions {
  readonly db: string;
  readonly allowSuperuser?: true;
  readonly reference: string;
  readonly candidate: string;
  readonly ordered?: true;
  readonly precision?: number;
  readonly seed?: number;
  readonly budget?: number;
  readonly timeLimit?: number;
  readonly json?: string;
}

/**
 * The `--json` document: `found`, `database_sql`, `reference_rows`,
 * `candidate_rows`, `tried`, `seed`, `seconds`, and `changes` (per table:
 * rows, same, changed, added, removed against the given database).
 *
 * @param r the search's result
 * @returns the document, rows with their values (write it with valueReplacer, as the run file is)
 */
export function counterexampleJson(r: Counterexample): Record<string, unknown> {
  return {
    found: r.found,
    ...(r.found
      ? {
        database_sql: r.databaseSql,
        reference_rows: (r.referenceRows ?? []).map((row) => ({ ...row })),
        candidate_rows: (r.candidateRows ?? []).map((row) => ({ ...row })),
        changes: r.changes,
        strategy: r.strategy,
      }
      : {}),
    tried: r.tried,
    seed: r.seed,
    seconds: Math.round(r.seconds * 1000) / 1000,
  };
}

function rowsText(label: string, rows: readonly object[]): string {
  // Long values are shown cut (the --json document has them whole).
  const shown = (rows as readonly Record<string, unknown>[]).map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => [
        k,
        v instanceof Uint8Array ? shownBlob(v) : typeof v === "string" ? shownText(v) : v,
      ]),
    )
  );
  const json = rowsAsJson(shown as never);
  return `${label} (${rows.length} row(s)):\n${
    json.length === 0 ? "  (no rows)" : json.map((r) => `  ${JSON.stringify(r)}`).join("\n")
  }`;
}

/** The script as text: a line too long to read is cut (the --json document has it whole). */
function scriptText(sql: string): string {
  return sql.trimEnd().split("\n").map((line) =>
    line.length <= SHOWN_TEXT_CHARS
      ? line
      : `${
        line.slice(0, SHOWN_TEXT_CHARS)
      }… (${line.length} characters; --json FILE writes the whole script)`
  ).join("\n");
}

/**
 * The text printed for a result.
 *
 * @param r the result
 * @param db the given database's path
 * @returns the text, ending with a newline
 */
export function counterexampleText(r: Counterexample, db: string): string {
  const seconds = `${r.seconds.toFixed(1)} s`;
  const tried = `${r.tried} database${r.tried === 1 ? "" : "s"}`;
  if (!r.found) {
    return `no difference found in ${tried} (seed ${r.seed}, ${seconds}); evidence, not proof, that the queries agree\n`;
  }
  return [
    `the queries differ on this database (found by ${r.strategy} after ${tried}, seed ${r.seed}, ${seconds}):`,
    "",
    scriptText(r.databaseSql!),
    "",
    rowsText("reference rows", r.referenceRows ?? []),
    rowsText("candidate rows", r.candidateRows ?? []),
    "",
    `how it differs from ${db}:`,
    ...changesText(r.changes ?? []).map((l) => `  ${l}`),
    "",
  ].join("\n");
}

/**
 * Runs the search and prints what it found.
 *
 * @param options the parsed options
 * @returns 1 when the queries differ on a database found, 0 when none was found
 */
export async function counterexampleCommand(
  options: CounterexampleCommandOptions,
): Promise<number> {
  checkOutputs({ "--json": options.json });
  const result = await findCounterexampleIsolated({
    db: options.db,
    allowSuperuser: options.allowSuperuser === true,
    reference: options.reference,
    candidate: options.candidate,
    ordered: options.ordered === true,
    precision: options.precision,
    seed: options.seed,
    budget: options.budget,
    timeLimit: options.timeLimit,
  }).finally(() => closeDefaultPool({ exiting: true }));
  // Built only when asked for: a long BLOB in the rows is a long document.
  const json = () => `${JSON.stringify(counterexampleJson(result), valueReplacer, 2)}\n`;
  if (options.json === "-") process.stdout.write(json());
  else {
    process.stdout.write(counterexampleText(result, databaseName(options.db)));
    if (options.json !== undefined) {
      try {
        fs.writeFileSync(options.json, json());
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new UsageError(`--json ${options.json}: cannot write the file (${reason})`, {
          cause: error,
        });
      }
    }
  }
  return result.found ? 1 : 0;
}
