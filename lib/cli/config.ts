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
 * Each key is a row of `run`'s option table (lib/eval/run_options.ts): the
 * flag in snake_case, read as the kind of value the row takes, so an option
 * added to `run` is one row there and a key cannot outlive its flag. Values
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
import { suggest } from "../suggest.ts";
import { checkConfigFile } from "./_config_values.ts";
import { parseModuleRef } from "../run/load_module.ts";
import { resolveDatabasePath } from "../databases/registry.ts";
import { type PathKey, readRuleSpec, type RuleSpec, RuleSpecProblem } from "./_builtin_rules.ts";
import { configKeyOf, type OptionRow, type OptionValueKind, parserOf } from "../option_values.ts";
import { RUN_OPTION_ROWS, type RunConfigKey } from "../eval/run_options.ts";

/** The names looked for in the current folder, in order. */
export const CONFIG_FILE_NAMES: readonly string[] = ["dbagenteval.yaml", "dbagenteval.yml"];

/** The kinds of value a config key takes (see OptionValueKind). */
export type ConfigValueType = OptionValueKind;

/** One config key: the row of `run`'s table it sets (none for `cases`) and how it is read. */
interface ConfigKey {
  readonly type: ConfigValueType;
  readonly row?: OptionRow;
}

/** The parts of a commander Command that the config reads. */
export interface CommandLike {
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

/**
 * Every config key `run` accepts: `cases` (the argument), then one a row of
 * `run`'s table (lib/eval/run_options.ts) that has one.
 */
function configKeys(): Map<string, ConfigKey> {
  const keys = new Map<string, ConfigKey>([["cases", { type: "path" }]]);
  const rows: readonly OptionRow[] = RUN_OPTION_ROWS;
  for (const row of rows) {
    const name = configKeyOf(row);
    if (name !== undefined) keys.set(name, { type: row.configKind ?? row.kind, row });
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

function parseWith(row: OptionRow | undefined, text: string, previous?: unknown): unknown {
  const parse = row === undefined ? undefined : parserOf(row);
  return parse === undefined ? text : parse(text, previous);
}

/** Turns one config value into what the flag would have given. */
function convert(
  name: string,
  key: ConfigKey,
  value: unknown,
  source: { dir: string; cwd: string },
): unknown {
  const option = key.row;
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
  const keys = configKeys();
  let configCases: string | undefined;
  for (const [name, value] of Object.entries(source.values)) {
    const key = keys.get(name);
    if (key === undefined) {
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
      : key.type !== "rules" && key.row !== undefined && !fromCli(key.row.key);
    try {
      converted = convert(name, key, value, { dir: source.dir, cwd });
      if (used && typeof converted === "string" && typeof value === "string") {
        checkConfigFile({
          key: name,
          type: key.type,
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
    if (name === ("agent_cmd" satisfies RunConfigKey) && used) {
      out["agentCmdDir"] = path.resolve(cwd, source.dir);
    }
    if (name === "cases") configCases = converted as string;
    else if (key.type === "rules") {
      // --rule or --rules on the command line replace the file's rules.
      if (cliRules.length === 0 && !fromCli("rules")) ruleSpecs = converted as RuleSpec[];
    } else if (key.row !== undefined && !fromCli(key.row.key)) {
      out[key.row.key] = converted;
    }
  }
  return {
    cases: cases ?? configCases,
    options: out as Omit<O, "rule" | "config">,
    ruleSpecs,
    configFile: file,
  };
}
