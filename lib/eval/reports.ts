/**
 * The report formats, in the order a command writes them. A format is its
 * file (the renderer and its `ReportWriter`) and its entry here: its option
 * in {@link REPORT_OPTIONS} (which `run`, `merge` and `report` take, and
 * the config file reads as a key) and its writer in {@link REPORT_WRITERS},
 * a record keyed by the option, so an option without a writer (or a writer
 * without an option) does not compile. The writers load on first use: this
 * file is read when the CLI starts and stays small.
 *
 * @module
 */
import process from "node:process";
import type { ReportWriter } from "./report.ts";
import type { OptionRow } from "../option_values.ts";

/**
 * The options of the report formats.
 *
 * @example
 * ```ts
 * import { REPORT_OPTIONS } from "./reports.ts";
 * REPORT_OPTIONS.map((r) => r.key); // ["json", "md", "junit", "html", "github"]
 * ```
 */
export const REPORT_OPTIONS = [
  {
    flags: "--json <file>",
    key: "json",
    kind: "output",
    description: "save the full result as JSON (diff reads it; - for stdout)",
  },
  {
    flags: "--md <file>",
    key: "md",
    kind: "output",
    description: "save a short Markdown report (- for stdout)",
  },
  {
    flags: "--junit <file>",
    key: "junit",
    kind: "output",
    description: "save a JUnit XML report (GitLab, Jenkins, GitHub actions)",
  },
  {
    flags: "--html <file>",
    key: "html",
    kind: "output",
    description: "save a self-contained HTML report",
  },
  {
    flags: "--github",
    key: "github",
    kind: "boolean",
    description:
      "GitHub Actions annotations and job summary (on by itself when GITHUB_ACTIONS=true)",
  },
] as const satisfies readonly OptionRow[];

/** A report format's name: the key of its option (`md`, `junit`, ...). */
export type ReportKey = (typeof REPORT_OPTIONS)[number]["key"];

/**
 * Each format's writer, loaded when a run is written.
 *
 * @example
 * ```ts
 * import { REPORT_WRITERS } from "./reports.ts";
 * typeof (await REPORT_WRITERS.md()); // "function"
 * ```
 */
export const REPORT_WRITERS: Readonly<Record<ReportKey, () => Promise<ReportWriter>>> = {
  json: async () => (await import("./run_file_json.ts")).writeRunFileReport,
  md: async () => (await import("./report_md.ts")).writeMarkdownReport,
  junit: async () => (await import("./report_junit.ts")).writeJunitReport,
  html: async () => (await import("./report_html.ts")).writeHtmlReport,
  github: async () => (await import("./report_github.ts")).writeGithubReport,
};

/**
 * Whether the options ask for a format: its option was given, and for
 * GitHub's also `GITHUB_ACTIONS=true` (which GitHub sets in every workflow
 * step).
 *
 * @param key the format
 * @param value its option's value
 * @returns true to write it
 * @example
 * ```ts
 * import { reportWanted } from "./reports.ts";
 * reportWanted("md", "report.md"); // true
 * reportWanted("junit", undefined); // false
 * ```
 */
export function reportWanted(key: ReportKey, value: unknown): boolean {
  if (key === "github") return value === true || process.env["GITHUB_ACTIONS"] === "true";
  return value !== undefined;
}
