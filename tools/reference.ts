#!/usr/bin/env -S deno run --allow-all
/**
 * Writes the "Commands" part of docs/reference.md from the CLI's own help:
 * every command and subcommand, every option, exactly as `dbagenteval help
 * COMMAND` prints it. tests/reference_doc_test.ts fails when the page and
 * the CLI differ; then run
 *
 *     deno run --allow-all tools/reference.ts
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");
/** The file and the markers around the generated part. */
export const REFERENCE = path.join(ROOT, "docs", "reference.md");
const START = "<!-- commands:start (written by tools/reference.ts) -->";
const END = "<!-- commands:end -->";

/** Runs the CLI with some arguments and returns what it printed on stdout. */
export type RunHelp = (args: string[]) => string;

function subcommands(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1] ?? "";
  return [...section.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]!).filter((c) => c !== "help");
}

/**
 * The generated part: one heading and help text per command, depth first.
 *
 * @param run how to run the CLI
 * @returns the Markdown between the markers
 */
export function commandsReference(run: RunHelp): string {
  const out: string[] = [];
  const visit = (names: string[]) => {
    const help = run(names.length === 0 ? ["--help"] : ["help", ...names]).trimEnd();
    const title = ["dbagenteval", ...names].join(" ");
    out.push(`### \`${title}\``, "", "```text", help, "```", "");
    for (const sub of subcommands(help)) visit([...names, sub]);
  };
  visit([]);
  return out.join("\n");
}

/**
 * The page with its generated part replaced.
 *
 * @param page the page's text
 * @param generated the commands part
 * @returns the new text
 */
export function withCommands(page: string, generated: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start === -1 || end === -1) throw new Error(`${REFERENCE}: the markers are missing`);
  return `${page.slice(0, start + START.length)}\n\n${generated}\n${page.slice(end)}`;
}

if (import.meta.main) {
  const run: RunHelp = (args) => {
    const r = spawnSync(process.execPath, ["run", "--allow-all", "--quiet", "cli.ts", ...args], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", COLUMNS: "80" },
    });
    return r.stdout;
  };
  const page = fs.readFileSync(REFERENCE, "utf8");
  fs.writeFileSync(REFERENCE, withCommands(page, commandsReference(run)));
  console.log(`wrote ${path.relative(process.cwd(), REFERENCE)}`);
}
