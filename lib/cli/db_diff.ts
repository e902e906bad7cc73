/**
 * `dbagenteval db diff BEFORE AFTER`: diff two SQLite files or two folders.
 *
 * @module
 */
import * as fs from "node:fs";
import process from "node:process";
import { UsageError } from "../errors.ts";
import { diffFilesystemDatabases } from "../diff/diff_filesystem.ts";
import { diffSqliteDatabases } from "../diff/diff_sqlite.ts";
import { diffToJson } from "../diff/json.ts";
import type { DiffOptions } from "../diff/options.ts";
import { renderDiffText } from "../diff/render_text.ts";
import { humanStream } from "./_output.ts";
import type { DatabaseDiff } from "../diff/types.ts";

/** The options cli.ts parses for `db diff`. */
export interface DbDiffOptions {
  readonly json?: string;
  readonly target: "data" | "schema" | "both";
  readonly maxRows: number;
  readonly table?: string[];
  readonly pattern?: string[];
  readonly select?: string;
  /** A missing BEFORE or AFTER is an empty side (every row added or removed), not an error. */
  readonly missingAsEmpty?: boolean;
}

// null when nothing is at the path; a path that is there but cannot be
// looked at (a symlink loop, no permission) is a file, which opening reports.
function isFolder(path: string): boolean | null {
  try {
    return fs.statSync(path).isDirectory();
  } catch (e) {
    const code = (e as { code?: string }).code;
    return code === "ENOENT" || code === "ENOTDIR" ? null : false;
  }
}

/**
 * Diffs BEFORE and AFTER and prints the result.
 *
 * @param before a file or folder
 * @param after a file or folder
 * @param options the parsed command-line options
 * @returns 0 (with or without differences), or the selection's exit code with --select
 */
export async function dbDiffCommand(
  before: string,
  after: string,
  options: DbDiffOptions,
): Promise<number> {
  const a = isFolder(before);
  const b = isFolder(after);
  if (a === null && b === null) {
    throw new UsageError(`Neither "${before}" nor "${after}" exists; check the paths`);
  }
  // A missing side means "no database there" only when asked for: named on
  // the command line, it is more often a typo.
  const missing = a === null ? before : b === null ? after : null;
  if (missing !== null && options.missingAsEmpty !== true) {
    throw new UsageError(
      `Cannot open "${missing}": no such file or folder; check the path, or pass --missing-as-empty to diff against an empty side`,
    );
  }
  const folders = a === true || b === true;
  if (folders && (a === false || b === false)) {
    throw new UsageError(
      `Cannot diff a folder with a file ("${before}", "${after}"); pass two files or two folders`,
    );
  }
  if (!folders && options.pattern !== undefined) {
    throw new UsageError("--pattern applies to folders only; pass two folders or drop --pattern");
  }
  const diffOptions: DiffOptions = {
    includeSchema: options.target !== "data",
    includeData: options.target !== "schema",
    maxRows: options.maxRows,
    ...(options.table === undefined ? {} : { tables: options.table }),
  };
  let diff: DatabaseDiff;
  if (folders) {
    diff = await diffFilesystemDatabases(a ? before : {}, b ? after : {}, {
      ...diffOptions,
      ...(options.pattern === undefined ? {} : { dbPatterns: options.pattern }),
    });
  } else {
    diff = await diffSqliteDatabases(before, after, diffOptions);
  }
  if (options.json !== undefined) {
    const text = `${diffToJson(diff)}\n`;
    if (options.json === "-") process.stdout.write(text);
    else fs.writeFileSync(options.json, text);
  }
  if (options.select !== undefined) {
    const { printSelection } = await import("./_select.ts");
    // With the JSON on stdout (--json -), the explanation goes to stderr.
    return await printSelection(diff, options.select, humanStream([options.json]));
  }
  if (options.json !== "-") process.stdout.write(renderDiffText(diff, { target: options.target }));
  return 0;
}
