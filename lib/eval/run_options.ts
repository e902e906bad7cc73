/**
 * The options of a run, in one table: the CLI's `run` registers commander's
 * options from it (lib/cli/options.ts), the config file takes one key a row
 * (the flag in snake_case unless the row says otherwise), and
 * {@link RunOptionValues} is the type of the options object they fill. An
 * option is added, renamed or dropped here and nowhere else.
 *
 * @module
 */
import { REPORT_OPTIONS } from "./reports.ts";
import type { ConfigKeyOf, OptionRow, OptionValues, ParsedOptionValues } from "../option_values.ts";

export { REPORT_OPTIONS };

/** `--allow-superuser`, which `run`, `validate` and `counterexample` take. */
export const ALLOW_SUPERUSER_OPTION = {
  flags: "--allow-superuser",
  key: "allowSuperuser",
  kind: "boolean",
  description:
    "with a postgres:// --db: accept a superuser login (or a member of pg_read_server_files, pg_write_server_files or pg_execute_server_program), whose SQL could read and write files and run programs on the database server; refused by default",
} as const satisfies OptionRow;

/** The limits of the SQL engines; `run` and `validate` take them. */
export const SQL_LIMIT_OPTIONS = [
  {
    flags: "--max-result-mb <n>",
    key: "maxResultMb",
    kind: "number",
    description:
      "largest value or result a SQL statement may give, in MB (each SQLite engine may use 8 times that, at least 256 MB)",
    parse: "megabytes",
    default: 32,
  },
  {
    flags: "--max-temp-mb <n>",
    key: "maxTempMb",
    kind: "number",
    description:
      "most MB of temporary files the SQL engines may hold at once (sorts, temporary tables)",
    parse: "megabytes",
    default: 2048,
  },
] as const satisfies readonly OptionRow[];

/** The options of `run` (the report options follow them). */
export const RUN_OPTIONS = [
  {
    flags: "--config <file>",
    key: "config",
    kind: "path",
    config: false,
    description: "read options from this file (default: ./dbagenteval.yaml if any)",
  },
  {
    flags: "--agent <module:export>",
    key: "agent",
    kind: "module",
    description: "your agent function, e.g. shop.ts:myAgent",
  },
  {
    flags: "--agent-cmd <command>",
    key: "agentCmd",
    kind: "text",
    description: 'an agent program speaking JSON lines on stdin/stdout, e.g. "python3 agent.py"',
  },
  {
    flags: "--agent-url <url>",
    key: "agentUrl",
    kind: "text",
    description: "an agent service: POST each case's request JSON to this URL",
  },
  {
    flags: "--agent-header <header>",
    key: "agentHeader",
    kind: "list",
    description: '"Name: value" sent with every --agent-url request (repeatable)',
    parse: "collect",
  },
  {
    flags: "--execute <module:export>",
    key: "execute",
    kind: "module",
    description: "your executor, for reference_sql",
  },
  {
    flags: "--db <database>",
    key: "db",
    kind: "database",
    description:
      "run reference_sql read-only on this database (no executor needed): a SQLite file, postgres://user:pass@host:port/db, pglite:FILE.sql or pglite:DIR",
  },
  ALLOW_SUPERUSER_OPTION,
  {
    flags: "--db-dir <dir>",
    key: "dbDir",
    kind: "path",
    description:
      "a folder of SQLite databases, one per case's db: (DIR/<db>/<db>.sqlite or DIR/<db>.sqlite, as Spider and BIRD ship them); each case's SQL runs on its own",
  },
  {
    flags: "--predictions <file>",
    key: "predictions",
    kind: "path",
    description:
      "answer each case with SQL a model already wrote: Spider's (one SQL a line) or BIRD's predictions JSON, in the order of the cases file",
  },
  {
    flags: "--strict-quotes",
    key: "strictQuotes",
    kind: "boolean",
    description:
      'refuse double-quoted string literals (WHERE name = "Paris") in SQL run on SQLite, as SQLite\'s recommended build does (default: read them as strings, as the sqlite3 library and Python do)',
  },
  {
    flags: "--strict-columns",
    key: "strictColumns",
    kind: "boolean",
    description:
      "fail rows with a column beyond the expected ones, for consumers that read columns by position (a case's strict_columns: wins; default: extra columns are fine)",
  },
  {
    flags: "--agent-db <file>",
    key: "agentDb",
    kind: "path",
    description: "give each case a fresh copy of this SQLite file and check what the agent changed",
  },
  {
    flags: "--agent-db-key <table=columns>",
    key: "agentDbKey",
    kind: "list",
    description:
      "in the --agent-db diff, pair the rows of TABLE by these columns, e.g. users=email (repeatable)",
    parse: "collect",
  },
  {
    flags: "--agent-db-ignore <column>",
    key: "agentDbIgnore",
    kind: "list",
    description:
      "leave COLUMN or TABLE.COLUMN out of the --agent-db diff (repeatable, globs), e.g. updated_at",
    parse: "collect",
  },
  {
    flags: "--agent-db-ignore-table <table>",
    key: "agentDbIgnoreTable",
    kind: "list",
    description: "leave TABLE out of the --agent-db diff (repeatable, globs)",
    parse: "collect",
  },
  {
    flags: "--rules <module:export>",
    key: "rules",
    kind: "module",
    config: false,
    description: "a list of rules",
  },
  {
    flags: "--rule <rule>",
    key: "rule",
    kind: "list",
    config: "rules",
    configKind: "rules",
    description:
      'a built-in rule, e.g. read_only or "tenant_filter: {column: store_id}" (repeatable)',
    parse: "collect",
  },
  {
    flags: "--judge <module:export>",
    key: "judge",
    kind: "module",
    description: "your judge function",
  },
  {
    flags: "--judge-url <url>",
    key: "judgeUrl",
    kind: "text",
    description: "an OpenAI-compatible chat-completions endpoint to judge with",
  },
  {
    flags: "--judge-model <name>",
    key: "judgeModel",
    kind: "text",
    description: "the model for --judge-url",
  },
  {
    flags: "--judge-concurrency <n>",
    key: "judgeConcurrency",
    kind: "integer",
    description: "judge calls at the same time, across cases",
    parse: "count",
    default: 2,
  },
  {
    flags: "--tags <list>",
    key: "tags",
    kind: "csv",
    description: "run only cases with one of these comma-separated tags",
  },
  {
    flags: "--case <id>",
    key: "case",
    kind: "list",
    description: "run only this case; a glob such as 'orders-*' picks several (repeatable)",
    parse: "collect",
  },
  {
    flags: "--rerun-failed <run.json>",
    key: "rerunFailed",
    kind: "path",
    description: "run only the cases that did not pass in this saved run",
  },
  {
    flags: "--resume <run.json>",
    key: "resume",
    kind: "path",
    description:
      "finish this run file, left by a run that was stopped (killed, Ctrl-C): ask only the cases it lacks, and write the whole run there (or to --json)",
  },
  {
    flags: "--shard <i/n>",
    key: "shard",
    kind: "text",
    description: "run only shard i of n (stable by case id; e.g. 2/4), for a CI matrix",
  },
  {
    flags: "--shard-durations <run.json>",
    key: "shardDurations",
    kind: "path",
    description: "balance --shard by the case durations in this saved run, not by count",
  },
  {
    flags: "--fail-fast",
    key: "failFast",
    kind: "boolean",
    description: "start no new case after the first one that does not pass",
  },
  {
    flags: "--concurrency <n>",
    key: "concurrency",
    kind: "integer",
    description: "cases run at the same time (with --agent-cmd: worker processes)",
    parse: "count",
    default: 4,
  },
  {
    flags: "--timeout <seconds>",
    key: "timeout",
    kind: "number",
    description: "seconds a case may take before it is an ERROR (its --agent is stopped)",
    parse: "number",
    default: 300,
  },
  ...SQL_LIMIT_OPTIONS,
  {
    flags: "--repeat <n>",
    key: "repeat",
    kind: "integer",
    description: "run every case n times; its verdict comes from its pass rate",
    parse: "count",
  },
  {
    flags: "--min-pass-rate <r>",
    key: "minPassRate",
    kind: "number",
    description: "with --repeat: the share of attempts a case must pass (default 1: all)",
    parse: "share",
  },
  {
    flags: "--pass-k <k>",
    key: "passK",
    kind: "integer",
    description: "with --repeat: the k of the pass@k and pass^k shown (default: the repeat count)",
    parse: "count",
  },
  {
    flags: "--cache <dir>",
    key: "cache",
    kind: "path",
    description: "keep judge replies in this folder and reuse them on the next run",
  },
  {
    flags: "--no-cache",
    key: "cache",
    kind: "boolean",
    config: false,
    description: "do not use the judge cache",
  },
  {
    flags: "--counterexamples",
    key: "counterexamples",
    kind: "boolean",
    description:
      "when the agent's rows match the reference's, search for a database (from --db) on which its SQL is wrong",
  },
  {
    flags: "--score <names>",
    key: "score",
    kind: "text",
    description:
      "also score each question as a leaderboard does, beside our verdict, and list where they disagree: spider (test-suite-sql-eval), bird (EX and Soft-F1), bird-ex, bird-f1, bird-ves (comma-separated)",
  },
  {
    flags: "--keep-distinct",
    key: "keepDistinct",
    kind: "boolean",
    description:
      "with --score spider: keep DISTINCT and every statement, as Spider's evaluator does with its --keep_distinct (default: it removes both)",
  },
  {
    flags: "--verbose",
    key: "verbose",
    kind: "boolean",
    description:
      "print every check with the case times and the slowest cases; judge calls on stderr",
  },
] as const satisfies readonly OptionRow[];

/** Every row of `run`: its own options, then the report options. */
export const RUN_OPTION_ROWS = [
  ...RUN_OPTIONS,
  ...REPORT_OPTIONS,
] as const satisfies readonly OptionRow[];

/** One row of `run`'s table. */
export type RunOptionRow = (typeof RUN_OPTION_ROWS)[number];

/**
 * The options of a run, every one optional: what `run`'s flags and the config
 * file give, by the property names of {@link RUN_OPTION_ROWS}.
 *
 * @example
 * ```ts
 * import type { RunOptionValues } from "./run_options.ts";
 * const options: RunOptionValues = { db: "shop.db", concurrency: 8, score: "spider" };
 * ```
 */
export type RunOptionValues = OptionValues<RunOptionRow>;

/** The options as `run`'s command line gives them: the ones with a default are always there. */
export type ParsedRunOptions = ParsedOptionValues<RunOptionRow>;

/** The report options (`--json`, `--md`, `--junit`, `--html`, `--github`) as parsed. */
export type ReportOptionValues = OptionValues<(typeof REPORT_OPTIONS)[number]>;

/** A key of the config file (`agent_db`, `rules`, ...): one a row of `run`'s table. */
export type RunConfigKey = ConfigKeyOf<RunOptionRow>;
