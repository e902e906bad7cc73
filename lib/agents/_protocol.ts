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

/** The source text of a JSON integer, signed. */
const INTEGER = /^-?\d+$/;

/** What JSON.parse passes a reviver beside the value (Deno 2 and Bun have it). */
type ReviverContext = { readonly source?: string } | undefined;

/**
 * Parses a reply's JSON text with integers beyond 2^53 kept exact, as
 * bigints: `JSON.parse` alone rounds 9007199254740993 to ...992, which would
 * make an agent in Python or Go that returns the exact count FAIL and one
 * off by one PASS. Other numbers are JavaScript numbers as usual (a bigint
 * for every integer would change what `output` holds for no gain).
 *
 * @param text the reply line or body
 * @returns the value
 * @throws {SyntaxError} when the text is not JSON
 */
export function parseReplyJson(text: string): unknown {
  // Only an integer of 16 digits or more can be past 2^53: text without such
  // a run (nearly every reply) is parsed without a reviver call per value.
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  const reviver = (_key: string, value: unknown, context: ReviverContext): unknown =>
    typeof value === "number" && !Number.isSafeInteger(value) &&
      context?.source !== undefined && INTEGER.test(context.source)
      ? BigInt(context.source)
      : value;
  return JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
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
  return rest;
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
