/**
 * Reading cases files (.yaml, .yml, .json, .jsonl) into {@link TestCase}s,
 * validated with valibot, with every mistake reported as a
 * {@link CasesFileError} naming the file and line: the line of the offending
 * key in YAML and JSON, the case's line in JSONL.
 *
 * @module
 */
import { yamlErrorMessage } from "./yaml_message.ts";
import { yamlLineOf } from "./yaml_line.ts";
import { isSeq, LineCounter, parseDocument, visit } from "yaml";
import type { Document } from "yaml";
import { CasesFileError } from "../errors.ts";
import { readTextFile } from "../read_text_file.ts";
import { findJsonError } from "./_json_error.ts";
import type { Expect, TestCase } from "./case.ts";
import { CaseProblem, type PathKey, readCase } from "./case_schema.ts";
import type { Row } from "./trace.ts";
import {
  benchmarkCases,
  benchmarkFormat,
  type BenchmarkProblem,
  goldCases,
} from "./benchmark_files.ts";

/**
 * A case as a user writes it in code: only `question` is needed.
 *
 * @example
 * ```ts
 * import { type CaseInput, defineCase } from "./cases.ts";
 * const input: CaseInput = {
 *   question: "Top 2 users by id?",
 *   expect: { rows: [{ id: 4 }, { id: 3 }] },
 *   ordered: true,
 *   tags: ["easy"],
 * };
 * defineCase(input).id; // "top-2-users-by-id"
 * ```
 */
export interface CaseInput {
  readonly question: string;
  readonly reference_sql?: string | undefined;
  readonly expect?: Expect | undefined;
  readonly id?: string | undefined;
  readonly tags?: readonly string[] | undefined;
  readonly ordered?: boolean | undefined;
  readonly precision?: number | undefined;
  /** No column beyond the expected ones (see {@link TestCase.strict_columns}). */
  readonly strict_columns?: boolean | undefined;
  /** The case's database by name (see {@link TestCase.db}). */
  readonly db?: string | undefined;
  /** Told to the agent beside the question (see {@link TestCase.evidence}). */
  readonly evidence?: string | undefined;
}

/** Where the cases came from, and how to find the line of a value in it. */
interface Source {
  readonly items: readonly unknown[];
  /**
   * Turns an item into the case's raw value when the source holds items in
   * another form (a JSON lines file holds each line's text, parsed only
   * when its case is read, so that a long file is never held twice).
   */
  readonly parse?: (item: unknown, index: number) => unknown;
  /** The 1-based line of a case (`path` empty), a key (`key` true) or a value. */
  lineOf(index: number, path: readonly PathKey[], key: boolean): number | undefined;
}

/**
 * A short id from a question: lower case, letters and digits joined by `-`.
 *
 * @param question the question
 * @returns the slug, e.g. `how-many-orders-are-delivered`
 * @example
 * ```ts
 * import { slugify } from "./cases.ts";
 * slugify("How many orders are delivered?"); // "how-many-orders-are-delivered"
 * ```
 */
export function slugify(question: string): string {
  const slug = question.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+/, "").slice(0, 60).replace(/-+$/, "");
  return slug === "" ? "case" : slug;
}

/**
 * The line each loaded case starts on in its cases file, kept beside the
 * case (not in it: a TestCase holds the documented fields only) for reports
 * that point at the case, such as CI annotations.
 */
const LINES = new WeakMap<TestCase, number>();

/**
 * The 1-based line a case starts on in the cases file it was read from.
 *
 * @param testCase a case returned by parseCases() or loadCases()
 * @returns the line, or undefined for a case built in code
 * @example
 * ```ts
 * import { caseLine, parseCases } from "./cases.ts";
 * const [a, b] = parseCases("- question: One?\n- question: Two?\n", "cases.yaml");
 * [caseLine(a!), caseLine(b!)]; // [1, 2]
 * ```
 */
export function caseLine(testCase: TestCase): number | undefined {
  return LINES.get(testCase);
}

/** Validates every case, fills ids, remembers lines, and refuses duplicate ids. */
function buildCases(file: string, source: Source): TestCase[] {
  const built = buildCaseList(file, source);
  built.forEach((c, index) => {
    const line = source.lineOf(index, [], false);
    if (line !== undefined) LINES.set(c, line);
  });
  return built;
}

function buildCaseList(file: string, source: Source): TestCase[] {
  if (source.items.length === 0) {
    // Line 1, so that editors and CI annotations can point at the file.
    throw new CasesFileError(
      file,
      { line: 1 },
      "no cases found; write a list of cases, each with a question",
    );
  }
  const partial = source.items.map((item, index) => {
    const raw = source.parse === undefined ? item : source.parse(item, index);
    try {
      return readCase(raw);
    } catch (e) {
      if (!(e instanceof CaseProblem)) throw e;
      const line = source.lineOf(index, e.path, e.key) ?? source.lineOf(index, [], false);
      throw new CasesFileError(file, { line }, e.message);
    }
  });
  const firstLine = new Map<string, number | undefined>();
  partial.forEach((c, index) => {
    if (c.id === undefined) return;
    const line = source.lineOf(index, ["id"], false);
    if (firstLine.has(c.id)) throw duplicateIdError(file, c.id, line, firstLine.get(c.id));
    firstLine.set(c.id, line);
  });
  return partial.map((c) => {
    if (c.id !== undefined) return c as TestCase;
    const id = freeSlug(slugify(c.question), firstLine);
    firstLine.set(id, undefined);
    return { ...c, id };
  });
}

/**
 * The error for a case whose id an earlier case has.
 *
 * @param file the cases file
 * @param id the id
 * @param line the line of the second case's id
 * @param first the line of the first one
 * @returns the error
 */
export function duplicateIdError(
  file: string,
  id: string,
  line: number | undefined,
  first: number | undefined,
): CasesFileError {
  const where = first === undefined ? "" : ` (first on line ${first})`;
  return new CasesFileError(file, { line }, `duplicate id "${id}"${where}; ids must be unique`);
}

/**
 * The id of a case without one: its slug, or the slug with `-2`, `-3`, ...
 * when a case has that id already.
 *
 * @param base the slug of the question
 * @param taken the ids given so far
 * @returns the id
 */
export function freeSlug(base: string, taken: { has(id: string): boolean }): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

/**
 * Remembers the line a case starts on, for {@link caseLine}.
 *
 * @param testCase the case
 * @param line its 1-based line
 */
export function rememberLine(testCase: TestCase, line: number): void {
  LINES.set(testCase, line);
}

/** Finds the line of a key or value of a case in a YAML (or JSON) document. */
function yamlLocator(doc: Document, counter: LineCounter): Source["lineOf"] {
  return (index, path, key) =>
    yamlLineOf(isSeq(doc.contents) ? doc.contents.items[index] : undefined, path, counter, key);
}

/** Levels of [ and { a cases file may nest: far beyond any real case. */
export const MAX_NESTING = 500;

/**
 * The offset where `text` first nests [ and { deeper than {@link MAX_NESTING}
 * (outside quotes), or -1. The parsers recurse, so a file nested thousands
 * deep would overflow the stack ("Maximum call stack size exceeded").
 */
function tooDeepAt(text: string): number {
  let depth = 0;
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== "") {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = "";
    } else if (c === '"') {
      quote = c;
    } else if (c === "[" || c === "{") {
      if (++depth > MAX_NESTING) return i;
    } else if (c === "]" || c === "}") {
      depth--;
    }
  }
  return -1;
}

function checkNesting(text: string, file: string): void {
  const at = tooDeepAt(text);
  if (at < 0) return;
  throw new CasesFileError(
    file,
    { line: lineAtOffset(text, at) },
    `values are nested too deeply (more than ${MAX_NESTING} levels of [ and {); no case needs that many`,
  );
}

/**
 * The offset of the quote that opens a quoted YAML scalar never closed: the
 * last quote that is not escaped (\" in double quotes, '' in single ones).
 * yaml reports the error at the end of the file, past its last line.
 */
function openingQuote(text: string, quote: string): number {
  for (let i = text.length - 1; i >= 0; i--) {
    if (text[i] !== quote) continue;
    if (quote === '"') {
      let slashes = 0;
      while (text[i - 1 - slashes] === "\\") slashes++;
      if (slashes % 2 === 0) return i;
    } else if (text[i - 1] === "'") {
      i--; // '' is a quote inside the text
    } else {
      return i;
    }
  }
  return -1;
}

function yamlError(file: string, doc: Document, text: string): CasesFileError {
  const error = doc.errors[0]!;
  let pos = error.linePos?.[0];
  const unclosed = /^Missing closing (["'])quote/.exec(error.message);
  let message: string | undefined;
  if (unclosed !== null) {
    const quote = unclosed[1]!;
    const at = openingQuote(text, quote);
    if (at >= 0) pos = { line: lineAtOffset(text, at), col: at - text.lastIndexOf("\n", at - 1) };
    message =
      `not valid YAML: the ${quote} that starts this value is never closed; end the value with ${quote}`;
  }
  // Never a line past the end of the file.
  const lines = text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
  if (pos !== undefined && pos.line > Math.max(1, lines)) {
    pos = { line: Math.max(1, lines), col: 1 };
  }
  message ??= error.code === "MULTIPLE_DOCS"
    ? "not valid YAML: the file has more than one document (a second ---); put all the cases in one list"
    : yamlErrorMessage(error, text);
  return new CasesFileError(file, { line: pos?.line, column: pos?.col }, message);
}

function parseYamlSource(text: string, file: string): Source {
  const counter = new LineCounter();
  // logLevel "error": no warning on stderr beside the one-line error (a key
  // that is a list, `? [a]`, is reported as an unknown field).
  checkNesting(text, file);
  const doc = parseDocument(text, { lineCounter: counter, logLevel: "error" });
  if (doc.errors.length > 0) throw yamlError(file, doc, text);
  const value = yamlValue(doc, counter, file);
  if (value === null || value === undefined) return { items: [], lineOf: () => undefined };
  if (!Array.isArray(value)) {
    throw new CasesFileError(
      file,
      { line: 1 },
      "expected a list of cases, each starting with - (a YAML list)",
    );
  }
  return { items: value, lineOf: yamlLocator(doc, counter) };
}

/** Aliases a cases file may expand to: many real ones, not an alias bomb. */
const MAX_ALIAS_COUNT = 10_000;

/** The document's value, with alias mistakes as errors at the alias's line. */
function yamlValue(doc: Document, counter: LineCounter, file: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    if (!(e instanceof ReferenceError)) throw e;
    const name = /Unresolved alias.*: (.*)$/.exec(e.message)?.[1];
    let line: number | undefined;
    visit(doc, {
      Alias(_key, node) {
        if (name !== undefined && node.source !== name) return undefined;
        line = node.range ? counter.linePos(node.range[0]).line : undefined;
        return visit.BREAK;
      },
    });
    const message = name !== undefined
      ? `not valid YAML: *${name} refers to no anchor &${name} above it; define the anchor first, or quote a value that starts with *`
      : `not valid YAML: the aliases expand to too much (over ${MAX_ALIAS_COUNT} nodes; an alias bomb?); write the values out`;
    throw new CasesFileError(file, { line }, message);
  }
}

function lineAtOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function parseJsonSource(text: string, file: string): Source {
  let value: unknown;
  checkNesting(text, file);
  try {
    value = JSON.parse(text);
  } catch (e) {
    // Our own scan says where and why, the same under every runtime.
    const found = findJsonError(text);
    if (found !== undefined) {
      throw new CasesFileError(
        file,
        { line: lineAtOffset(text, found.offset) },
        `not valid JSON: ${found.message}`,
      );
    }
    const message = e instanceof Error ? e.message : String(e);
    const lc = /line (\d+) column (\d+)/.exec(message);
    const pos = /position (\d+)/.exec(message);
    let line = lc ? Number(lc[1]) : pos ? lineAtOffset(text, Number(pos[1])) : undefined;
    if (line === undefined) {
      const doc = parseDocument(text, { lineCounter: new LineCounter() });
      line = doc.errors[0]?.linePos?.[0].line;
    }
    // No position anywhere (an empty file, an unfinished list under Bun): the input ended early.
    line ??= lineAtOffset(text, text.trimEnd().length);
    throw new CasesFileError(file, { line }, `not valid JSON: ${message.split("\n")[0]}`);
  }
  if (!Array.isArray(value)) {
    throw new CasesFileError(file, { line: 1 }, "expected a JSON list of cases: [{...}, {...}]");
  }
  let locate: Source["lineOf"] | undefined;
  return {
    items: value,
    lineOf: (index, path, key) => {
      // JSON is YAML: its node ranges give the lines, built only when an error needs them.
      if (locate === undefined) {
        const counter = new LineCounter();
        locate = yamlLocator(parseDocument(text, { lineCounter: counter }), counter);
      }
      return locate(index, path, key);
    },
  };
}

function parseJsonlSource(text: string, file: string): Source {
  const items: string[] = [];
  const lines: number[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    items.push(line);
    lines.push(i + 1);
  });
  const parse = (item: unknown, index: number): unknown =>
    jsonlValue(item as string, lines[index]!, file);
  return { items, parse, lineOf: (index) => lines[index] };
}

/**
 * The value of one line of a JSON lines cases file.
 *
 * @param text the line
 * @param line its 1-based number
 * @param file the file, for the error
 * @returns the parsed value
 * @throws {CasesFileError} when the line is not valid JSON
 */
export function jsonlValue(text: string, line: number, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const message = findJsonError(text)?.message ??
      (e instanceof Error ? e.message.split("\n")[0] : String(e));
    throw new CasesFileError(file, { line }, `not valid JSON: ${message}`);
  }
}

/** A problem that benchmark_files.ts threw, as a value. */
function isProblem(e: unknown): e is BenchmarkProblem {
  return typeof e === "object" && e !== null && "index" in e && "message" in e;
}

/** A JSON list in Spider's or BIRD's own format, as cases; any other list as it is. */
function benchmarkSource(source: Source, file: string): Source {
  const format = benchmarkFormat(source.items);
  if (format === undefined) return source;
  try {
    return {
      items: benchmarkCases(source.items, format),
      lineOf: (i) => source.lineOf(i, [], false),
    };
  } catch (e) {
    if (!isProblem(e)) throw e;
    const line = source.lineOf(e.index, e.path, false) ?? source.lineOf(e.index, [], false);
    const at = `[${e.index}]${
      e.path.map((k) => typeof k === "number" ? `[${k}]` : `.${k}`).join("")
    }`;
    throw new CasesFileError(file, { line }, `${at}: ${e.message} (a ${format} question)`);
  }
}

/** Spider's gold file (`SQL<TAB>db_id` a line), as cases. */
function goldSource(text: string, file: string): Source {
  try {
    const { cases, lines } = goldCases(text, file.split(/[\\/]/).pop() ?? file);
    return { items: cases, lineOf: (index) => lines[index] };
  } catch (e) {
    if (!isProblem(e)) throw e;
    throw new CasesFileError(file, { line: e.index + 1 }, e.message);
  }
}

/**
 * Reads cases from text. The format comes from the file name's extension.
 *
 * @param text the file's content
 * @param fileName the name used for the format and in error messages
 * @returns the cases, with defaults filled in (ordered false, precision 2, tags [], id from the question)
 * @throws {CasesFileError} on any mistake, with the file and line
 * @example
 * ```ts
 * import { parseCases } from "./cases.ts";
 * const [c] = parseCases("- question: How many orders?\n  expect:\n    rows: [{total: 2}]\n", "cases.yaml");
 * c?.id; // "how-many-orders"
 * ```
 */
export function parseCases(text: string, fileName: string): TestCase[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const ext = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  let source: Source;
  if (ext === "yaml" || ext === "yml") source = parseYamlSource(body, fileName);
  else if (ext === "json") source = benchmarkSource(parseJsonSource(body, fileName), fileName);
  else if (ext === "sql" || ext === "txt") source = goldSource(body, fileName);
  else if (ext === "jsonl") source = parseJsonlSource(body, fileName);
  else {
    throw new CasesFileError(
      fileName,
      {},
      "unsupported file type; a cases file ends in .yaml, .yml, .json or .jsonl (or is a benchmark's dev.json or dev_gold.sql)",
    );
  }
  return buildCases(fileName, source);
}

/**
 * Reads a cases file (.yaml, .yml, .json or .jsonl).
 *
 * @param path the file
 * @returns the cases
 * @throws {CasesFileError} when the file cannot be read or has a mistake
 * @example
 * ```ts
 * import { loadCases } from "./cases.ts";
 * const cases = await loadCases("examples/cases.yaml");
 * cases.length; // 5
 * ```
 */
export async function loadCases(path: string): Promise<TestCase[]> {
  let text: string;
  try {
    text = await readTextFile(path);
  } catch (e) {
    throw unreadableError(path, e);
  }
  return parseCases(text, path);
}

/**
 * The error for a cases file that cannot be read.
 *
 * @param path the file
 * @param e what reading it threw
 * @returns the error, saying what to do
 */
export function unreadableError(path: string, e: unknown): CasesFileError {
  const code = (e as { code?: string }).code;
  const why = code === "ENOENT"
    ? "no such file; check the path"
    : code === "EISDIR"
    ? "it is a folder, not a cases file"
    : code === "ENOTREG"
    ? (e as Error).message
    : `cannot read it (${e instanceof Error ? e.message : String(e)})`;
  return new CasesFileError(path, {}, why);
}

/**
 * Builds one case in code, with the same validation and defaults as a file.
 *
 * @param input the case's fields; only `question` is needed
 * @returns the case
 * @throws {CasesFileError} when a field is wrong (the file name is "case")
 * @example
 * ```ts
 * import { defineCase } from "./cases.ts";
 * const c = defineCase({ question: "How many orders are delivered?", expect: { rows: [{ total: 2 }] } });
 * c.precision; // 2
 * ```
 */
export function defineCase(input: CaseInput): TestCase {
  const clean = Object.fromEntries(Object.entries(input).filter(([, x]) => x !== undefined));
  return buildCases("case", { items: [clean], lineOf: () => undefined })[0]!;
}

/**
 * The acceptable results of `expect.rows`: one list of rows, or several.
 *
 * @param expect the case's expect
 * @returns the results, or undefined when expect has no rows
 * @example
 * ```ts
 * import { acceptableResults } from "./cases.ts";
 * acceptableResults({ rows: [] }); // [[]]
 * acceptableResults({ rows: [[{ a: 1 }], [{ a: 2 }]] })?.length; // 2
 * ```
 */
export function acceptableResults(expect: Expect | undefined): Row[][] | undefined {
  const rows = expect?.rows;
  if (rows === undefined) return undefined;
  if (rows.length > 0 && rows.every(Array.isArray)) return (rows as Row[][]).map((r) => [...r]);
  return [[...(rows as Row[])]];
}
