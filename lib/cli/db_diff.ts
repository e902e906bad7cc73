/**
 * `dbagenteval db diff BEFORE AFTER`: diff two SQLite files or two folders.
 *
 * @module
 */
import * as fs from "node:fs";
import process from "node:process";
import { UsageError } from "../errors.ts";
import { walWarning } from "../sqlite/wal_frames.ts";
import { diffFilesystemDatabases } from "../diff/diff_filesystem.ts";
import { diffSqliteDatabases, streamSqliteDiff } from "../diff/diff_sqlite.ts";
import { foldName } from "../diff/names.ts";
import { diffKeys } from "../option_values.ts";
import { diffChanged, renderDiffSummary } from "../diff/render_summary.ts";
import { suggest } from "../suggest.ts";
import type { DiffOptions } from "../diff/options.ts";
import { renderDiffText } from "../diff/render_text.ts";
import { checkOutputs, humanStream } from "../run/output.ts";
import { type DiffFiles, fanOut, openDiffFiles, takesStdout } from "./_diff_files.ts";
import type { DatabaseDiff } from "../diff/types.ts";
import type { watchSelector } from "../../selector/explain.ts";

/** The options cli.ts parses for `db diff`. */
export interface DbDiffOptions {
  readonly json?: string;
  /** Write the diff as one HTML page to this file (`-`: stdout). */
  readonly html?: string;
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
  /** Write SQL that turns BEFORE into AFTER: true or `-` for stdout, or a file. */
  readonly sql?: string | true;
  /** Write the row changes as a SQLite session changeset to this file (`-`: stdout). */
  readonly changeset?: string;
  /** Pair rowid tables by rowid, like plain sqldiff (default: by the declared primary key). */
  readonly rowid?: boolean;
  /** Pair by the declared primary key (the default; sqldiff's --primarykey). */
  readonly primaryKey?: boolean;
  /** `TABLE=COL[,COL...]`: pair the rows of TABLE by these columns. */
  readonly key?: string[];
  /** Columns left out of the comparison: `COL` or `TABLE.COL`, globs. */
  readonly ignore?: string[];
  /** Tables left out, globs. */
  readonly ignoreTable?: string[];
  /** One line per changed table with its counts. */
  readonly summary?: boolean;
  /** Exit 1 when something changed, 0 when not (like git diff --exit-code). */
  readonly exitCode?: boolean;
  /** Print nothing; implies --exit-code. */
  readonly quiet?: boolean;
  /** List the rows of tables added or removed whole (default: one line per such table). */
  readonly tableRows?: boolean;
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
 * something changed), or the selection's exit code with --select; 2 when a
 * file of a folder diff could not be read as a database
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
  // Every FILE output: `-` is stdout; `--sql` alone is stdout too.
  const files: DiffFiles = {
    json: options.json,
    html: options.html,
    sql: options.sql === true ? "-" : options.sql,
    changeset: options.changeset,
  };
  for (const [flag, given] of [["--sql", files.sql], ["--changeset", files.changeset]]) {
    if (given !== undefined && folders) {
      throw new UsageError(
        `${flag} turns one database into another; pass two files, not folders`,
      );
    }
  }
  // A patch must pair rows as the database does and carry every column.
  const aimed = options.key !== undefined
    ? "--key"
    : options.ignore !== undefined
    ? "--ignore"
    : null;
  for (const [flag, given] of [["--sql", files.sql], ["--changeset", files.changeset]]) {
    if (given !== undefined && aimed !== null) {
      throw new UsageError(
        `${flag} writes a patch, which must pair rows by their rowid or primary key and carry every column; ${aimed} aims the diff for reading: drop one of them`,
      );
    }
  }
  if (files.sql !== undefined && options.target !== "both") {
    throw new UsageError("--sql writes schema and data; drop --target");
  }
  checkOutputs({
    "--json": files.json,
    "--html": files.html,
    "--sql": files.sql,
    "--changeset": files.changeset,
  });
  const pattern = options.pattern === undefined ? {} : { dbPatterns: options.pattern };
  const run = (o: DiffOptions): Promise<DatabaseDiff> =>
    folders
      ? diffFilesystemDatabases(a ? before : {}, b ? after : {}, { ...o, ...pattern })
      : diffSqliteDatabases(before, after, o);
  const streams = files.sql !== undefined || files.changeset !== undefined;
  // Streamed outputs are refused before they start; the others once the
  // diff (which reads only the named tables' schemas) shows what it found.
  if (options.table !== undefined && streams) await checkTables(options.table, run);
  if (options.rowid === true && options.primaryKey === true) {
    throw new UsageError("--rowid and --primary-key choose how rows pair; pass one of them");
  }
  const quiet = options.quiet === true;
  const exitCode = options.exitCode === true || quiet;
  const toStdout = takesStdout(files);
  // Rows are kept for the text and the JSON document only: the summary, the
  // exit code and the streamed outputs need counts, and a selector sees
  // every row as it streams and keeps what it needs itself.
  const text = !quiet && !toStdout && options.summary !== true && options.select === undefined;
  const keepRows = text || files.json !== undefined || files.html !== undefined;
  const diffOptions: DiffOptions = {
    includeSchema: options.target !== "data",
    // A changeset holds row changes whatever the plane shown.
    includeData: options.target !== "schema" || files.changeset !== undefined,
    maxRows: keepRows ? options.maxRows : 0,
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    ...(options.rowid === true ? { pairBy: "rowid" as const } : {}),
    ...(options.table === undefined ? {} : { tables: options.table }),
    ...(options.key === undefined ? {} : { keys: diffKeys(options.key) }),
    ...(options.ignore === undefined ? {} : { ignore: options.ignore }),
    ...(options.ignoreTable === undefined ? {} : { ignoreTables: options.ignoreTable }),
  };
  // A selector is asked while the diff runs, so it reads every row change,
  // not only the --max-rows the diff keeps.
  // Loaded only then: the selector's YAML parser and matcher are a tenth of
  // a second of `deno run`'s start, on a diff that may take less.
  const watch = options.select === undefined ? undefined : await selectorWatch(options.select);
  const outputs = openDiffFiles(files, {
    tables: options.table,
    page: { before, after, target: options.target },
  });
  let diff: DatabaseDiff;
  try {
    const listener = fanOut([
      ...outputs.listeners,
      ...(watch === undefined ? [] : [watch.listener]),
    ]);
    diff = folders
      ? await diffFilesystemDatabases(a ? before : {}, b ? after : {}, {
        ...diffOptions,
        ...pattern,
        listener,
      })
      : await streamSqliteDiff(before, after, diffOptions, listener);
    if (options.table !== undefined && !streams) await checkTables(options.table, run, diff);
  } catch (e) {
    outputs.close();
    throw e;
  }
  outputs.finish(diff);
  const code = await printDiff(diff, options, { watch, files, exitCode });
  return unreadable(diff) ? 2 : code;
}

/** Prints the diff as asked (nothing with --quiet or an output on stdout); the exit code. */
async function printDiff(
  diff: DatabaseDiff,
  options: DbDiffOptions,
  how: {
    watch: ReturnType<typeof watchSelector> | undefined;
    files: DiffFiles;
    exitCode: boolean;
  },
): Promise<number> {
  const { watch, files } = how;
  if (watch !== undefined) {
    const { printExplanation } = await import("./_select.ts");
    // With an output on stdout (--json -), the explanation goes to stderr.
    return printExplanation(
      watch.explain(diff),
      humanStream([files.json, files.html, files.sql, files.changeset]),
    );
  }
  const changed = how.exitCode && diffChanged(diff, options.target) ? 1 : 0;
  if (options.quiet === true || takesStdout(files)) return changed;
  if (options.summary === true) process.stdout.write(renderDiffSummary(diff, options.target));
  else {
    process.stdout.write(
      renderDiffText(diff, {
        target: options.target,
        showUnchanged: options.unchanged === true,
        tableRows: options.tableRows === true,
      }),
    );
  }
  return changed;
}

/**
 * Names on stderr, one line each, the files of a folder diff that matched
 * the patterns but could not be read as databases (the diff lists them with
 * their error, and diffs the others): such a diff is not the whole answer,
 * so the command exits 2 whatever it printed.
 */
function unreadable(diff: DatabaseDiff): boolean {
  const bad = diff.databases.filter((d) => d.error !== null);
  for (const d of bad) {
    process.stderr.write(
      `error: ${d.error}; the diff of the folders lacks it: choose the database files with --pattern\n`,
    );
  }
  return bad.length > 0;
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

async function selectorWatch(file: string): Promise<ReturnType<typeof watchSelector>> {
  const [{ watchSelector }, { readSelector }] = await Promise.all([
    import("../../selector/explain.ts"),
    import("../../selector/read.ts"),
  ]);
  return watchSelector(await readSelector(file));
}
