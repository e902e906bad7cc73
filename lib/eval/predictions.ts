/**
 * A predictions file as an agent (`run --predictions FILE`): the SQL a model
 * already wrote for each question, which the harness runs on the case's
 * database. Two formats, told apart by their content:
 *
 * - Spider's: one predicted SQL a line, in the order of the questions (text
 *   after a TAB is ignored and blank lines are skipped, as Spider's official
 *   evaluator reads it);
 * - BIRD's: a JSON object from the question's position to
 *   `"SQL\t----- bird -----\tdb_id"`.
 *
 * @module
 */
import * as v from "valibot";
import { UsageError } from "../errors.ts";
import { readTextFile } from "../read_text_file.ts";
import type { Agent } from "./agent.ts";
import type { TestCase } from "./case.ts";
import { Trace } from "./trace.ts";

const BIRD_SEPARATOR = "\t----- bird -----\t";

/** One predicted SQL (null: the file marks the question unanswered), and where the file has it. */
interface Prediction {
  readonly sql: string | null;
  readonly where: string;
  readonly db?: string | undefined;
  /** What the file holds in place of SQL, as JSON (`0`), when `sql` is null. */
  readonly mark?: string;
}

// BIRD's own published predictions (its ChatGPT baseline's predict_dev.json)
// hold 0 for the questions the model did not answer, and its evaluators read
// any entry that is not text as an empty query. A number, true/false or null
// is such a mark; an object or a list is a file of another shape.
const BirdPredictions = v.record(
  v.string(),
  v.union(
    [v.string(), v.number(), v.boolean(), v.null()],
    'each prediction must be text, "SQL\\t----- bird -----\\tdb_id", or 0 for an unanswered question',
  ),
);

function spiderLines(text: string, file: string): Prediction[] {
  const out: Prediction[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") return;
    out.push({ sql: line.split("\t")[0]!.trim(), where: `${file}:${i + 1}` });
  });
  return out;
}

function birdObject(text: string, file: string): Prediction[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(
      `${file}: not valid JSON (${e instanceof Error ? e.message.split("\n")[0] : String(e)})`,
    );
  }
  const parsed = v.safeParse(BirdPredictions, value);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const key = issue.path?.[0]?.key;
    const at = key === undefined ? "" : `[${JSON.stringify(key)}]`;
    throw new UsageError(
      `${file}${at}: ${
        key === undefined
          ? 'expected a JSON object like {"0": "SQL\\t----- bird -----\\tdb_id"}'
          : issue.message
      }`,
    );
  }
  const entries = Object.entries(parsed.output);
  return entries.map(([key, value], i) => {
    if (key !== String(i)) {
      throw new UsageError(
        `${file}[${
          JSON.stringify(key)
        }]: expected key "${i}": BIRD's predictions are keyed 0, 1, 2, ... in the order of the questions`,
      );
    }
    const where = `${file}[${JSON.stringify(key)}]`;
    if (typeof value !== "string") return { sql: null, where, mark: JSON.stringify(value) };
    const cut = value.indexOf(BIRD_SEPARATOR);
    return {
      sql: (cut < 0 ? value : value.slice(0, cut)).trim(),
      where,
      ...(cut < 0 ? {} : { db: value.slice(cut + BIRD_SEPARATOR.length).trim() }),
    };
  });
}

/**
 * Reads a predictions file and pairs each prediction with its case, by
 * position in the cases file.
 *
 * @param text the file's content
 * @param file the file's name, for messages
 * @param cases every case of the cases file, in its order (before any selection)
 * @returns the SQL of each case, by case id; null where the file has no SQL
 * for the question (BIRD's `0`, or any value that is not text)
 * @throws {UsageError} when the file does not fit: not as many predictions as
 * cases, a BIRD key out of order, a prediction for another database
 * @example
 * ```ts
 * import { parsePredictions } from "./predictions.ts";
 * import { defineCase } from "./cases.ts";
 * const cases = [defineCase({ id: "0", question: "How many singers?" })];
 * parsePredictions("SELECT count(*) FROM singer\n", "pred.sql", cases).get("0"); // "SELECT count(*) FROM singer"
 * ```
 */
export function parsePredictions(
  text: string,
  file: string,
  cases: readonly TestCase[],
): Map<string, string | null> {
  return new Map([...alignPredictions(text, file, cases)].map(([id, p]) => [id, p.sql]));
}

function alignPredictions(
  text: string,
  file: string,
  cases: readonly TestCase[],
): Map<string, Prediction> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const predictions = body.trimStart().startsWith("{")
    ? birdObject(body, file)
    : spiderLines(body, file);
  if (predictions.length !== cases.length) {
    throw new UsageError(
      `${file}: ${predictions.length} prediction(s) for ${cases.length} case(s); the predictions must be one per question, in the order of the cases file`,
    );
  }
  const byId = new Map<string, Prediction>();
  predictions.forEach((p, i) => {
    const testCase = cases[i]!;
    if (p.db !== undefined && testCase.db !== undefined && p.db !== testCase.db) {
      throw new UsageError(
        `${p.where}: the prediction is for database "${p.db}", and case ${testCase.id} is on "${testCase.db}"; are the predictions in the order of the cases file?`,
      );
    }
    byId.set(testCase.id, p);
  });
  return byId;
}

/**
 * An agent that answers from a predictions file, and how many of the file's
 * questions it leaves unanswered (BIRD's `0` in place of SQL).
 *
 * @example
 * ```ts
 * import type { PredictionsAgent } from "./predictions.ts";
 * const agent: PredictionsAgent = Object.assign(() => ({ sql: "SELECT 1" }), { unanswered: 0 });
 * ```
 */
export type PredictionsAgent = Agent & {
  /** The file's entries that are not SQL (each such question's case FAILs). */
  readonly unanswered: number;
};

/**
 * Reads a predictions file ({@link parsePredictions}) into an agent that
 * answers each case with its predicted SQL only; the harness runs the SQL on
 * the case's database. A question the file leaves unanswered (BIRD's `0`)
 * gets a generate stage with no SQL and an error saying so: its case FAILs at
 * generate, the model's miss, as BIRD's evaluators count it.
 *
 * @param file the predictions file
 * @param cases every case of the cases file, in its order
 * @returns the agent, with the number of unanswered questions
 * @throws {UsageError} when the file cannot be read or does not fit the cases
 * @example
 * ```ts ignore
 * import { loadCases, predictionsAgent } from "../../mod.ts";
 * const cases = await loadCases("dev.json");
 * const agent = await predictionsAgent("pred.sql", cases);
 * ```
 */
export async function predictionsAgent(
  file: string,
  cases: readonly TestCase[],
): Promise<PredictionsAgent> {
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new UsageError(
      `--predictions ${file}: ${
        code === "ENOENT"
          ? "no such file; check the path"
          : e instanceof Error
          ? e.message
          : String(e)
      }`,
    );
  }
  const predictions = alignPredictions(text, file, cases);
  const agent: Agent = (question, context) => {
    const id = context.caseId ?? "";
    const p = predictions.get(id);
    if (p === undefined) throw new Error(`${file} has no prediction for case ${id}`);
    if (p.sql !== null) return { sql: p.sql };
    // An empty SQL that is never run: the scores read it as BIRD's evaluators do (an empty query).
    return new Trace(question, [
      { kind: "generate", output: "", error: `unanswered: ${p.where} is ${p.mark}, not SQL` },
    ]);
  };
  let unanswered = 0;
  predictions.forEach((p) => {
    if (p.sql === null) unanswered++;
  });
  return Object.assign(agent, { unanswered });
}
