/**
 * The wire format shared by the subprocess (--agent-cmd) and HTTP
 * (--agent-url) transports: the request the harness sends for a case, and
 * the reply it expects, checked with valibot so that a reply that does not
 * fit names the field. docs/agent-protocol.md documents both.
 *
 * @module
 */
import * as v from "valibot";
import { AgentError } from "../errors.ts";
import type { AgentContext } from "../eval/agent.ts";
import { STAGE_KINDS } from "../eval/trace.ts";
import { decodeValue, parseExactJson } from "../sqlite/value_json.ts";

/** The request for one case, as sent on the wire. */
export interface AgentRequest {
  readonly id: string;
  readonly question: string;
  readonly context: {
    readonly tags: readonly string[];
    readonly db_path?: string;
    readonly db?: string;
    readonly evidence?: string;
  };
}

/**
 * The request for a case.
 *
 * @param question the case's question
 * @param context what the suite passes the agent
 * @returns the request, ready for JSON.stringify
 */
export function agentRequest(question: string, context: AgentContext): AgentRequest {
  return {
    id: context.caseId ?? "",
    question,
    context: {
      tags: context.tags ?? [],
      ...(context.dbPath !== undefined ? { db_path: context.dbPath } : {}),
      ...(context.db !== undefined ? { db: context.db } : {}),
      ...(context.evidence !== undefined ? { evidence: context.evidence } : {}),
    },
  };
}

/**
 * Parses a reply's JSON text with integers beyond 2^53 kept exact, as
 * bigints: `JSON.parse` alone rounds 9007199254740993 to ...992, which would
 * make an agent in Python or Go that returns the exact count FAIL and one
 * off by one PASS. Other numbers are JavaScript numbers as usual (a bigint
 * for every integer would change what `output` holds for no gain). Values
 * in rows are decoded later, by {@link readReply}.
 *
 * @param text the reply line or body
 * @returns the value
 * @throws {SyntaxError} when the text is not JSON
 */
export function parseReplyJson(text: string): unknown {
  return parseExactJson(text);
}

/**
 * Why a reply that is not JSON is not, when the reason is one a user can
 * act on: Python's `json.dumps` writes `NaN`, `Infinity` and `-Infinity`
 * for those floats, which JSON has no word for.
 *
 * @param text a reply that JSON.parse refused
 * @returns the hint, or undefined when the text is not JSON for another reason
 */
export function nonJsonNumberHint(text: string): string | undefined {
  const found: { at: number; word: string }[] = [];
  const word = /-?(?:NaN|Infinity)/y;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      continue;
    }
    if (c !== "N" && c !== "I" && c !== "-") continue;
    word.lastIndex = i;
    const m = word.exec(text);
    if (m === null) continue;
    found.push({ at: i, word: m[0] });
    i += m[0].length - 1;
  }
  if (found.length === 0) return undefined;
  let fixed = "";
  let from = 0;
  for (const f of found) {
    fixed += `${text.slice(from, f.at)}null`;
    from = f.at + f.word.length;
  }
  try {
    JSON.parse(fixed + text.slice(from));
  } catch {
    return undefined;
  }
  const first = found[0]!.word;
  const python = first.replace("Infinity", "inf").replace("NaN", "nan");
  const instead = first === "NaN"
    ? 'send null instead (SQLite stores NaN as NULL), or {"$real": "NaN"}'
    : `send {"$real": "${first}"} instead`;
  return `the agent's reply holds ${first}, which is not JSON (Python's json.dumps writes it for ` +
    `float("${python}")): ${instead}; json.dumps(reply, allow_nan=False) shows where it comes from`;
}

const text = v.nullish(v.string());
const objectRows = v.array(v.record(v.string(), v.unknown()));
const columnRows = v.strictObject({
  columns: v.array(v.string()),
  rows: v.array(v.array(v.unknown())),
});
const valueRows = v.array(v.array(v.unknown()));
const rows = v.nullish(
  v.union(
    [valueRows, objectRows, columnRows],
    "expected a list of objects, a list of value lists (with columns) or { columns, rows }",
  ),
);
/** Column names beside `rows` when the rows are value lists. */
const columns = v.nullish(v.array(v.string()));

const stage = v.strictObject({
  kind: v.picklist(STAGE_KINDS, `expected one of ${STAGE_KINDS.join(", ")}`),
  name: text,
  output: v.optional(v.unknown()),
  rows,
  columns,
  error: text,
});

const simpleReply = v.strictObject({
  id: v.string(),
  question: v.optional(v.string()),
  sql: text,
  rows,
  columns,
  answer: text,
  error: text,
});

const stagesReply = v.strictObject({
  id: v.string(),
  question: v.optional(v.string()),
  stages: v.array(stage),
});

/** `reply.rows[2].name` for an issue's path. */
function where(issue: v.BaseIssue<unknown>): string {
  let at = "reply";
  for (const item of issue.path ?? []) {
    const key = item.key;
    at += typeof key === "number" ? `[${key}]` : `.${String(key)}`;
  }
  return at;
}

function issueText(issue: v.BaseIssue<unknown>): string {
  if (issue.kind === "schema" && issue.type === "strict_object" && issue.input !== undefined) {
    return `${
      where(issue)
    }: unknown field (a reply has id and sql, rows, answer, error, or stages)`;
  }
  if (issue.received === "undefined") return `${where(issue)}: missing, and required`;
  const got = issue.received;
  const expected = issue.expected ?? "";
  return issue.message.startsWith("Invalid")
    ? `${where(issue)}: expected ${expected}, got ${got}`
    : `${where(issue)}: ${issue.message}, got ${got}`;
}

/**
 * Reads one reply: checks its shape and that it answers the case asked.
 *
 * @param json the parsed reply
 * @param id the case id the request carried
 * @returns what the agent returned, without `id`, for toTrace()
 * @throws {AgentError} naming the field that does not fit, or the wrong id
 */
export function readReply(json: unknown, id: string): Record<string, unknown> {
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw new AgentError(
      `the agent's reply is not a JSON object: ${clip(JSON.stringify(json))}; ` +
        `reply with {"id": ..., "sql": ..., "rows": ..., "answer": ...}`,
    );
  }
  const schema = "stages" in json ? stagesReply : simpleReply;
  const parsed = v.safeParse(schema, json);
  if (!parsed.success) {
    throw new AgentError(
      `the agent's reply does not fit the protocol: ${issueText(parsed.issues[0])}`,
    );
  }
  // The checked copy is not passed on: valibot rebuilds objects, and a row's
  // "__proto__" key (an own key in parsed JSON) would become a prototype.
  const { id: got, ...rest } = json as Record<string, unknown>;
  if (got !== id) {
    throw new AgentError(
      `the agent answered case ${JSON.stringify(got)} when asked case ${JSON.stringify(id)}; ` +
        "reply to each request with its id, one reply per request, in order",
    );
  }
  const stages = rest["stages"];
  if (Array.isArray(stages)) {
    if (stages.length === 0) {
      throw new AgentError(
        'the agent\'s reply has no stages: give at least one, e.g. {"kind": "execute", ' +
          '"columns": [...], "rows": [...]}, or reply in the simple form (sql, rows, answer)',
      );
    }
    stages.forEach((stage: Record<string, unknown>, i) =>
      readRows(stage, `reply.stages[${i}]`, "the stage")
    );
  } else {
    if (SIMPLE_FIELDS.every((k) => rest[k] === undefined || rest[k] === null)) {
      throw new AgentError(
        "the agent's reply has no sql, rows, answer or error (each is missing or null): reply " +
          'with the rows your SQL returned in "rows", the SQL in "sql" (the harness runs it), ' +
          'the answer text in "answer", or what went wrong in "error"',
      );
    }
    readRows(rest, "reply", "the reply");
  }
  return rest;
}

const SIMPLE_FIELDS = ["sql", "rows", "answer", "error"] as const;

/**
 * Checks that value lists come with their column names, and decodes the
 * rows' values in place (`{"$blob": "AP8Q"}` becomes the bytes:
 * lib/sqlite/value_json.ts). An own "__proto__" column stays an own
 * property: assigning to it sets that property, not the prototype.
 */
function readRows(holder: Record<string, unknown>, at: string, what: string): void {
  const rows = holder["rows"];
  if (rows === null || rows === undefined) return;
  const list = Array.isArray(rows) ? rows : (rows as { rows: unknown[][] }).rows;
  if (Array.isArray(rows) && Array.isArray(rows[0]) && (holder["columns"] ?? null) === null) {
    throw new AgentError(
      `${at}.rows[0] is a list of values and ${what} has no "columns": add "columns" beside ` +
        '"rows" with the column names (e.g. "columns": ["name", "total"], the names in ' +
        "Python's cursor.description), or send each row as an object",
    );
  }
  for (const row of list as (unknown[] | Record<string, unknown>)[]) {
    if (Array.isArray(row)) {
      for (let i = 0; i < row.length; i++) row[i] = decoded(row[i]);
      continue;
    }
    for (const key of Object.keys(row)) {
      const value = row[key];
      if (value !== null && typeof value === "object") row[key] = decoded(value);
    }
  }
}

function decoded(value: unknown): unknown {
  return value !== null && typeof value === "object" ? decodeValue(value) : value;
}

/**
 * A value shortened for a message.
 *
 * @param value the text
 * @param max the longest kept
 * @returns the text, cut with "..." past `max`
 */
export function clip(value: string | undefined, max = 120): string {
  const s = value ?? "undefined";
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}
