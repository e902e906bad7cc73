/**
 * `dbagenteval db diff BEFORE AFTER`: diff two SQLite files or two folders.
 *
 * @module
 */
import { BufferedFile } from "./_write_all.ts";
import * as fs from "node:fs";
import process from "node:process";
import { UsageError } from "../errors.ts";
import { walWarning } from "../sqlite/wal_frames.ts";
import { diffFilesystemDatabases } from "../diff/diff_filesystem.ts";
import { diffSqliteDatabases, streamSqliteDiff } from "../diff/diff_sqlite.ts";
import { foldName } from "../diff/names.ts";
import { SqlRenderer } from "../diff/render_sql.ts";
import { ChangesetRenderer } from "../diff/render_changeset.ts";
import { diffChanged, renderDiffSummary } from "../diff/render_summary.ts";
import { suggest } from "../../selector/_text.ts";
import { writeDiffJson } from "../diff/json.ts";
import type { DiffOptions } from "../diff/options.ts";
import { renderDiffText } from "../diff/render_text.ts";
import { humanStream } from "./_output.ts";
import { watchSelector } from "../../selector/explain.ts";
import { readSelector } from "../../selector/read.ts";
import type { DatabaseDiff } from "../diff/types.ts";

/** The options cli.ts parses for `db diff`. */
export interface DbDiffOptions {
  readonly json?: string;
  readonly target: "data" | "schema" | "both";
  readonly maxRows: number;
  /** Most bytes of values kept in row changes per database. */
  readonly maxBytes?: number;
  /** List unchanged tables one per line in the text output. */
  readonly unchanged?: boolean;
  readonly table?: string[];
  readonly pattern?: string[];
  readonly select?: string;
  /** A missing BEFORE or AFTER is an empty side (every row added or removed), not an error. */
  readonly missingAsEmpty?: boolean;
  /** Write SQL that turns BEFORE into AFTER: true for stdout, or a file. */
  readonly sql?: string | true;
  /** Write the row changes as a SQLite session changeset to this file. */
  readonly changeset?: string;
  /** Pair rowid tables by rowid, like plain sqldiff (default: by the declared primary key). */
  readonly rowid?: boolean;
  /** Pair by the declared primary key (the default; sqldiff's --primarykey). */
  readonly primaryKey?: boolean;
  /** One line per changed table with its counts. */
  readonly summary?: boolean;
  /** Exit 1 when something changed, 0 when not (like git diff --exit-code). */
  readonly exitCode?: boolean;
  /** Print nothing; implies --exit-code. */
  readonly quiet?: boolean;
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
 * @returns 0 (with or without differences; with --exit-code or --quiet 1 when
 * something changed), or the selection's exit code with --select
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
  if (!folders) {
    // SQLite skips a damaged -wal's later commits without a word: say so.
    for (const side of [before, after]) {
      const warning = walWarning(side);
      if (warning !== undefined) process.stderr.write(`${warning}\n`);
    }
  }
  for (const [flag, given] of [["--sql", options.sql], ["--changeset", options.changeset]]) {
    if (given !== undefined && folders) {
      throw new UsageError(
        `${flag} turns one database into another; pass two files, not folders`,
      );
    }
  }
  const pattern = options.pattern === undefined ? {} : { dbPatterns: options.pattern };
  const run = (o: DiffOptions): Promise<DatabaseDiff> =>
    folders
      ? diffFilesystemDatabases(a ? before : {}, b ? after : {}, { ...o, ...pattern })
      : diffSqliteDatabases(before, after, o);
  const streams = options.sql !== undefined || options.changeset !== undefined;
  // Streamed outputs are refused before they start; the others once the
  // diff (which reads only the named tables' schemas) shows what it found.
  if (options.table !== undefined && streams) await checkTables(options.table, run);
  if (options.rowid === true && options.primaryKey === true) {
    throw new UsageError("--rowid and --primary-key choose how rows pair; pass one of them");
  }
  const quiet = options.quiet === true;
  const exitCode = options.exitCode === true || quiet;
  // The summary and the exit code need exact counts only, not rows; a
  // selector sees every row as it streams and keeps what it needs itself.
  const countsOnly = (options.summary === true || quiet || options.select !== undefined) &&
    options.json === undefined;
  const diffOptions: DiffOptions = {
    includeSchema: options.target !== "data",
    includeData: options.target !== "schema",
    maxRows: countsOnly ? 0 : options.maxRows,
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    ...(options.rowid === true ? { pairBy: "rowid" as const } : {}),
    ...(options.table === undefined ? {} : { tables: options.table }),
  };
  if (options.sql !== undefined) {
    return await writeSql(before, after, options.sql, diffOptions, exitCode);
  }
  if (options.changeset !== undefined) {
    return await writeChangeset(before, after, options.changeset, diffOptions, exitCode);
  }
  // A selector is asked while the diff runs, so it reads every row change,
  // not only the --max-rows the diff keeps.
  const watch = options.select === undefined
    ? undefined
    : watchSelector(await readSelector(options.select));
  const listener = watch?.listener ?? {};
  let diff: DatabaseDiff;
  if (folders) {
    diff = await diffFilesystemDatabases(a ? before : {}, b ? after : {}, {
      ...diffOptions,
      ...(options.pattern === undefined ? {} : { dbPatterns: options.pattern }),
      listener,
    });
  } else {
    diff = await streamSqliteDiff(before, after, diffOptions, listener);
  }
  if (options.table !== undefined) await checkTables(options.table, run, diff);
  if (options.json !== undefined) writeJson(options.json, diff);
  if (watch !== undefined) {
    const { printExplanation } = await import("./_select.ts");
    // With the JSON on stdout (--json -), the explanation goes to stderr.
    return printExplanation(watch.explain(diff), humanStream([options.json]));
  }
  if (quiet) return diffChanged(diff, options.target) ? 1 : 0;
  if (options.summary === true) process.stdout.write(renderDiffSummary(diff, options.target));
  else if (options.json !== "-") {
    process.stdout.write(
      renderDiffText(diff, { target: options.target, showUnchanged: options.unchanged === true }),
    );
  }
  return exitCode && diffChanged(diff, options.target) ? 1 : 0;
}

/**
 * Refuses a --table name that no database has on either side, with the
 * nearest name: a typo would otherwise print "unchanged" and exit 0.
 */
async function checkTables(
  wanted: readonly string[],
  run: (o: DiffOptions) => Promise<DatabaseDiff>,
  done?: DatabaseDiff,
): Promise<void> {
  const namesIn = (diff: DatabaseDiff): string[] => [
    ...new Set(diff.databases.flatMap((d) => [...d.tables, ...d.skipped].map((t) => t.name))),
  ];
  const namesOf = async (tables?: readonly string[]): Promise<string[]> =>
    namesIn(
      await run({
        includeData: false,
        includeSchema: true,
        maxRows: 0,
        ...(tables === undefined ? {} : { tables }),
      }),
    );
  // Only the named tables' schemas are read; every name only when one is missing.
  const found = new Set((done === undefined ? await namesOf(wanted) : namesIn(done)).map(foldName));
  if (wanted.every((name) => found.has(foldName(name)))) return;
  const names = await namesOf();
  const folded = new Set(names.map(foldName));
  for (const name of wanted) {
    if (folded.has(foldName(name))) continue;
    const near = suggest(name, names);
    throw new UsageError(
      `Unknown table "${name}" (--table): no database has it on either side; ${
        near !== undefined
          ? `did you mean "${near}"?`
          : names.length > 0
          ? `the tables are ${names.slice(0, 20).join(", ")}${names.length > 20 ? ", ..." : ""}`
          : "the databases have no tables"
      }`,
    );
  }
}

/**
 * `--json FILE` (or `-`, stdout): the document written as it is serialised,
 * never as one string (a wide table's kept rows make tens of MB of text).
 */
function writeJson(target: string, diff: DatabaseDiff): void {
  const fd = target === "-" ? 1 : fs.openSync(target, "w");
  try {
    const out = new BufferedFile(fd);
    writeDiffJson(diff, (text) => out.text(text));
    out.text("\n");
    out.flush();
  } finally {
    if (fd !== 1) fs.closeSync(fd);
  }
}

/** `--changeset FILE`: streams the session changeset into FILE. */
async function writeChangeset(
  before: string,
  after: string,
  file: string,
  options: DiffOptions,
  exitCode: boolean,
): Promise<number> {
  const fd = fs.openSync(file, "w");
  const out = new BufferedFile(fd);
  const renderer = new ChangesetRenderer(out);
  try {
    const diff = await streamSqliteDiff(
      before,
      after,
      { ...options, includeData: true, maxRows: 0 },
      renderer,
    );
    out.flush();
    for (const o of renderer.omitted) {
      process.stderr.write(`note: ${o.table} is not in the changeset (${o.reason})\n`);
    }
    return exitCode && diffChanged(diff) ? 1 : 0;
  } finally {
    fs.closeSync(fd);
  }
}

/** `--sql [FILE]`: streams the SQL to stdout or FILE as the diff goes. */
async function writeSql(
  before: string,
  after: string,
  target: string | true,
  options: DiffOptions,
  exitCode: boolean,
): Promise<number> {
  if (options.includeSchema === false || options.includeData === false) {
    throw new UsageError("--sql writes schema and data; drop --target");
  }
  const fd = target === true ? 1 : fs.openSync(target, "w");
  // Writes are gathered into 1 MiB chunks and written synchronously, so
  // memory stays flat however many rows stream through.
  const out = new BufferedFile(fd);
  const keep = options.tables === undefined
    ? undefined
    : ((names) => (table: string) => names.has(foldName(table)))(
      new Set(options.tables.map(foldName)),
    );
  const renderer = new SqlRenderer({
    write: (text) => out.text(text),
  }, keep);
  try {
    const diff = await streamSqliteDiff(before, after, { ...options, maxRows: 0 }, renderer);
    out.flush();
    return exitCode && diffChanged(diff) ? 1 : 0;
  } finally {
    if (fd !== 1) fs.closeSync(fd);
  }
}
