/**
 * The shell blocks of a documentation page and the output the page shows
 * for each: what tests/docs_commands_test.ts runs for every page, and what a
 * page's own test (tests/git_diff_test.ts) runs in the setting it needs.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "./cli.ts";

/** One shell block of a page. */
export interface Block {
  readonly file: string;
  readonly line: number;
  readonly script: string;
  readonly expected: string | undefined;
  readonly skip: string | undefined;
  /** Marked `<!-- needs a PostgreSQL server -->`: runs against the test server. */
  readonly server: boolean;
}

/**
 * The shell blocks of a page (a path from the repository's root) that call
 * dbagenteval, with their expected output; with `all`, every shell block.
 */
export function blocks(file: string, all = false): Block[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const found: Block[] = [];
  const fence = /^( *)```(\w*)\n([\s\S]*?)^\1```\n/gm;
  let m: RegExpExecArray | null;
  while ((m = fence.exec(text)) !== null) {
    const [whole, indent, lang, body] = m;
    if (!["sh", "bash", "shell"].includes(lang!)) continue;
    const script = body!.replace(new RegExp(`^${indent}`, "gm"), "");
    if (!all && !/(^|[\s;&|(])dbagenteval\s/m.test(script.replace(/#.*$/gm, ""))) continue;
    const before = text.slice(0, m.index).trimEnd();
    const skip = /<!-- not run: ([^>]*?) -->$/.exec(before)?.[1];
    const server = before.endsWith("<!-- needs a PostgreSQL server -->");
    const rest = text.slice(m.index + whole.length);
    const next = /^\s*\n?( *)```(text)?\n([\s\S]*?)^\1```\n/my.exec(rest);
    const expected = next === null
      ? undefined
      : next[3]!.replace(new RegExp(`^${next[1]}`, "gm"), "");
    found.push({
      file,
      line: text.slice(0, m.index).split("\n").length,
      script,
      expected,
      skip,
      server,
    });
  }
  return found;
}

/** Each line of `expected` in `output`, in order; `...` skips any lines. */
export function printsWhatThePageSays(output: string, expected: string): string | undefined {
  const got = output.split("\n").map((l) => l.trimEnd());
  let at = 0;
  for (const want of expected.split("\n").map((l) => l.trimEnd())) {
    if (want === "" || want.trim() === "...") continue;
    const found = got.indexOf(want, at);
    if (found === -1) return `expected the line ${JSON.stringify(want)}`;
    at = found + 1;
  }
  return undefined;
}
