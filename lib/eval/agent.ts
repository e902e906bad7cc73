/**
 * The agent interface, and {@link toTrace}, which reads whatever an agent
 * returned into a {@link Trace}. It is duck-typed (no `instanceof`), so an
 * agent module that imports another copy of the library, or none at all,
 * works the same.
 *
 * @module
 */
import { TraceError } from "../errors.ts";
import { jsonText, nameList } from "./json_text.ts";
import { isRowSet, type KeyedRows, readRowSet, rowKeys } from "../row_set.ts";
import { type Row, STAGE_KINDS, type StageInput, type StageKind, Trace } from "./trace.ts";

/**
 * What the harness passes to an agent beside the question.
 *
 * @example
 * ```ts
 * import { type AgentContext, Trace } from "../../mod.ts";
 * function agent(question: string, context: AgentContext): Trace {
 *   return Trace.simple(question, { answer: `I would write to ${context.dbPath ?? "nothing"}` });
 * }
 * agent("Promote alice", {}).lastOf("answer")?.output; // "I would write to nothing"
 * ```
 */
export interface AgentContext {
  /** With --agent-db: the path of this case's own copy of the database. */
  readonly dbPath?: string;
  /** The case's id (sent as the request's `id` by --agent-cmd and --agent-url). */
  readonly caseId?: string;
  /** The case's tags. */
  readonly tags?: readonly string[];
  /** The name of the case's database, when it names one (`db:`, a benchmark's `db_id`). */
  readonly db?: string;
  /** What the case tells beside the question (`evidence:`, BIRD's evidence). */
  readonly evidence?: string;
  /**
   * Aborted when the case runs out of time (--timeout): an agent that can
   * stop its work (a subprocess, an HTTP request) should stop it then.
   */
  readonly signal?: AbortSignal;
}

/**
 * An agent: takes a question and returns what it did, as a {@link Trace},
 * an answer string, a plain `{ answer, sql, rows, error }` object or a
 * `{ question, stages }` object, or a Promise of one.
 *
 * @example
 * ```ts
 * import { type Agent, defineCase, runSuite } from "../../mod.ts";
 * const agent: Agent = (question) => ({ sql: "SELECT 2 AS n", rows: [{ n: 2 }], answer: "2" });
 * const cases = [defineCase({ id: "two", question: "1 + 1?", expect: { rows: [{ n: 2 }] } })];
 * (await runSuite(cases, agent)).passed; // 1
 * ```
 */
export type Agent = (question: string, context: AgentContext) => unknown;

/** The hint of the documented "Common problems" table for rows that are not objects. */
export const ROWS_HINT =
  "your rows are arrays (tuples): turn each into an object with Object.fromEntries(columns.map((c, i) => [c, row[i]])), as in the executor example";

const SIMPLE_KEYS = ["answer", "columns", "error", "rows", "sql"];

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value) || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing (undefined)";
  if (value === null) return "null";
  if (Array.isArray(value)) return `a list (${clip(jsonText(value))})`;
  if (typeof value === "object") {
    const name = value.constructor?.name;
    return name === undefined || name === "Object"
      ? `an object (${clip(jsonText(value))})`
      : `a ${name}`;
  }
  return `a ${typeof value} (${clip(jsonText(value))})`;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Checks that rows are a list of plain objects.
 *
 * @param rows the value to check
 * @param where what the rows belong to, for the message, e.g. "rows"
 * @returns the rows
 * @throws {TraceError} "rows must be a list of objects", with the documented hint
 * @example
 * ```ts
 * import { checkRows } from "./agent.ts";
 * checkRows([{ total: 2 }], "rows"); // [{ total: 2 }]
 * ```
 */
export function checkRows(rows: unknown, where: string): Row[] {
  if (!Array.isArray(rows)) {
    throw new TraceError(`${where} must be a list of objects, got ${describe(rows)}`);
  }
  const bad = rows.findIndex((row) => !isPlainObject(row));
  if (bad >= 0) {
    const row: unknown = rows[bad];
    const hint = Array.isArray(row)
      ? `; ${ROWS_HINT}`
      : row instanceof Map
      ? "; turn each into an object with Object.fromEntries(row)"
      : isObject(row)
      ? "; copy each into a plain object, e.g. rows.map((row) => ({ ...row }))"
      : "";
    throw new TraceError(
      `${where} must be a list of objects: ${where}[${bad}] is ${describe(row)}${hint}`,
    );
  }
  return rows as Row[];
}

/**
 * Reads rows in any of the forms an agent or an executor may give them, and
 * keeps every column, also two of the same name:
 *
 * - a list of objects, `[{ n: 1 }]` (a list that also carries a `columns`
 *   list of names matching its keys, as the SQLite executor returns, keeps
 *   that list);
 * - a row set, `{ columns: ["n", "n"], rows: [[1, 2]] }`;
 * - a list of value lists, with `columns` given beside it (the `columns`
 *   key of a reply or a stage).
 *
 * @param rows the rows
 * @param where what the rows belong to, for the message, e.g. "rows"
 * @param columns the column names given beside the rows, if any
 * @returns the rows as objects, with the column list when a name repeats
 * @throws {TraceError} naming the bad part, with the documented hint for tuples
 * @example
 * ```ts
 * import { readRows } from "./agent.ts";
 * readRows({ columns: ["Name", "Name"], rows: [["Rock", "AC/DC"]] }, "rows");
 * // { rows: [{ Name: "Rock", "Name (2)": "AC/DC" }], columns: ["Name", "Name"] }
 * readRows([[1]], "rows", ["n"]).rows; // [{ n: 1 }]
 * ```
 */
export function readRows(rows: unknown, where: string, columns?: unknown): KeyedRows {
  try {
    if (columns !== undefined && columns !== null) {
      if (!Array.isArray(columns)) {
        throw new TraceError(`columns must be a list of column names, got ${describe(columns)}`);
      }
      if (isRowSet(rows)) {
        throw new TraceError(`give columns either beside ${where} or inside it, not both`);
      }
      if (!Array.isArray(rows)) {
        throw new TraceError(
          `${where} must be a list of value lists when columns is given, got ${describe(rows)}`,
        );
      }
      return readRowSet({ columns, rows }, {
        columns: where.replace(/rows$/, "columns"),
        rows: where,
      });
    }
    if (isRowSet(rows)) {
      return readRowSet(rows, { columns: `${where}.columns`, rows: `${where}.rows` });
    }
  } catch (e) {
    if (e instanceof TypeError) throw new TraceError(e.message);
    throw e;
  }
  const objects = checkRows(rows, where);
  const own = (rows as { columns?: unknown }).columns;
  if (
    Array.isArray(own) && own.every((c) => typeof c === "string") &&
    new Set(own).size !== own.length && sameKeys(objects[0], rowKeys(own))
  ) {
    return { rows: objects, columns: [...own] };
  }
  return { rows: objects };
}

function sameKeys(row: object | undefined, keys: readonly string[]): boolean {
  if (row === undefined) return true;
  const have = Object.keys(row);
  return have.length === keys.length && keys.every((k) => Object.hasOwn(row, k));
}

function optionalText(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") {
    throw new TraceError(`${where} must be text, got ${describe(value)}`);
  }
  return value;
}

function readStage(raw: unknown, i: number): StageInput {
  const where = `stages[${i}]`;
  if (!isObject(raw) || Array.isArray(raw)) {
    throw new TraceError(`${where} must be an object like { kind: "generate", output: sql }`);
  }
  const kind = raw["kind"];
  if (typeof kind !== "string" || !(STAGE_KINDS as readonly string[]).includes(kind)) {
    throw new TraceError(
      `${where}.kind must be one of ${STAGE_KINDS.join(", ")}, got ${jsonText(kind)}`,
    );
  }
  const name = optionalText(raw["name"], `${where}.name`);
  const error = optionalText(raw["error"], `${where}.error`);
  const read = raw["rows"] === undefined || raw["rows"] === null
    ? undefined
    : readRows(raw["rows"], `${where}.rows`, raw["columns"]);
  return {
    kind: kind as StageKind,
    ...(name !== undefined ? { name } : {}),
    ...(raw["output"] !== undefined ? { output: raw["output"] } : {}),
    ...(read !== undefined ? { rows: read.rows } : {}),
    ...(read?.columns !== undefined ? { columns: read.columns } : {}),
    ...(error !== undefined ? { error } : {}),
  };
}

/**
 * Reads what an agent returned as a trace.
 *
 * - a string: an answer-only trace;
 * - an object with `stages` (a Trace from any copy of the library, or a
 *   plain `{ question, stages }`): its stages, each checked;
 * - a plain `{ answer, sql, rows, error }`: as {@link Trace.simple}; rows
 *   may also be `{ columns, rows }` with value lists, or value lists with a
 *   `columns` key beside them (see {@link readRows}).
 *
 * @param question the question the agent was asked (used when the value has none)
 * @param value what the agent returned (already awaited)
 * @returns the trace
 * @throws {TraceError} for anything else, e.g. a number, or rows that are not a list of objects
 * @example
 * ```ts
 * import { toTrace } from "./agent.ts";
 * toTrace("How many?", { sql: "SELECT 2 AS n", rows: [{ n: 2 }], answer: "2" }).stages.length; // 3
 * toTrace("How many?", "There are 2.").lastOf("answer")?.output; // "There are 2."
 * ```
 */
export function toTrace(question: string, value: unknown): Trace {
  if (typeof value === "string") return Trace.simple(question, { answer: value });
  if (!isObject(value) || Array.isArray(value)) {
    throw new TraceError(
      `the agent returned ${
        describe(value)
      }; return a Trace, an answer string, or an object like { answer, sql, rows }`,
    );
  }
  if ("stages" in value) {
    const stages = value["stages"];
    if (!Array.isArray(stages)) {
      throw new TraceError(`stages must be a list of stages, got ${describe(stages)}`);
    }
    const own = optionalText(value["question"], "question");
    return new Trace(own ?? question, stages.map(readStage));
  }
  const unknown = Object.keys(value).filter((k) => !SIMPLE_KEYS.includes(k) && k !== "question");
  const known = Object.keys(value).some((k) => SIMPLE_KEYS.includes(k));
  if (unknown.length > 0 || !known) {
    const what = unknown.length > 0 ? `unknown key(s) ${nameList(unknown)}` : describe(value);
    throw new TraceError(
      `the agent returned ${what}; return a Trace, an answer string, or an object with answer, sql, rows, error`,
    );
  }
  const answer = optionalText(value["answer"], "answer");
  const sql = optionalText(value["sql"], "sql");
  const error = optionalText(value["error"], "error");
  const read = value["rows"] === undefined || value["rows"] === null
    ? undefined
    : readRows(value["rows"], "rows", value["columns"]);
  return Trace.simple(optionalText(value["question"], "question") ?? question, {
    ...(answer !== undefined ? { answer } : {}),
    ...(sql !== undefined ? { sql } : {}),
    ...(read !== undefined ? { rows: read.rows } : {}),
    ...(read?.columns !== undefined ? { columns: read.columns } : {}),
    ...(error !== undefined ? { error } : {}),
  });
}
