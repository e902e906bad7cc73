/**
 * The config file, `dbagenteval.yaml`: what `run` takes on its command line,
 * as YAML, found in the current folder or given with `--config FILE`.
 *
 * ```yaml
 * cases: cases.yaml
 * agent: agent.ts:agent
 * db: shop.db
 * rules: [read_only, {tenant_filter: {column: store_id, value: s1}}]
 * concurrency: 8
 * ```
 *
 * {@link RUN_CONFIG_KEYS} maps each config key to its `run` flag and the
 * kind of value it takes: an option added to `run` is one line there. Values
 * go through the flag's own parser (so `concurrency: 0` is refused as
 * `--concurrency 0` is), paths are relative to the config file's folder, and a
 * flag given on the command line wins over the file. A mistake is one line
 * with the file, line and a did-you-mean.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { type Document, LineCounter, parse as parseYaml, parseDocument } from "yaml";
import { ConfigFileError, UsageError } from "../errors.ts";
import { yamlErrorMessage } from "../eval/yaml_message.ts";
import { yamlLineOf } from "../eval/yaml_line.ts";
import { suggest } from "../../selector/_text.ts";
import { checkConfigFile } from "./_config_values.ts";
import { parseModuleRef } from "./_load_module.ts";
import { resolveDatabasePath } from "../databases/registry.ts";
import { type PathKey, readRuleSpec, type RuleSpec, RuleSpecProblem } from "./_builtin_rules.ts";

/** The names looked for in the current folder, in order. */
export const CONFIG_FILE_NAMES: readonly string[] = ["dbagenteval.yaml", "dbagenteval.yml"];

/**
 * The kinds of value a config key takes:
 * - `text`, `integer`, `number`, `boolean`: a YAML scalar of that type;
 * - `path`: a file, relative to the config file's folder;
 * - `output`: a file to write, or `-` for stdout;
 * - `module`: `file:export`, the file relative to the config file's folder;
 * - `database`: a SQLite file (a path) or a URL such as `postgres://...` (kept as is);
 * - `csv`: text, or a list of text joined with commas (`tags: [easy, money]`);
 * - `list`: text or a list of text, as a repeatable flag takes;
 * - `rules`: a list of rules: built-in names, `{name: options}` or `file:export`.
 */
export type ConfigValueType =
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

/** One config key: the `run` flag it stands for and the value it takes. */
export interface ConfigKey {
  /** The flag, e.g. `--agent-db`, or `<cases>` for the argument. */
  readonly flag: string;
  readonly type: ConfigValueType;
}

/**
 * Config key -> `run` flag. A `run` option missing here is still accepted
 * under its snake_case name (`--foo-bar` as `foo_bar`) and parsed by its flag's
 * parser; listing it here gives it a type (paths relative to the file, lists).
 */
export const RUN_CONFIG_KEYS: Readonly<Record<string, ConfigKey>> = {
  cases: { flag: "<cases>", type: "path" },
  agent: { flag: "--agent", type: "module" },
  agent_cmd: { flag: "--agent-cmd", type: "text" },
  agent_url: { flag: "--agent-url", type: "text" },
  agent_header: { flag: "--agent-header", type: "list" },
  execute: { flag: "--execute", type: "module" },
  db: { flag: "--db", type: "database" },
  allow_superuser: { flag: "--allow-superuser", type: "boolean" },
  agent_db: { flag: "--agent-db", type: "path" },
  strict_quotes: { flag: "--strict-quotes", type: "boolean" },
  strict_columns: { flag: "--strict-columns", type: "boolean" },
  db_dir: { flag: "--db-dir", type: "path" },
  predictions: { flag: "--predictions", type: "path" },
  rules: { flag: "--rule", type: "rules" },
  judge: { flag: "--judge", type: "module" },
  judge_url: { flag: "--judge-url", type: "text" },
  judge_model: { flag: "--judge-model", type: "text" },
  judge_concurrency: { flag: "--judge-concurrency", type: "integer" },
  tags: { flag: "--tags", type: "csv" },
  concurrency: { flag: "--concurrency", type: "integer" },
  timeout: { flag: "--timeout", type: "number" },
  max_result_mb: { flag: "--max-result-mb", type: "number" },
  max_temp_mb: { flag: "--max-temp-mb", type: "number" },
  json: { flag: "--json", type: "output" },
  md: { flag: "--md", type: "output" },
  verbose: { flag: "--verbose", type: "boolean" },
  counterexamples: { flag: "--counterexamples", type: "boolean" },
  case: { flag: "--case", type: "list" },
  rerun_failed: { flag: "--rerun-failed", type: "path" },
  resume: { flag: "--resume", type: "path" },
  shard: { flag: "--shard", type: "text" },
  shard_durations: { flag: "--shard-durations", type: "path" },
  fail_fast: { flag: "--fail-fast", type: "boolean" },
  repeat: { flag: "--repeat", type: "integer" },
  min_pass_rate: { flag: "--min-pass-rate", type: "number" },
  pass_k: { flag: "--pass-k", type: "integer" },
  cache: { flag: "--cache", type: "path" },
  junit: { flag: "--junit", type: "output" },
  html: { flag: "--html", type: "output" },
  github: { flag: "--github", type: "boolean" },
};

/** Flags that have no config key: they choose the file, or are `rules` in another form. */
const NOT_IN_CONFIG = new Set([
  "--config",
  "--rules",
  "--rule",
  "--help",
  "--version",
  "--no-cache", // leave out cache: instead
]);

/** The parts of a commander Option that the config reads. */
export interface OptionLike {
  readonly long?: string | undefined;
  attributeName(): string;
  isBoolean(): boolean;
  readonly parseArg?: unknown;
}

/** The parts of a commander Command that the config reads. */
export interface CommandLike {
  readonly options: readonly OptionLike[];
  getOptionValueSource(key: string): string | undefined;
}

/** A `run` invocation after the config file was applied. */
export interface ConfiguredRun<O> {
  /** The cases file, from the argument or the config. */
  readonly cases: string | undefined;
  /** The options, the config's values filled in where no flag was given. */
  readonly options: O;
  /** The rules from `--rule` flags, or else from the config's `rules:`. */
  readonly ruleSpecs: readonly RuleSpec[] | undefined;
  /** The config file used, if any. */
  readonly configFile: string | undefined;
}

/** A config file read and located: its values and how to find a value's line. */
interface ConfigSource {
  readonly file: string;
  readonly dir: string;
  readonly values: Record<string, unknown>;
  lineOf(path: readonly PathKey[], key?: boolean): number | undefined;
}

function snakeCase(flag: string): string {
  return flag.replace(/^--/, "").replaceAll("-", "_");
}

/** Every config key `run` accepts, with the option it sets. */
function configKeys(command: CommandLike): Map<string, { key: ConfigKey; option?: OptionLike }> {
  const keys = new Map<string, { key: ConfigKey; option?: OptionLike }>();
  const byFlag = new Map(command.options.map((o) => [o.long, o]));
  for (const [name, key] of Object.entries(RUN_CONFIG_KEYS)) {
    const option = byFlag.get(key.flag);
    if (key.flag !== "<cases>" && key.type !== "rules" && option === undefined) continue;
    keys.set(name, option === undefined ? { key } : { key, option });
  }
  const listed = new Set(Object.values(RUN_CONFIG_KEYS).map((k) => k.flag));
  for (const option of command.options) {
    if (option.long === undefined || listed.has(option.long) || NOT_IN_CONFIG.has(option.long)) {
      continue;
    }
    const type: ConfigValueType = option.isBoolean() ? "boolean" : "text";
    keys.set(snakeCase(option.long), { key: { flag: option.long, type }, option });
  }
  return keys;
}

function locator(doc: Document, counter: LineCounter): ConfigSource["lineOf"] {
  return (keys, key = false) => yamlLineOf(doc.contents, keys, counter, key);
}

/**
 * Reads and parses a config file (its values are checked later, against `run`'s options).
 *
 * @param file the file
 * @returns its top-level mapping, located
 * @throws {ConfigFileError} when it cannot be read, is not YAML, or is not a mapping
 */
function readConfigFile(file: string): ConfigSource {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why = code === "ENOENT"
      ? "no such file; check the path (or run dbagenteval init to write one)"
      : code === "EISDIR"
      ? "it is a folder, not a config file"
      : `cannot read it (${error instanceof Error ? error.message : String(error)})`;
    throw new ConfigFileError(file, undefined, why);
  }
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, logLevel: "error" });
  const error = doc.errors[0];
  if (error !== undefined) {
    throw new ConfigFileError(file, error.linePos?.[0]?.line, yamlErrorMessage(error, text));
  }
  const values: unknown = doc.toJS();
  if (values === null || values === undefined) {
    return { file, dir: path.dirname(file), values: {}, lineOf: () => undefined };
  }
  if (typeof values !== "object" || Array.isArray(values)) {
    throw new ConfigFileError(
      file,
      1,
      "expected a mapping of settings, e.g. agent: agent.ts:agent (a cases list goes in its own file)",
    );
  }
  return {
    file,
    dir: path.dirname(file),
    values: values as Record<string, unknown>,
    lineOf: locator(doc, counter),
  };
}

/** Where a config file's relative path points, as seen from `cwd`. */
function resolvePath(dir: string, value: string, cwd: string): string {
  if (path.isAbsolute(value) || path.resolve(dir) === path.resolve(cwd)) return value;
  return path.relative(cwd, path.resolve(dir, value)) || ".";
}

function describe(value: unknown): string {
  if (value === null) return "empty";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "a mapping" : `${typeof value} ${JSON.stringify(value)}`;
}

class ValueProblem extends Error {
  constructor(readonly path: readonly PathKey[], message: string) {
    super(message);
  }
}

function scalarText(name: string, value: unknown, what = "text"): string {
  if (typeof value === "string" || typeof value === "number") return String(value);
  throw new ValueProblem([], `${name} must be ${what}, not ${describe(value)}`);
}

function parseWith(option: OptionLike | undefined, text: string, previous?: unknown): unknown {
  if (typeof option?.parseArg !== "function") return text;
  return (option.parseArg as (value: string, previous: unknown) => unknown)(text, previous);
}

/** Turns one config value into what the flag would have given. */
function convert(
  name: string,
  entry: { key: ConfigKey; option?: OptionLike },
  value: unknown,
  source: { dir: string; cwd: string },
): unknown {
  const { key, option } = entry;
  const rel = (v: string) => resolvePath(source.dir, v, source.cwd);
  switch (key.type) {
    case "boolean":
      if (typeof value !== "boolean") {
        throw new ValueProblem([], `${name} must be true or false, not ${describe(value)}`);
      }
      return value;
    case "integer":
    case "number": {
      if (typeof value !== "number") {
        throw new ValueProblem([], `${name} must be a number, not ${describe(value)}`);
      }
      return parseWith(option, String(value));
    }
    case "text":
      return parseWith(option, scalarText(name, value));
    case "path":
      return rel(scalarText(name, value, "a file path"));
    case "output": {
      const file = scalarText(name, value, "a file path (or - for stdout)");
      return file === "-" ? file : rel(file);
    }
    case "database": {
      const db = scalarText(name, value, "a SQLite file or a database URL");
      return resolveDatabasePath(db, rel);
    }
    case "module": {
      const ref = scalarText(name, value, "file:export, e.g. agent.ts:agent");
      const { module, exportName } = parseModuleRef(name, ref);
      return `${rel(module)}:${exportName}`;
    }
    case "csv": {
      const items = Array.isArray(value) ? value : [value];
      return parseWith(option, items.map((item) => scalarText(name, item)).join(","));
    }
    case "list": {
      const items = Array.isArray(value) ? value : [value];
      let acc: unknown = undefined;
      items.forEach((item, i) => {
        try {
          acc = parseWith(option, scalarText(name, item), acc);
        } catch (error) {
          throw new ValueProblem([i], error instanceof Error ? error.message : String(error));
        }
      });
      return acc;
    }
    case "rules": {
      if (!Array.isArray(value)) {
        throw new ValueProblem(
          [],
          "rules must be a list, e.g. [read_only, {tenant_filter: {column: store_id}}]",
        );
      }
      return value.map((item, i) => {
        try {
          const spec = readRuleSpec(item);
          if (spec.kind === "builtin") return spec;
          const { module, exportName } = parseModuleRef("rules", spec.ref);
          return { kind: "module", ref: `${rel(module)}:${exportName}` } satisfies RuleSpec;
        } catch (error) {
          if (!(error instanceof RuleSpecProblem)) throw error;
          throw new ValueProblem([i, ...error.path], error.message);
        }
      });
    }
  }
}

/** Finds the config file: `--config FILE`, or dbagenteval.yaml in `cwd`. */
function findConfig(explicit: unknown, cwd: string): string | undefined {
  if (typeof explicit === "string") return explicit;
  for (const name of CONFIG_FILE_NAMES) {
    const file = path.join(cwd, name);
    if (fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
      return path.relative(cwd, file) || name;
    }
  }
  return undefined;
}

/**
 * Reads `--rule` values: each is a rule as the config's `rules:` list holds
 * them, written as YAML (`read_only`, `"tenant_filter: {column: store_id}"`).
 */
function ruleFlags(values: readonly string[]): RuleSpec[] {
  return values.map((text) => {
    let spec: unknown;
    try {
      spec = parseYaml(text);
    } catch {
      spec = text;
    }
    try {
      return readRuleSpec(spec);
    } catch (error) {
      if (!(error instanceof RuleSpecProblem)) throw error;
      throw new UsageError(`--rule ${JSON.stringify(text)}: ${error.message}`);
    }
  });
}

/**
 * Applies the config file to a `run` invocation: each key the command line
 * did not give becomes that option's value.
 *
 * @param command the parsed `run` command (its options and where each value came from)
 * @param cases the cases argument, if given
 * @param options the parsed options (with `config` and `rule` among them)
 * @param cwd the current folder
 * @returns the cases file, the options and the rules to use
 * @throws {ConfigFileError} for a mistake in the file, with its line
 */
export function configureRun<O extends object>(
  command: CommandLike,
  cases: string | undefined,
  given: O,
  cwd: string = process.cwd(),
): ConfiguredRun<Omit<O, "rule" | "config">> {
  // Each value the config sets has the type its flag's parser gives, so the
  // options keep their parsed types.
  const options = given as Record<string, unknown>;
  const fromCli = (attribute: string) => command.getOptionValueSource(attribute) === "cli";
  const cliRules = Array.isArray(options["rule"]) ? options["rule"] as string[] : [];
  let ruleSpecs: RuleSpec[] | undefined = cliRules.length > 0 ? ruleFlags(cliRules) : undefined;
  const out: Record<string, unknown> = { ...options };
  delete out["rule"];
  delete out["config"];
  const file = findConfig(options["config"], cwd);
  if (file === undefined) {
    return { cases, options: out as Omit<O, "rule" | "config">, ruleSpecs, configFile: undefined };
  }

  const source = readConfigFile(file);
  const keys = configKeys(command);
  let configCases: string | undefined;
  for (const [name, value] of Object.entries(source.values)) {
    const entry = keys.get(name);
    if (entry === undefined) {
      const known = [...keys.keys()];
      const near = suggest(name, known) ?? suggest(snakeCase(name), known);
      throw new ConfigFileError(
        file,
        source.lineOf([name], true),
        `unknown key "${name}"; ` +
          (near !== undefined ? `did you mean "${near}"?` : `the keys are ${known.join(", ")}`),
      );
    }
    let converted: unknown;
    const used = name === "cases"
      ? cases === undefined
      : entry.key.type !== "rules" && entry.option !== undefined &&
        !fromCli(entry.option.attributeName());
    try {
      converted = convert(name, entry, value, { dir: source.dir, cwd });
      if (used && typeof converted === "string" && typeof value === "string") {
        checkConfigFile({
          key: name,
          type: entry.key.type,
          written: value,
          value: converted,
          cwd,
          dir: source.dir,
        });
      }
    } catch (error) {
      const at = error instanceof ValueProblem ? error.path : [];
      const message = error instanceof Error ? error.message : String(error);
      throw new ConfigFileError(
        file,
        source.lineOf([name, ...at]),
        new RegExp(`^${name}[ :]`).test(message) ? message : `${name}: ${message}`,
      );
    }
    // The command runs where its relative paths (agent.py) are: in the
    // config file's folder, as every other path the file holds.
    if (name === "agent_cmd" && used) out["agentCmdDir"] = path.resolve(cwd, source.dir);
    if (name === "cases") configCases = converted as string;
    else if (entry.key.type === "rules") {
      // --rule or --rules on the command line replace the file's rules.
      if (cliRules.length === 0 && !fromCli("rules")) ruleSpecs = converted as RuleSpec[];
    } else if (entry.option !== undefined && !fromCli(entry.option.attributeName())) {
      out[entry.option.attributeName()] = converted;
    }
  }
  return {
    cases: cases ?? configCases,
    options: out as Omit<O, "rule" | "config">,
    ruleSpecs,
    configFile: file,
  };
}
