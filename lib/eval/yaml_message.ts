/**
 * Turns the yaml package's parse errors into one line that says what to
 * change in the file. Its own wording names YAML's grammar ("Nested mappings
 * are not allowed in compact mappings"); the mistakes people make in cases
 * and config files are few and each has a plain fix: a `: ` or a leading
 * quote inside an unquoted question, a tab, a value starting with `@` or `*`.
 *
 * @module
 */
import type { YAMLError } from "yaml";

/** The line `line` (1-based) of `text`, without its newline. */
function lineText(text: string, line: number | undefined): string {
  if (line === undefined) return "";
  return text.split("\n")[line - 1]?.replace(/\r$/, "") ?? "";
}

/** `key: value` split at the key's colon, keeping the list dash and indentation. */
function keyValue(line: string): { key: string; value: string } | undefined {
  const m = /^(\s*(?:-\s+)?[\w$.-]+):\s+(.*)$/.exec(line);
  return m === null ? undefined : { key: m[1]!.trim(), value: m[2]!.trim() };
}

function quoted(kv: { key: string; value: string }): string {
  return `${kv.key.replace(/^-\s*/, "")}: ${JSON.stringify(kv.value)}`;
}

/**
 * The one-line message for a YAML parse error, with a hint for common mistakes.
 *
 * @param error the first of the document's errors
 * @param text the file's text, to read the line the error is on
 * @returns the message, without the file and line (the caller adds them)
 * @example
 * ```ts
 * import { parseDocument } from "yaml";
 * import { yamlErrorMessage } from "./yaml_message.ts";
 * const text = "- question: Sales: how many?\n";
 * const doc = parseDocument(text);
 * yamlErrorMessage(doc.errors[0]!, text);
 * // 'not valid YAML: the value holds ": " (a colon and a space), which YAML reads as
 * //  a key; put the value in quotes: question: "Sales: how many?"'
 * ```
 */
export function yamlErrorMessage(error: YAMLError, text: string): string {
  const line = lineText(text, error.linePos?.[0]?.line);
  const kv = keyValue(line);
  const plain = error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
  let hint: string | undefined;
  if (error.code === "MULTIPLE_DOCS") {
    return "the file has more than one document (a second ---); put everything in one";
  }
  if (/^\s*\t/.test(line)) {
    hint = "YAML indents with spaces, not tabs; replace the tab";
  } else if (error.code === "BLOCK_AS_IMPLICIT_KEY" && kv !== undefined && /:\s/.test(kv.value)) {
    hint = `the value holds ": " (a colon and a space), which YAML reads as a key; ` +
      `put the value in quotes: ${quoted(kv)}`;
  } else if (error.code === "BLOCK_AS_IMPLICIT_KEY" || error.code === "MULTILINE_IMPLICIT_KEY") {
    hint = "check the indentation: keys of one mapping start in the same column";
  } else if (error.code === "BAD_SCALAR_START" && kv !== undefined) {
    hint = `a value cannot start with ${kv.value[0]} unquoted; put it in quotes: ${quoted(kv)}`;
  } else if (error.code === "UNEXPECTED_TOKEN" && kv !== undefined && /^['"]/.test(kv.value)) {
    hint = `a value that starts with a quote must end with it; quote all of it: ${quoted(kv)}`;
  } else if (error.code === "UNEXPECTED_TOKEN" && kv !== undefined && /^[*&!]/.test(kv.value)) {
    hint = `${kv.value[0]} at the start of a value is YAML syntax; put the value in quotes: ` +
      quoted(kv);
  } else if (error.code === "BAD_INDENT" && /^Flow (sequence|map)/.test(plain)) {
    // Reported where the list ended up unclosed: name the key that opened it.
    const lines = text.split("\n").slice(0, error.linePos?.[0]?.line ?? 0).reverse();
    const open = lines.map(keyValue).find((k) => k !== undefined && /^[[{]/.test(k.value));
    const bracket = /^Flow sequence/.test(plain) ? "[" : "{";
    const name = open === undefined ? "" : `${open.key.replace(/^-\s*/, "")}: `;
    hint = `${name}a value starting with ${bracket} is a YAML ${
      bracket === "[" ? "list" : "mapping"
    } and must be closed; if it is text, put it in quotes`;
  } else if (error.code === "DUPLICATE_KEY") {
    hint = `${kv?.key.replace(/^-\s*/, "") ?? "a key"} appears twice in the same mapping`;
  } else if (error.code === "MISSING_CHAR" && /without - indicator/.test(plain)) {
    hint = "a list item starts with - and its keys line up under the first one";
  }
  return hint === undefined ? `not valid YAML: ${plain}` : `not valid YAML: ${hint}`;
}
