/**
 * The options of `run` (and the report options `run`, `merge` and `report`
 * share), in one table: cli.ts registers them from here, and a config file
 * can map one key per row. `key` is the property name in the parsed options
 * object (commander's camelCase of the flag).
 *
 * @module
 */
import { InvalidArgumentError, Option } from "@commander-js/extra-typings";

/** One command-line option. */
export interface OptionSpec {
  /** As commander takes it: `--concurrency <n>`, `--verbose`. */
  readonly flags: string;
  /** The property in the parsed options, e.g. `concurrency`, `agentDb`. */
  readonly key: string;
  readonly description: string;
  /** Turns the text into the value; gets the previous value for repeatable options. */
  readonly parse?: (value: string, previous: never) => unknown;
  readonly default?: unknown;
  readonly required?: boolean;
}

/**
 * A parser for a whole number of at least `min`.
 *
 * @param min the least value
 * @returns the parser
 */
export function integer(min: number): (value: string) => number {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) {
      throw new InvalidArgumentError(`expected a whole number of at least ${min}, got "${value}"`);
    }
    return n;
  };
}

/**
 * A parser for a size in bytes: a whole number, or one with a K, M or G
 * suffix (powers of 1024): `500000`, `64M`, `1G`.
 *
 * @param value the option's text
 * @returns the bytes
 * @example
 * ```ts
 * import { bytes } from "./options.ts";
 * bytes("64M"); // 67108864
 * ```
 */
export function bytes(value: string): number {
  const m = /^(\d+)([KMG]?)i?B?$/i.exec(value.trim());
  const scale = { "": 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[(m?.[2] ?? "").toUpperCase()];
  if (m === null || scale === undefined) {
    throw new InvalidArgumentError(`expected a size such as 500000, 64M or 1G, got "${value}"`);
  }
  return Number(m[1]) * scale;
}

/**
 * A parser for a repeatable option: collects every value.
 *
 * @param value this occurrence
 * @param previous the earlier ones
 * @returns all of them
 */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * A parser for a number of megabytes above 0.
 *
 * @param value the option's text
 * @returns the megabytes
 * @example
 * ```ts
 * import { megabytes } from "./options.ts";
 * megabytes("64"); // 64
 * ```
 */
export function megabytes(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) {
    throw new InvalidArgumentError(`expected megabytes above 0, e.g. 64, got "${value}"`);
  }
  return n;
}

function rate(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError(`expected a share from 0 to 1, e.g. 0.8, got "${value}"`);
  }
  return n;
}

/** `--allow-superuser`, which `run`, `validate` and `counterexample` take. */
export const ALLOW_SUPERUSER_OPTION: OptionSpec = {
  flags: "--allow-superuser",
  key: "allowSuperuser",
  description:
    "with a postgres:// --db: accept a superuser login (or a member of pg_read_server_files, pg_write_server_files or pg_execute_server_program), whose SQL could read and write files and run programs on the database server; refused by default",
};

/** The limits of the SQL engines; `run` and `validate` take them. */
export const SQL_LIMIT_OPTIONS: readonly OptionSpec[] = [
  {
    flags: "--max-result-mb <n>",
    key: "maxResultMb",
    description:
      "largest value or result a SQL statement may give, in MB (each SQLite engine may use 8 times that, at least 256 MB)",
    parse: megabytes,
    default: 32,
  },
  {
    flags: "--max-temp-mb <n>",
    key: "maxTempMb",
    description:
      "most MB of temporary files the SQL engines may hold at once (sorts, temporary tables)",
    parse: megabytes,
    default: 2048,
  },
];

/** The reports a finished run can be written as; `run`, `merge` and `report` take them all. */
export const REPORT_OPTIONS: readonly OptionSpec[] = [
  {
    flags: "--json <file>",
    key: "json",
    description: "save the full result as JSON (diff reads it; - for stdout)",
  },
  { flags: "--md <file>", key: "md", description: "save a short Markdown report (- for stdout)" },
  {
    flags: "--junit <file>",
    key: "junit",
    description: "save a JUnit XML report (GitLab, Jenkins, GitHub actions)",
  },
  { flags: "--html <file>", key: "html", description: "save a self-contained HTML report" },
  {
    flags: "--github",
    key: "github",
    description:
      "GitHub Actions annotations and job summary (on by itself when GITHUB_ACTIONS=true)",
  },
];

/** The options of `run` (the report options follow them). */
export const RUN_OPTIONS: readonly OptionSpec[] = [
  {
    flags: "--config <file>",
    key: "config",
    description: "read options from this file (default: ./dbagenteval.yaml if any)",
  },
  {
    flags: "--agent <module:export>",
    key: "agent",
    description: "your agent function, e.g. shop.ts:myAgent",
  },
  {
    flags: "--agent-cmd <command>",
    key: "agentCmd",
    description: 'an agent program speaking JSON lines on stdin/stdout, e.g. "python3 agent.py"',
  },
  {
    flags: "--agent-url <url>",
    key: "agentUrl",
    description: "an agent service: POST each case's request JSON to this URL",
  },
  {
    flags: "--agent-header <header>",
    key: "agentHeader",
    description: '"Name: value" sent with every --agent-url request (repeatable)',
    parse: collect,
  },
  {
    flags: "--execute <module:export>",
    key: "execute",
    description: "your executor, for reference_sql",
  },
  {
    flags: "--db <database>",
    key: "db",
    description:
      "run reference_sql read-only on this database (no executor needed): a SQLite file, postgres://user:pass@host:port/db, pglite:FILE.sql or pglite:DIR",
  },
  ALLOW_SUPERUSER_OPTION,
  {
    flags: "--db-dir <dir>",
    key: "dbDir",
    description:
      "a folder of SQLite databases, one per case's db: (DIR/<db>/<db>.sqlite or DIR/<db>.sqlite, as Spider and BIRD ship them); each case's SQL runs on its own",
  },
  {
    flags: "--predictions <file>",
    key: "predictions",
    description:
      "answer each case with SQL a model already wrote: Spider's (one SQL a line) or BIRD's predictions JSON, in the order of the cases file",
  },
  {
    flags: "--strict-quotes",
    key: "strictQuotes",
    description:
      'refuse double-quoted string literals (WHERE name = "Paris") in SQL run on SQLite, as SQLite\'s recommended build does (default: read them as strings, as the sqlite3 library and Python do)',
  },
  {
    flags: "--strict-columns",
    key: "strictColumns",
    description:
      "fail rows with a column beyond the expected ones, for consumers that read columns by position (a case's strict_columns: wins; default: extra columns are fine)",
  },
  {
    flags: "--agent-db <file>",
    key: "agentDb",
    description: "give each case a fresh copy of this SQLite file and check what the agent changed",
  },
  { flags: "--rules <module:export>", key: "rules", description: "a list of rules" },
  {
    flags: "--rule <rule>",
    key: "rule",
    description:
      'a built-in rule, e.g. read_only or "tenant_filter: {column: store_id}" (repeatable)',
    parse: collect,
  },
  { flags: "--judge <module:export>", key: "judge", description: "your judge function" },
  {
    flags: "--judge-url <url>",
    key: "judgeUrl",
    description: "an OpenAI-compatible chat-completions endpoint to judge with",
  },
  { flags: "--judge-model <name>", key: "judgeModel", description: "the model for --judge-url" },
  {
    flags: "--judge-concurrency <n>",
    key: "judgeConcurrency",
    description: "judge calls at the same time, across cases",
    parse: integer(1),
    default: 2,
  },
  {
    flags: "--tags <list>",
    key: "tags",
    description: "run only cases with one of these comma-separated tags",
  },
  {
    flags: "--case <id>",
    key: "case",
    description: "run only this case; a glob such as 'orders-*' picks several (repeatable)",
    parse: collect,
  },
  {
    flags: "--rerun-failed <run.json>",
    key: "rerunFailed",
    description: "run only the cases that did not pass in this saved run",
  },
  {
    flags: "--resume <run.json>",
    key: "resume",
    description:
      "finish this run file, left by a run that was stopped (killed, Ctrl-C): ask only the cases it lacks, and write the whole run there (or to --json)",
  },
  {
    flags: "--shard <i/n>",
    key: "shard",
    description: "run only shard i of n (stable by case id; e.g. 2/4), for a CI matrix",
  },
  {
    flags: "--shard-durations <run.json>",
    key: "shardDurations",
    description: "balance --shard by the case durations in this saved run, not by count",
  },
  {
    flags: "--fail-fast",
    key: "failFast",
    description: "start no new case after the first one that does not pass",
  },
  {
    flags: "--concurrency <n>",
    key: "concurrency",
    description: "cases run at the same time (with --agent-cmd: worker processes)",
    parse: integer(1),
    default: 4,
  },
  {
    flags: "--timeout <seconds>",
    key: "timeout",
    description: "seconds a case may take before it is an ERROR (its --agent is stopped)",
    parse: Number,
    default: 300,
  },
  ...SQL_LIMIT_OPTIONS,
  {
    flags: "--repeat <n>",
    key: "repeat",
    description: "run every case n times; its verdict comes from its pass rate",
    parse: integer(1),
  },
  {
    flags: "--min-pass-rate <r>",
    key: "minPassRate",
    description: "with --repeat: the share of attempts a case must pass (default 1: all)",
    parse: rate,
  },
  {
    flags: "--pass-k <k>",
    key: "passK",
    description: "with --repeat: the k of the pass@k and pass^k shown (default: the repeat count)",
    parse: integer(1),
  },
  {
    flags: "--cache <dir>",
    key: "cache",
    description: "keep judge replies in this folder and reuse them on the next run",
  },
  { flags: "--no-cache", key: "cache", description: "do not use the judge cache" },
  {
    flags: "--counterexamples",
    key: "counterexamples",
    description:
      "when the agent's rows match the reference's, search for a database (from --db) on which its SQL is wrong",
  },
  {
    flags: "--score <names>",
    key: "score",
    description:
      "also score each question as a leaderboard does, beside our verdict, and list where they disagree: spider (test-suite-sql-eval), bird (EX and Soft-F1), bird-ex, bird-f1, bird-ves (comma-separated)",
  },
  {
    flags: "--keep-distinct",
    key: "keepDistinct",
    description:
      "with --score spider: keep DISTINCT and every statement, as Spider's evaluator does with its --keep_distinct (default: it removes both)",
  },
  {
    flags: "--verbose",
    key: "verbose",
    description:
      "print every check with the case times and the slowest cases; judge calls on stderr",
  },
];

/**
 * The commander option of a row of the table.
 *
 * @param spec the row
 * @returns the option, ready for `command.addOption()`
 */
export function toOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.parse !== undefined) {
    option.argParser(spec.parse as (value: string, previous: unknown) => unknown);
  }
  if (spec.default !== undefined) option.default(spec.default);
  if (spec.required === true) option.makeOptionMandatory();
  return option as unknown as Option;
}
