/**
 * Reads a judge's reply: PASS or FAIL and one line of reason, forgiving the
 * ways models dress it up (case, spaces, markdown, code fences, a
 * `<think>` block, a JSON object).
 *
 * @module
 */
import * as v from "valibot";

/**
 * A reply that gave a verdict.
 *
 * @example
 * ```ts
 * import { parseVerdict, type ReadVerdict } from "./parse_verdict.ts";
 * const verdict = parseVerdict("Verdict: FAIL\nThe answer says 7, the rows say 5.");
 * if (verdict.kind === "verdict") {
 *   const read: ReadVerdict = verdict;
 *   read.reason; // "The answer says 7, the rows say 5."
 * }
 * ```
 */
export interface ReadVerdict {
  readonly kind: "verdict";
  readonly status: "PASS" | "FAIL";
  /** The judge's reason, one line; empty when it gave none. */
  readonly reason: string;
}

/**
 * A reply with no verdict in the asked form.
 *
 * @example
 * ```ts
 * import { parseVerdict, type UnreadableVerdict } from "./parse_verdict.ts";
 * const verdict = parseVerdict("Let me think about the question first.");
 * if (verdict.kind === "unreadable") {
 *   const unreadable: UnreadableVerdict = verdict;
 *   unreadable.firstLine; // "Let me think about the question first."
 * }
 * ```
 */
export interface UnreadableVerdict {
  readonly kind: "unreadable";
  /** The reply's first non-empty line (shortened), to show the user. */
  readonly firstLine: string;
}

/**
 * What {@link parseVerdict} found.
 *
 * @example
 * ```ts
 * import { parseVerdict, type Verdict } from "./parse_verdict.ts";
 * const verdict: Verdict = parseVerdict("✅ PASS - the total matches");
 * verdict.kind === "verdict" ? verdict.status : "no verdict"; // "PASS"
 * ```
 */
export type Verdict = ReadVerdict | UnreadableVerdict;

/** A reason or a first line longer than this is cut. */
const MAX_LINE = 300;

const VERDICT_KEYS = ["verdict", "result", "status", "decision", "judgment", "judgement"];
const REASON_KEYS = ["reason", "explanation", "why", "rationale", "justification"];

const objectSchema = v.record(v.string(), v.unknown());

/** A label before a verdict: `Verdict:`, `Final verdict =`, `Result -`. */
const LABEL = /^(final\s+)?(verdict|answer|result|decision|judg(e)?ment)\s*[:=-]\s*/i;
/** A label or heading with nothing after it. */
const LABEL_ALONE = /^(final\s+)?(verdict|answer|result|decision|judg(e)?ment)\s*[:=-]?$/i;
/** Emoji, quotes and brackets before a verdict: `✅ PASS`, `"FAIL"`, `[PASS]`. */
const DECORATION = /^(?:[\p{Extended_Pictographic}\uFE0F\u200D]+\s*|["'\u201C\u2018(\[]\s*)+/u;

/**
 * Reads a judge's reply.
 *
 * Accepted, in this order: a JSON object (also inside a code fence) with a
 * `verdict` (or `result`, `status`, `decision`) of "pass"/"fail" or a
 * boolean, and an optional `reason`; a first line that starts with PASS or
 * FAIL (any case, markdown such as `**PASS**` or `# FAIL`, an emoji, quotes,
 * a label such as `Verdict:`, or PASSED/FAILED), the reason being the rest of
 * that line or the next line; a last line that is only a verdict
 * (`Verdict: FAIL`) or ends with one after a sentence (`It matches. PASS`),
 * for models that reason first. A reply that gives both verdicts, and
 * anything else, is unreadable.
 *
 * @param reply what the judge returned (normally a string)
 * @returns the verdict and reason, or the reply's first line when unreadable
 * @example
 * ```ts
 * import { parseVerdict } from "./parse_verdict.ts";
 * parseVerdict("**PASS**\nThe total matches."); // { kind: "verdict", status: "PASS", reason: "The total matches." }
 * parseVerdict('{"verdict":"fail","reason":"wrong total"}').kind; // "verdict"
 * parseVerdict("I think so").kind; // "unreadable"
 * ```
 */
export function parseVerdict(reply: unknown): Verdict {
  if (typeof reply !== "string") {
    return fromObject(reply) ?? { kind: "unreadable", firstLine: describe(reply) };
  }
  const text = reply.replace(/^\uFEFF/, "").replace(/<think>[\s\S]*?<\/think>/gi, "");
  // Fence lines go; what they enclose stays.
  const lines = text.split(/\r?\n/).map((l) => l.trim())
    .filter((l) => l !== "" && !/^(```|~~~)[\w-]*$/.test(l));
  // A heading or label alone on the first line ("## Verdict", "**Verdict:**").
  if (lines.length > 1 && LABEL_ALONE.test(stripMarkdown(lines[0]!))) lines.shift();
  const body = lines.join("\n");
  const json = body.startsWith("{") ? fromJson(body) : undefined;
  if (json !== undefined) return json;
  const first = lines[0];
  if (first === undefined) return { kind: "unreadable", firstLine: "(empty reply)" };

  const unreadable: UnreadableVerdict = {
    kind: "unreadable",
    firstLine: cut(reply.trim().split(/\r?\n/)[0] ?? ""),
  };
  const head = verdictAtStart(first);
  if (head !== undefined) {
    if (saysBoth(lines, head)) return unreadable;
    const reason = head.rest !== "" ? head.rest : reasonLine(lines[1]);
    return { kind: "verdict", status: head.status, reason: cut(reason) };
  }
  const last = lines[lines.length - 1]!;
  const tail = verdictAtStart(last);
  if (lines.length > 1 && tail !== undefined && tail.rest === "") {
    if (saysBoth(lines, tail)) return unreadable;
    return {
      kind: "verdict",
      status: tail.status,
      reason: cut(reasonLine(lines[lines.length - 2])),
    };
  }
  const end = verdictAtEnd(last);
  if (end !== undefined) {
    if (saysBoth(lines, { status: end.status, rest: "" })) return unreadable;
    const reason = end.before !== "" ? end.before : reasonLine(lines[lines.length - 2]);
    return { kind: "verdict", status: end.status, reason: cut(reason) };
  }
  const embedded = body.includes("{")
    ? fromJson(body.slice(body.indexOf("{"), body.lastIndexOf("}") + 1))
    : undefined;
  if (embedded !== undefined) return embedded;
  return unreadable;
}

/**
 * Whether the reply gives both verdicts, so neither can be trusted: the
 * verdict line goes on with the other one (`PASS or FAIL`, `PASS/FAIL`, a
 * model echoing the asked form), or another line is only the other verdict
 * (`PASS\nFAIL`).
 */
function saysBoth(lines: readonly string[], found: { status: string; rest: string }): boolean {
  const other = found.status === "PASS" ? "FAIL" : "PASS";
  const next = /^(?:(?:or|and|vs)\b\.?|[/|])?\s*(pass|fail)(?:ed)?(?![a-z0-9])/i.exec(found.rest);
  if (next?.[1]?.toUpperCase() === other || verdictAtEnd(found.rest)?.status === other) return true;
  return lines.some((line) => {
    const verdict = verdictAtStart(line);
    return verdict?.status === other && verdict.rest === "";
  });
}

/** PASS or FAIL at the start of a line, after markdown and a label, and what follows. */
function verdictAtStart(line: string): { status: "PASS" | "FAIL"; rest: string } | undefined {
  const plain = stripMarkdown(line).replace(DECORATION, "").replace(LABEL, "")
    .replace(DECORATION, "");
  const match = /^(pass|fail)(?:ed)?(?![a-z0-9])(.*)$/i.exec(plain);
  if (match === null) return undefined;
  const status = match[1]!.toUpperCase() === "PASS" ? "PASS" : "FAIL";
  const rest = stripMarkdown(match[2]!.replace(/^[\s.:;,!)\]"'\u201D\u2019\-\u2013\u2014]+/, ""));
  return { status, rest };
}

/**
 * A verdict that ends a line after a sentence, for models that reason
 * first: `The total matches. PASS`, `Verdict: FAIL.`. The verdict must follow
 * a sentence end, a colon or a dash, so `it does not PASS` is not one.
 */
function verdictAtEnd(line: string): { status: "PASS" | "FAIL"; before: string } | undefined {
  const match = /^(.*?)(?:([.!?])|[:\u2013\u2014-])\s*(pass|fail)(?:ed)?[.!]?$/i
    .exec(stripMarkdown(line));
  if (match === null) return undefined;
  const status = match[3]!.toUpperCase() === "PASS" ? "PASS" : "FAIL";
  // A whole sentence is a reason; "The verdict is:" is not.
  const before = match[2] !== undefined ? `${match[1]!.trim()}${match[2]}` : "";
  return { status, before };
}

/** A reason line without its label. */
function reasonLine(line: string | undefined): string {
  if (line === undefined) return "";
  return stripMarkdown(line).replace(/^(reason|why|because|explanation)\s*[:=-]\s*/i, "");
}

/** Markdown emphasis, headings, quotes, bullets and inline code around a line's text. */
function stripMarkdown(line: string): string {
  return line.replace(/^(#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)+/, "")
    .replace(/\*\*|__|~~|[*`]/g, "").replace(/^_+|_+$/g, "").trim();
}

function fromJson(text: string): ReadVerdict | undefined {
  try {
    return fromObject(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** A verdict from a parsed JSON object, or undefined when it has none. */
function fromObject(value: unknown): ReadVerdict | undefined {
  const parsed = v.safeParse(objectSchema, value);
  if (!parsed.success) return undefined;
  const fields = new Map(Object.entries(parsed.output).map(([k, x]) => [k.toLowerCase(), x]));
  let status: "PASS" | "FAIL" | undefined;
  for (const key of VERDICT_KEYS) {
    const raw = fields.get(key);
    if (typeof raw === "string") status = verdictAtStart(raw)?.status;
    if (typeof raw === "boolean") status = raw ? "PASS" : "FAIL";
    if (status !== undefined) break;
  }
  const passed = fields.get("pass") ?? fields.get("passed");
  if (status === undefined && typeof passed === "boolean") status = passed ? "PASS" : "FAIL";
  if (status === undefined) return undefined;
  const reason = REASON_KEYS.map((k) => fields.get(k)).find((x) => typeof x === "string");
  return { kind: "verdict", status, reason: cut(String(reason ?? "").split(/\r?\n/)[0]!.trim()) };
}

function describe(value: unknown): string {
  if (value === undefined) return "(no reply: the judge returned undefined)";
  if (value === null) return "(no reply: the judge returned null)";
  try {
    return cut(JSON.stringify(value) ?? String(value));
  } catch {
    return cut(String(value));
  }
}

function cut(text: string): string {
  return text.length <= MAX_LINE ? text : `${text.slice(0, MAX_LINE)}...`;
}
