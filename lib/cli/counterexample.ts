/**
 * `dbagenteval counterexample --db FILE --reference SQL --candidate SQL`:
 * looks for a database on which the two queries differ, and shows it.
 *
 * @module
 */
import * as fs from "node:fs";
import { checkOutputs } from "./_output.ts";
import process from "node:process";
import { UsageError } from "../errors.ts";
import { databaseName } from "../databases/database_name.ts";
import { valueReplacer } from "../sqlite/value_json.ts";
import {
  changesText,
  type Counterexample,
  findCounterexample,
  rowsAsJson,
} from "../counterexample/mod.ts";

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
  const json = rowsAsJson(rows as never);
  return `${label} (${rows.length} row(s)):\n${
    json.length === 0 ? "  (no rows)" : json.map((r) => `  ${JSON.stringify(r)}`).join("\n")
  }`;
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
    r.databaseSql!.trimEnd(),
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
  const result = await findCounterexample({
    db: options.db,
    allowSuperuser: options.allowSuperuser === true,
    reference: options.reference,
    candidate: options.candidate,
    ordered: options.ordered === true,
    precision: options.precision,
    seed: options.seed,
    budget: options.budget,
    timeLimit: options.timeLimit,
  });
  const json = `${JSON.stringify(counterexampleJson(result), valueReplacer, 2)}\n`;
  if (options.json === "-") process.stdout.write(json);
  else {
    process.stdout.write(counterexampleText(result, databaseName(options.db)));
    if (options.json !== undefined) {
      try {
        fs.writeFileSync(options.json, json);
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
