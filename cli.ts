#!/usr/bin/env -S deno run --allow-all
/**
 * The `dbagenteval` command line. It parses arguments, hands each command to
 * its module in lib/cli/ (imported only when that command runs, so start-up
 * stays fast), and turns errors into one line on stderr and exit code 2.
 *
 * @module
 */
import { Command, CommanderError, Option } from "@commander-js/extra-typings";
import process from "node:process";
import { VERSION } from "./lib/version.ts";
import { DEFAULT_MAX_BYTES } from "./lib/diff/options.ts";
import { bytes, collect, integer, toOption } from "./lib/cli/options.ts";
import {
  ALLOW_SUPERUSER_OPTION,
  REPORT_OPTIONS,
  RUN_OPTION_ROWS,
  SQL_LIMIT_OPTIONS,
} from "./lib/eval/run_options.ts";
import type { ParsedRunOptions } from "./lib/eval/run_options.ts";
import type { ReportOptions } from "./lib/run/reports.ts";
import { normalizeArgv, polishCommands } from "./lib/cli/polish.ts";
import { CLOSED_PIPE_EXIT, endQuietlyOnClosedPipe, isClosedPipe } from "./lib/cli/closed_pipe.ts";

endQuietlyOnClosedPipe();

const program = new Command("dbagenteval")
  .description("Diff SQLite databases and test text-to-SQL agents.")
  .version(VERSION, "-V, --version", "print the version")
  .showSuggestionAfterError(true)
  .exitOverride();

const db = program.command("db").description("inspect and diff SQLite databases");

db.command("info")
  .description("print a SQLite file's tables, row counts, page size, encoding and journal mode")
  .argument("<path>", "the database file")
  .option("--json", "print JSON instead of text")
  .option("--schema", "also print each table's columns, key, indexes and triggers, and the views")
  .action(async (path, options) => {
    const { dbInfoCommand } = await import("./lib/cli/db_info.ts");
    process.exitCode = await dbInfoCommand(path, options);
  });

db.command("dump")
  .description(
    "print a SQLite file as SQL text, one line per row in key order (git's textconv: see docs/how-to/diff-databases-in-git.md)",
  )
  .argument("<path>", "the database file")
  .action(async (path) => {
    const { dbDumpCommand } = await import("./lib/cli/db_dump.ts");
    process.exitCode = await dbDumpCommand(path);
  });

db.command("diff")
  .description("diff two SQLite files, or two folders of them")
  .argument("<before>", "the file or folder before")
  .argument("<after>", "the file or folder after")
  .option("--json <file>", "write the diff document as JSON to a file (- for stdout)")
  .option(
    "--html <file>",
    "write the diff as one self-contained HTML page to a file (- for stdout); --max-rows rows of each kind per table",
  )
  .addOption(
    new Option("--target <plane>", "which changes to show").choices(
      ["data", "schema", "both"] as const,
    )
      .default("both" as const),
  )
  .option("--max-rows <n>", "most row changes kept per table and kind", integer(0), 1000)
  .option(
    "--max-bytes <size>",
    "most bytes of values kept in row changes per database (e.g. 64M); counts stay exact",
    bytes,
    DEFAULT_MAX_BYTES,
  )
  .option("--table <name>", "only this table (repeatable)", collect)
  .option("--unchanged", "list unchanged tables one per line (default: counted in one line)")
  .option(
    "--table-rows",
    "list the rows of tables added or removed whole (default: one line per such table)",
  )
  .option("--pattern <glob>", "database file pattern for folders (repeatable)", collect)
  .option(
    "--select <selector>",
    "a selector (file or inline JSON/YAML): exit 0 if it matches, 1 if not, 2 if it cannot tell",
  )
  .option(
    "--missing-as-empty",
    "a BEFORE or AFTER that does not exist is an empty side (every row added or removed), not an error",
  )
  .option(
    "--sql [file]",
    "write SQL that turns BEFORE into AFTER (schema and data), to FILE (- or none: stdout)",
  )
  .option(
    "--changeset <file>",
    "write the row changes as a SQLite session changeset to FILE (- for stdout)",
  )
  .option(
    "--primary-key",
    "pair rows by the declared primary key (the default, like sqldiff --primarykey)",
  )
  .option("--rowid", "pair rows of rowid tables by rowid, like plain sqldiff")
  .option(
    "--key <table=columns>",
    "pair the rows of TABLE by these columns, e.g. users=email or t=a,b (repeatable)",
    collect,
  )
  .option(
    "--ignore <column>",
    "leave COLUMN or TABLE.COLUMN out of the comparison and the rows (repeatable, globs)",
    collect,
  )
  .option("--ignore-table <table>", "leave TABLE out of the diff (repeatable, globs)", collect)
  .option("--summary", "one line per changed table with its row counts")
  .option("--exit-code", "exit 1 when the databases differ, 0 when not (like git diff)")
  .option("-q, --quiet", "print nothing; exit 1 when the databases differ, 0 when not")
  .action(async (before, after, options) => {
    const { dbDiffCommand } = await import("./lib/cli/db_diff.ts");
    process.exitCode = await dbDiffCommand(before, after, options);
  });

db.command("match")
  .description(
    "test a saved diff document against a selector: exit 0 if it matches, 1 if not, 2 if the rows it kept cannot tell",
  )
  .argument("<diff>", "a diff document written by db diff --json")
  .argument("<selector>", "a selector file or inline JSON/YAML")
  .action(async (diff, selector) => {
    const { dbMatchCommand } = await import("./lib/cli/db_match.ts");
    process.exitCode = await dbMatchCommand(diff, selector);
  });

program.command("init")
  .description("write a commented dbagenteval.yaml, example cases, a small database and an agent")
  .addOption(
    new Option("--agent <kind>", "the agent skeleton to write").choices(
      ["ts", "python", "http"] as const,
    ).default("ts" as const),
  )
  .option("--dir <folder>", "where to write the files", ".")
  .option("--force", "overwrite files that exist")
  .action(async (options) => {
    const { initCommand } = await import("./lib/cli/init.ts");
    process.exitCode = initCommand(options);
  });

program.command("validate")
  .description("check a cases file for mistakes without running the agent")
  .argument("<cases>", "a .yaml, .yml, .json or .jsonl cases file")
  .option(
    "--db <database>",
    "also run each reference_sql (read-only) on this database: a SQLite file, postgres://... or pglite:FILE.sql",
  )
  .addOption(toOption(ALLOW_SUPERUSER_OPTION))
  .option(
    "--timeout <seconds>",
    "with --db: seconds each reference query may run before it fails (default 300)",
    Number,
  )
  .addOption(toOption(SQL_LIMIT_OPTIONS[0]!))
  .addOption(toOption(SQL_LIMIT_OPTIONS[1]!))
  .action(async (cases, options) => {
    const { validateCommand } = await import("./lib/cli/validate.ts");
    process.exitCode = await validateCommand(cases, options);
  });

const run = program.command("run")
  .description("ask the agent every case and check what it did")
  .argument("[cases]", "a .yaml, .yml, .json or .jsonl cases file (or cases: in the config)");
// Every option of run comes from one table (lib/eval/run_options.ts), as do
// the config file's keys (lib/cli/config.ts) and the options' type.
for (const row of RUN_OPTION_ROWS) run.addOption(toOption(row));
run.action(async (cases, options, command) => {
  const { configureRun } = await import("./lib/cli/config.ts");
  const { runCommand } = await import("./lib/cli/run.ts");
  const configured = configureRun(command, cases, options as ParsedRunOptions);
  process.exitCode = await runCommand(configured.cases, {
    ...configured.options,
    ruleSpecs: configured.ruleSpecs,
  });
});

const merge = program.command("merge")
  .description("merge the run files of shards (run --shard i/n) into one, and write its reports")
  .argument("<runs...>", "run files written by run --shard i/n --json");
for (const spec of REPORT_OPTIONS) merge.addOption(toOption(spec));
merge.action(async (runs, options) => {
  const { mergeCommand } = await import("./lib/cli/merge.ts");
  process.exitCode = await mergeCommand(runs, options as ReportOptions);
});

const report = program.command("report")
  .description("write reports (JUnit, HTML, Markdown, GitHub) from a saved run file")
  .argument("<run>", "a run file written by run --json or merge --json");
for (const spec of REPORT_OPTIONS) report.addOption(toOption(spec));
report.action(async (file, options) => {
  const { reportCommand } = await import("./lib/cli/merge.ts");
  process.exitCode = await reportCommand(file, options as ReportOptions);
});

program.command("counterexample")
  .description(
    "look for a database on which two queries give different rows: exit 1 if found, 0 if not",
  )
  .requiredOption(
    "--db <db>",
    "the database: a SQLite file, pglite:FILE.sql, pglite:DIR or postgres://... (only read)",
  )
  .addOption(toOption(ALLOW_SUPERUSER_OPTION))
  .requiredOption("--reference <sql>", "the correct query")
  .requiredOption("--candidate <sql>", "the query under test")
  .option("--ordered", "row order matters")
  .option("--precision <n>", "decimal places numbers are compared to (default 2)", integer(0))
  .option("--seed <n>", "seed of the random choices (default 1)", integer(0))
  .option("--budget <n>", "most databases tried (default 300)", integer(1))
  .option("--time-limit <seconds>", "most seconds spent searching (default 10)", Number)
  .option("--json <file>", "write the result as JSON to a file (- for stdout alone)")
  .action(async (options) => {
    const { counterexampleCommand } = await import("./lib/cli/counterexample.ts");
    process.exitCode = await counterexampleCommand(options);
  });

// The process PGlite's engine runs in (lib/databases/pglite_host.ts).
program.command("__pglite-host", { hidden: true })
  .argument("<token>")
  .action(async (token) => {
    const { servePglite } = await import("./lib/databases/pglite_host.ts");
    await servePglite(token);
  });

// The process `run` calls an --agent module in (lib/cli/_agent_host.ts).
program.command("__agent-host", { hidden: true })
  .argument("<agent>")
  .argument("<token>")
  .action(async (agent, token) => {
    const { agentHost } = await import("./lib/cli/agent_host.ts");
    await agentHost(agent, token);
  });

program.command("diff")
  .description("compare two saved runs: exit 1 on a regression")
  .argument("<before>", "a run file written by run --json")
  .argument("<after>", "a run file written by run --json")
  .option("--json <file>", "write the comparison as JSON to a file (- for stdout)")
  .option(
    "--max-regressions <n>",
    "exit 1 only when there are more regressions than this",
    integer(0),
    0,
  )
  .action(async (before, after, options) => {
    const { diffRunsCommand } = await import("./lib/cli/diff_runs.ts");
    process.exitCode = await diffRunsCommand(before, after, options);
  });

// One-line usage errors pointing at the command's own help, unknown options
// named first, `help db diff`, `-v`: see lib/cli/_polish.ts.
polishCommands(program);

try {
  await program.parseAsync(normalizeArgv(process.argv));
} catch (error) {
  if (isClosedPipe(error)) {
    process.exit(CLOSED_PIPE_EXIT);
  } else if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    const { reportError } = await import("./lib/cli/report_error.ts");
    process.exitCode = reportError(error);
  }
}
// The command is done. A pool worker that SQLite could not interrupt
// (lib/isolation/pool.ts) runs on until its step ends, and Bun waits for it:
// end the process a second later with the command's exit code. The timer
// does not keep the process alive by itself.
setTimeout(() => process.exit(), 1000).unref();
