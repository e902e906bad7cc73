/**
 * {@link readSelector}: a selector from a file, or written inline on the
 * command line, in JSON or YAML.
 *
 * @module
 */
import * as fs from "node:fs";
import { parse as parseYaml } from "yaml";
import { SelectorError } from "../lib/errors.ts";
import { readTextFile } from "../lib/read_text_file.ts";
import { parseSelector } from "./match.ts";
import type { Selector } from "./types.ts";

// A path that exists and is not a folder is read as a file (a FIFO or a
// device is refused by readTextFile rather than parsed as inline text).
function isFile(path: string): boolean {
  try {
    return !fs.statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The parsed document with integers that fit in 2^53 as numbers; larger ones
 * stay bigints, so `{"id": 9007199254740993}` is not rounded to
 * 9007199254740992 on its way to an exact comparison.
 */
function narrowIntegers(value: unknown): unknown {
  if (typeof value === "bigint") {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value;
  }
  if (Array.isArray(value)) return value.map(narrowIntegers);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, narrowIntegers(v)]));
  }
  return value;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}

/**
 * The yaml package's message on one line. Its first line ends with a colon
 * that introduced an excerpt on the lines below (`... at line 1, column 67:`);
 * cut there it dangles, so the colon goes and a few characters before the
 * position take the excerpt's place: `... at line 1, column 67, just after
 * ...{"id":9999}}}`.
 */
function yamlProblem(error: unknown, text: string): string {
  const message = firstLine(error).replace(/:\s*$/, "");
  const at = (error as { linePos?: readonly { line: number; col: number }[] }).linePos?.[0];
  if (at === undefined) return message;
  const line = text.split("\n")[at.line - 1]?.replace(/\r$/, "") ?? "";
  const before = line.slice(Math.max(0, at.col - 1 - 24), at.col - 1);
  if (before.trim() === "") return message;
  return `${message}, just after ${before.length < at.col - 1 ? "..." : ""}${before}`;
}

/**
 * Reads a selector: from the file `fileOrInline` names when it exists, else
 * from the text itself as inline JSON or YAML. A top-level `selector:` key is
 * unwrapped.
 *
 * @param fileOrInline a file path, or the selector's text
 * @returns the validated selector
 * @throws {SelectorError} for unreadable, unparsable or invalid selectors
 * @example
 * ```ts
 * import { readSelector } from "./mod.ts";
 * await readSelector('{"rows": {"added": "role"}}');
 * await readSelector("selector:\n  tables:\n    name: users\n");
 * ```
 */
export async function readSelector(fileOrInline: string): Promise<Selector> {
  const fromFile = isFile(fileOrInline);
  let text = fileOrInline;
  if (fromFile) {
    try {
      text = await readTextFile(fileOrInline);
    } catch (error) {
      throw new SelectorError(
        "",
        `cannot read selector file "${fileOrInline}": ${firstLine(error)}`,
      );
    }
  }
  const source = fromFile ? `selector file "${fileOrInline}"` : "inline selector";
  let document: unknown;
  try {
    document = narrowIntegers(parseYaml(text, { intAsBigInt: true }));
  } catch (error) {
    throw new SelectorError(
      "",
      `${source} is not valid JSON or YAML: ${
        yamlProblem(error, text)
      }; check its brackets and quotes`,
    );
  }
  if (!fromFile && (typeof document === "string" || document === null)) {
    throw new SelectorError(
      "",
      `"${fileOrInline}" is neither a file nor an inline selector; ` +
        `give a selector file's path or a JSON/YAML object such as '{"rows": {"added": "role"}}'`,
    );
  }
  if (!fromFile) return parseSelector(document);
  if (document === null) {
    throw new SelectorError(
      "",
      `selector file "${fileOrInline}" is empty; write a selector in it, such as rows: {added: role}`,
    );
  }
  // A mistake in a file names the file, then the JSON path inside it.
  try {
    return parseSelector(document);
  } catch (error) {
    if (!(error instanceof SelectorError)) throw error;
    const what = error.jsonPath === ""
      ? error.message
      : error.message.slice(error.jsonPath.length + 2);
    throw new SelectorError(error.jsonPath, what, { file: fileOrInline });
  }
}
