/**
 * Parsers of option values (`--concurrency 4`, `--max-bytes 64M`): each
 * turns the text into the value or throws a {@link UsageError} that says what
 * was expected. The CLI hands them to commander (lib/cli/options.ts), the
 * config file runs its values through them, and the library's run options
 * (lib/eval/run_options.ts) name them.
 *
 * @module
 */
import { UsageError } from "./errors.ts";

/**
 * A parser for a whole number of at least `min`.
 *
 * @param min the least value
 * @returns the parser
 * @example
 * ```ts
 * import { integer } from "./option_values.ts";
 * integer(1)("4"); // 4
 * ```
 */
export function integer(min: number): (value: string) => number {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) {
      throw new UsageError(`expected a whole number of at least ${min}, got "${value}"`);
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
 * import { bytes } from "./option_values.ts";
 * bytes("64M"); // 67108864
 * ```
 */
export function bytes(value: string): number {
  const m = /^(\d+)([KMG]?)i?B?$/i.exec(value.trim());
  const scale = { "": 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[(m?.[2] ?? "").toUpperCase()];
  if (m === null || scale === undefined) {
    throw new UsageError(`expected a size such as 500000, 64M or 1G, got "${value}"`);
  }
  return Number(m[1]) * scale;
}

/**
 * `--key TABLE=COL[,COL...]` options (`db diff --key`, `run --agent-db-key`)
 * as the diff's `keys` option.
 *
 * @param values each one given
 * @returns table name to columns
 * @throws {UsageError} when one is not TABLE=COL[,COL...], or names a table twice
 * @example
 * ```ts
 * import { diffKeys } from "./option_values.ts";
 * diffKeys(["users=email", "t=a,b"]); // { users: ["email"], t: ["a", "b"] }
 * ```
 */
export function diffKeys(values: readonly string[]): Record<string, string[]> {
  const keys: Record<string, string[]> = {};
  const seen = new Set<string>();
  for (const value of values) {
    const eq = value.lastIndexOf("=");
    const table = value.slice(0, eq);
    const cols = value.slice(eq + 1).split(",").map((c) => c.trim());
    if (eq <= 0 || cols.some((c) => c === "")) {
      throw new UsageError(
        `--key ${value}: write TABLE=COLUMN[,COLUMN...], e.g. --key users=email`,
      );
    }
    // Table names compare as SQLite compares them: ASCII case folded.
    const folded = table.replace(/[A-Z]/g, (c) => c.toLowerCase());
    if (seen.has(folded)) {
      throw new UsageError(
        `--key ${value}: table "${table}" has a key already; give each table one --key`,
      );
    }
    seen.add(folded);
    keys[table] = cols;
  }
  return keys;
}

/**
 * A parser for a repeatable option: collects every value.
 *
 * @param value this occurrence
 * @param previous the earlier ones
 * @returns all of them
 * @example
 * ```ts
 * import { collect } from "./option_values.ts";
 * collect("b", collect("a", undefined)); // ["a", "b"]
 * ```
 */
export function collect(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * A parser for a number of megabytes above 0.
 *
 * @param value the option's text
 * @returns the megabytes
 * @example
 * ```ts
 * import { megabytes } from "./option_values.ts";
 * megabytes("64"); // 64
 * ```
 */
export function megabytes(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) {
    throw new UsageError(`expected megabytes above 0, e.g. 64, got "${value}"`);
  }
  return n;
}

/**
 * A parser for a share from 0 to 1 (`--min-pass-rate 0.8`).
 *
 * @param value the option's text
 * @returns the share
 * @example
 * ```ts
 * import { share } from "./option_values.ts";
 * share("0.8"); // 0.8
 * ```
 */
export function share(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new UsageError(`expected a share from 0 to 1, e.g. 0.8, got "${value}"`);
  }
  return n;
}

/**
 * The parsers a row of an option table names: each turns the text into the
 * value or throws a UsageError; `collect` also gets the earlier values of a
 * repeatable option. A table names them (rather than holding the functions)
 * so that it stays plain data, whose types JSR reads as they are.
 *
 * @example
 * ```ts
 * import { OPTION_PARSERS } from "./option_values.ts";
 * OPTION_PARSERS.count("4"); // 4
 * ```
 */
export const OPTION_PARSERS: {
  readonly count: (value: string) => number;
  readonly number: (value: string) => number;
  readonly megabytes: (value: string) => number;
  readonly share: (value: string) => number;
  readonly collect: (value: string, previous: readonly string[] | undefined) => string[];
} = {
  count: integer(1),
  number: Number,
  megabytes,
  share,
  collect,
};

/** The name of a parser in {@link OPTION_PARSERS}. */
export type OptionParserName = keyof typeof OPTION_PARSERS;

/**
 * The parser a row names, as a function of the text and the earlier value.
 *
 * @param row the row
 * @returns the parser, or undefined for a row whose value is its text
 * @example
 * ```ts
 * import { parserOf } from "./option_values.ts";
 * parserOf({ key: "n", flags: "--n <n>", description: "", kind: "integer", parse: "count" })?.("2", undefined); // 2
 * ```
 */
export function parserOf(
  row: OptionRow,
): ((value: string, previous: unknown) => unknown) | undefined {
  if (row.parse === undefined) return undefined;
  return OPTION_PARSERS[row.parse] as (value: string, previous: unknown) => unknown;
}

/**
 * The kinds of value an option takes, which are also how the config file
 * reads its key:
 * - `text`, `integer`, `number`, `boolean`: a scalar of that type;
 * - `path`: a file (in the config file: relative to its folder);
 * - `output`: a file to write, or `-` for stdout;
 * - `module`: `file:export`;
 * - `database`: a SQLite file (a path) or a URL such as `postgres://...`;
 * - `csv`: text (in the config file: text or a list, joined with commas);
 * - `list`: a repeatable option's values;
 * - `rules`: (config file only) a list of rules: built-in names, `{name: options}` or `file:export`.
 */
export type OptionValueKind =
  | "text"
  | "integer"
  | "number"
  | "boolean"
  | "path"
  | "output"
  | "module"
  | "database"
  | "csv"
  | "list"
  | "rules";

/** The value an option of each kind has once parsed. */
export interface OptionKindValues {
  text: string;
  integer: number;
  number: number;
  boolean: boolean;
  path: string;
  output: string;
  module: string;
  database: string;
  csv: string;
  list: readonly string[];
  rules: readonly string[];
}

/**
 * One option, declared once: commander's option, the config file's key and
 * the options type all come from it.
 *
 * @example
 * ```ts
 * import type { OptionRow } from "./option_values.ts";
 * const row = {
 *   key: "concurrency",
 *   flags: "--concurrency <n>",
 *   description: "cases run at the same time",
 *   kind: "integer",
 *   parse: "count",
 *   default: 4,
 * } as const satisfies OptionRow;
 * ```
 */
export interface OptionRow {
  /** The property in the parsed options: the flag in camelCase (`--agent-db` -> `agentDb`). */
  readonly key: string;
  /** As commander takes it: `--concurrency <n>`, `--verbose`. */
  readonly flags: string;
  readonly description: string;
  readonly kind: OptionValueKind;
  /** The parser of its text (one of {@link OPTION_PARSERS}); none: the text as it is. */
  readonly parse?: OptionParserName;
  readonly default?: unknown;
  /**
   * The config file's key: by default the long flag in snake_case
   * (`--agent-db` -> `agent_db`); `false` for a flag the file has no key for.
   */
  readonly config?: string | false;
  /** How the config file reads the key, when not as `kind` (`--rule` reads `rules:`). */
  readonly configKind?: OptionValueKind;
}

/** The parsed options of a table of rows, every one optional. */
export type OptionValues<Row extends OptionRow> = {
  readonly [R in Row as R["key"]]?: OptionKindValues[R["kind"]];
};

/** The parsed options as commander gives them: a row with a default always has a value. */
export type ParsedOptionValues<Row extends OptionRow> =
  & OptionValues<Row>
  & {
    readonly [R in Row as R extends { default: unknown } ? R["key"] : never]-?:
      OptionKindValues[R["kind"]];
  };

/** The config file's key of a row, if it has one. */
export type ConfigKeyOf<R extends OptionRow> = R extends { config: false } ? never
  : R extends { config: infer K extends string } ? K
  : SnakeFlag<R["flags"]>;

type LongFlag<F extends string> = F extends `${string}--${infer L} ${string}` ? L
  : F extends `${string}--${infer L}` ? L
  : never;
type Snake<S extends string> = S extends `${infer H}-${infer T}` ? `${H}_${Snake<T>}` : S;
type SnakeFlag<F extends string> = Snake<LongFlag<F>>;

/**
 * The config file's key of a row: its `config`, or its long flag in snake_case.
 *
 * @param row the row
 * @returns the key, or undefined for a row the config file has no key for
 * @example
 * ```ts
 * import { configKeyOf } from "./option_values.ts";
 * configKeyOf({ key: "agentDb", flags: "--agent-db <file>", description: "", kind: "path" }); // "agent_db"
 * ```
 */
export function configKeyOf(row: OptionRow): string | undefined {
  if (row.config === false) return undefined;
  if (row.config !== undefined) return row.config;
  const long = /--([\w-]+)/.exec(row.flags)?.[1];
  return long?.replaceAll("-", "_");
}
