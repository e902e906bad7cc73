/**
 * The built-in rules by name, for the config file's `rules:` list and the
 * `--rule` flag: `read_only`, `{tenant_filter: {column: store_id, value: s1}}`,
 * `{allowed_tables: [orders, customers]}`. A string with a colon,
 * `rules.ts:RULES`, names a module's export instead (loaded later, by run).
 *
 * One entry per rule: its options schema (valibot) and how to build it. A
 * new built-in rule is one line in {@link BUILTIN_RULES}.
 *
 * @module
 */
import * as v from "valibot";
import type { Check } from "../eval/check.ts";
import type { RuleSpec } from "../run/run_setup.ts";
import { suggest } from "../suggest.ts";
import {
  AllowedColumns,
  AllowedTables,
  DIALECTS,
  NoJoins,
  NoSubqueries,
  NumbersGrounded,
  ReadOnly,
  TenantFilter,
} from "../../rules/mod.ts";

/** A step of a path into the config file: a key or a list index. */
export type PathKey = string | number;

/** A mistake in a rule spec, located by its path inside the spec. */
export class RuleSpecProblem extends Error {
  /**
   * @param path where in the spec
   * @param message what is wrong
   */
  constructor(readonly path: readonly PathKey[], message: string) {
    super(message);
  }
}

/** A rule the config names: a built-in check, or a module export to load. */
export type { RuleSpec };

const text = (what: string) =>
  v.pipe(v.string(`${what} must be text`), v.minLength(1, `${what} must not be empty`));
const names = (what: string) =>
  v.pipe(
    v.array(
      v.pipe(
        v.union([v.string(), v.number()], `each of ${what} must be text`),
        v.transform(String),
      ),
      `${what} must be a list, e.g. [orders, customers]`,
    ),
    v.minLength(1, `${what} must list at least one name`),
  );
const dialect = v.optional(
  v.picklist(
    [...DIALECTS, "postgresql"],
    `dialect must be one of ${DIALECTS.join(", ")}`,
  ),
);

interface Builtin {
  /** The option keys, for did-you-mean. */
  readonly keys: readonly string[];
  /** The options as valibot reads them. */
  readonly schema: v.GenericSchema<unknown, Record<string, unknown>>;
  /** The options a bare value stands for: a list of tables, a column name. */
  readonly shorthand?: (value: unknown) => Record<string, unknown> | undefined;
  readonly build: (options: Record<string, unknown>) => Check;
}

function builtin<T extends v.ObjectEntries>(
  entries: T,
  build: (options: v.InferOutput<v.ObjectSchema<T, undefined>>) => Check,
  shorthand?: (value: unknown) => Record<string, unknown> | undefined,
): Builtin {
  return {
    keys: Object.keys(entries),
    schema: v.object(entries) as unknown as v.GenericSchema<unknown, Record<string, unknown>>,
    build: build as (options: Record<string, unknown>) => Check,
    ...(shorthand !== undefined ? { shorthand } : {}),
  };
}

const listOf = (key: string) => (value: unknown) =>
  Array.isArray(value) ? { [key]: value } : undefined;

function nameSource(o: { from_stage?: string | undefined }, list: readonly string[] | undefined) {
  return o.from_stage !== undefined ? { fromStage: o.from_stage } : list ?? [];
}

function needsOne(what: string) {
  return v.check(
    (o: Record<string, unknown>) => (o[what] === undefined) !== (o["from_stage"] === undefined),
    `give either ${what} (a list) or from_stage (a stage whose output lists them)`,
  );
}

/** The built-in rules by the name a config file uses, with their options. */
export const BUILTIN_RULES: Readonly<Record<string, Builtin>> = {
  read_only: builtin(
    { dialect, forbidden_functions: v.optional(names("forbidden_functions")) },
    (o) =>
      new ReadOnly({
        ...(o.dialect ? { dialect: o.dialect } : {}),
        ...(o.forbidden_functions ? { forbiddenFunctions: o.forbidden_functions } : {}),
      }),
  ),
  tenant_filter: builtin(
    {
      column: text("column"),
      value: v.optional(v.union([v.string(), v.number()], "value must be text or a number")),
      tables: v.optional(names("tables")),
      dialect,
    },
    (o) =>
      new TenantFilter(o.column, {
        ...(o.value !== undefined ? { value: o.value } : {}),
        ...(o.tables !== undefined ? { tables: o.tables } : {}),
        ...(o.dialect ? { dialect: o.dialect } : {}),
      }),
    (value) => typeof value === "string" ? { column: value } : undefined,
  ),
  allowed_tables: builtin(
    { tables: v.optional(names("tables")), from_stage: v.optional(text("from_stage")), dialect },
    (o) => new AllowedTables(nameSource(o, o.tables), o.dialect ? { dialect: o.dialect } : {}),
    listOf("tables"),
  ),
  allowed_columns: builtin(
    { columns: v.optional(names("columns")), from_stage: v.optional(text("from_stage")), dialect },
    (o) => new AllowedColumns(nameSource(o, o.columns), o.dialect ? { dialect: o.dialect } : {}),
    listOf("columns"),
  ),
  no_joins: builtin({ dialect }, (o) => new NoJoins(o.dialect ? { dialect: o.dialect } : {})),
  no_subqueries: builtin(
    { dialect },
    (o) => new NoSubqueries(o.dialect ? { dialect: o.dialect } : {}),
  ),
  numbers_grounded: builtin({}, () => new NumbersGrounded()),
};

const CHECKS: Partial<
  Record<
    string,
    v.GenericPipeItem<Record<string, unknown>, Record<string, unknown>, v.BaseIssue<unknown>>
  >
> = {
  allowed_tables: needsOne("tables"),
  allowed_columns: needsOne("columns"),
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function unknownRule(name: string): RuleSpecProblem {
  const known = Object.keys(BUILTIN_RULES);
  const near = suggest(name, known);
  return new RuleSpecProblem(
    [],
    `unknown rule "${name}"; ` +
      (near !== undefined
        ? `did you mean "${near}"?`
        : `the built-in rules are ${known.join(", ")}`) +
      " (a rule of your own is file:export, e.g. rules.ts:RULES)",
  );
}

function buildBuiltin(name: string, raw: unknown, at: readonly PathKey[]): RuleSpec {
  const rule = BUILTIN_RULES[name];
  if (rule === undefined) throw unknownRule(name);
  const options = raw === null || raw === undefined ? {} : rule.shorthand?.(raw) ?? raw;
  if (!isPlainObject(options)) {
    const example = rule.keys.length === 0 ? name : `{${name}: {${rule.keys[0]}: ...}}`;
    throw new RuleSpecProblem(at, `${name} takes options as a mapping, e.g. ${example}`);
  }
  for (const key of Object.keys(options)) {
    if (rule.keys.includes(key)) continue;
    const near = suggest(key, rule.keys);
    throw new RuleSpecProblem(
      [...at, key],
      `${name}: unknown option "${key}"; ` +
        (near !== undefined
          ? `did you mean "${near}"?`
          : rule.keys.length === 0
          ? "it takes none"
          : `its options are ${rule.keys.join(", ")}`),
    );
  }
  const extra = CHECKS[name];
  const schema = extra === undefined ? rule.schema : v.pipe(rule.schema, extra);
  const parsed = v.safeParse(schema, options);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const key = issue.path?.[0]?.key;
    const where = typeof key === "string" ? [...at, key] : at;
    const missing = issue.received === "undefined" && typeof key === "string";
    throw new RuleSpecProblem(
      where,
      `${name}: ${missing ? `missing option "${key}"` : issue.message}`,
    );
  }
  return { kind: "builtin", name, check: rule.build(parsed.output) };
}

/**
 * Reads one item of a `rules:` list (or a `--rule` value parsed as YAML).
 *
 * @param spec `read_only`, `file:export`, or `{name: options}`
 * @returns the rule, built when it is a built-in one
 * @throws {RuleSpecProblem} naming where in the spec the mistake is
 */
export function readRuleSpec(spec: unknown): RuleSpec {
  if (typeof spec === "string") {
    if (spec.includes(":")) return { kind: "module", ref: spec };
    return buildBuiltin(spec, undefined, []);
  }
  if (isPlainObject(spec)) {
    const keys = Object.keys(spec);
    if (keys.length !== 1) {
      throw new RuleSpecProblem(
        [],
        "a rule with options is a mapping with one key, the rule's name, e.g. " +
          "{tenant_filter: {column: store_id}}",
      );
    }
    const name = keys[0]!;
    return buildBuiltin(name, spec[name], [name]);
  }
  throw new RuleSpecProblem(
    [],
    "a rule is a name (read_only), a mapping ({tenant_filter: {column: store_id}}) or file:export",
  );
}
