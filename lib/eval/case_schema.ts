/**
 * What one case may hold, and its validation: the fields, their types, the
 * shape of `expect.rows`, and the selectors of the database expectations.
 * A mistake is a {@link CaseProblem} with its path inside the case; cases.ts
 * turns that path into the line of the file.
 *
 * @module
 */
import * as v from "valibot";
import { SelectorError } from "../errors.ts";
import { parseSelector } from "../../selector/match.ts";
import type { Expect, TestCase } from "./case.ts";
import { nameList } from "./json_text.ts";
import { suggest } from "../suggest.ts";
import { STAGE_KINDS } from "./trace.ts";

/** A step of a path into a case: a key or a list index. */
export type PathKey = string | number;

/** A mistake in one case, located by its path inside the case (cases.ts finds the line). */
export class CaseProblem extends Error {
  constructor(readonly path: readonly PathKey[], message: string, readonly key = false) {
    super(message);
  }
}

const nonEmptyText = (field: string) =>
  v.pipe(
    v.string(`${field} must be text`),
    v.check((s) => s.trim() !== "", `${field} must not be empty`),
  );

const CaseSchema = v.object({
  question: nonEmptyText("question"),
  reference_sql: v.optional(nonEmptyText("reference_sql")),
  id: v.optional(
    v.pipe(
      v.union([v.string(), v.number()], "id must be text"),
      v.transform(String),
      v.check((s) => s.trim() !== "", "id must not be empty"),
    ),
  ),
  tags: v.optional(
    v.array(
      v.pipe(v.union([v.string(), v.number()], "each tag must be text"), v.transform(String)),
      "tags must be a list, e.g. [easy, money]",
    ),
  ),
  ordered: v.optional(v.boolean("ordered must be true or false")),
  strict_columns: v.optional(v.boolean("strict_columns must be true or false")),
  db: v.optional(nonEmptyText("db")),
  evidence: v.optional(v.string("evidence must be text")),
  counterexample: v.optional(v.boolean("counterexample must be true or false")),
  tenant: v.optional(
    v.pipe(
      v.union([v.string(), v.number()], "tenant must be text or a number, e.g. tenant: s1"),
      v.transform(String),
    ),
  ),
  precision: v.optional(
    v.pipe(
      v.number("precision must be a whole number from 0 to 12"),
      v.integer("precision must be a whole number from 0 to 12"),
      v.minValue(0, "precision must be a whole number from 0 to 12"),
      v.maxValue(12, "precision must be a whole number from 0 to 12"),
    ),
  ),
  expect: v.optional(
    v.custom<Record<string, unknown>>(
      isPlainObject,
      "expect must be a mapping, e.g. expect: {rows: [{total: 2}]}",
    ),
  ),
});

/**
 * The fields a case may have, sorted, as the error message lists them. They
 * are the keys of the case schema below, so a field added there is allowed
 * and listed without a second list to keep in step.
 *
 * @example
 * ```ts
 * import { CASE_FIELDS } from "./case_schema.ts";
 * CASE_FIELDS.includes("reference_sql"); // true
 * CASE_FIELDS.includes("tenant"); // true
 * ```
 */
export const CASE_FIELDS: readonly string[] = Object.keys(CaseSchema.entries).sort();

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Checks expect.rows: one result (a list of rows) or several (a list of lists of rows). */
function checkExpectRows(rows: unknown): void {
  const shape = "expect.rows must be a list of rows, like [{total: 2}], or a list of such lists";
  if (!Array.isArray(rows)) throw new CaseProblem(["expect", "rows"], shape);
  const lists = rows.length > 0 && rows.every(Array.isArray);
  if (lists) {
    rows.forEach((result: unknown[], i) =>
      result.forEach((row, j) => {
        if (!isPlainObject(row)) throw new CaseProblem(["expect", "rows", i, j], shape);
      })
    );
    return;
  }
  rows.forEach((row, i) => {
    if (!isPlainObject(row)) throw new CaseProblem(["expect", "rows", i], shape);
  });
}

/** Reads a SelectorError's JSON path (`rows.changed.where[0].role`) back into keys. */
function selectorPath(jsonPath: string): PathKey[] {
  const keys: PathKey[] = [];
  for (const m of jsonPath.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    keys.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  }
  return keys;
}

/**
 * Checks the database side-effect expectations: db_change and db_no_change
 * are selectors, validated here so `validate` finds their mistakes (with the
 * line of the bad key); db_unchanged is true or false.
 */
function checkExpectDb(expect: Record<string, unknown>): void {
  for (const key of ["db_change", "db_no_change"]) {
    if (!(key in expect)) continue;
    try {
      parseSelector(expect[key]);
    } catch (e) {
      if (!(e instanceof SelectorError)) throw e;
      const inner = e.jsonPath === "" ? e.message : e.message.slice(e.jsonPath.length + 2);
      const where = e.jsonPath === "" ? `expect.${key}` : `expect.${key}.${e.jsonPath}`;
      throw new CaseProblem(["expect", key, ...selectorPath(e.jsonPath)], `${where}: ${inner}`);
    }
  }
  if ("db_unchanged" in expect && typeof expect["db_unchanged"] !== "boolean") {
    throw new CaseProblem(
      ["expect", "db_unchanged"],
      "expect.db_unchanged takes true (the agent must not change the database) or false",
    );
  }
}

/** The keys of expect that are not stage names. */
const EXPECT_KEYS = ["rows", "db_change", "db_no_change", "db_unchanged"] as const;

/**
 * Any other key of expect names a stage, which only the run can look up; a
 * key one typo from `rows` or a db_ key, or a stage kind misspelled (a
 * letter changed, dropped or two swapped: `exectue`), is a mistake `validate`
 * can name. A longer name than a kind (`router`, `executor`) is a stage name
 * of the user's own.
 */
function checkExpectKeys(expect: Record<string, unknown>): void {
  for (const key of Object.keys(expect)) {
    if ((EXPECT_KEYS as readonly string[]).includes(key)) continue;
    const near = suggest(key, EXPECT_KEYS) ??
      STAGE_KINDS.find((k) => k !== key && k.length >= key.length && suggest(key, [k]) === k);
    if (near === undefined) continue;
    throw new CaseProblem(
      ["expect", key],
      `expect.${key}: did you mean "${near}"? expect takes ${
        EXPECT_KEYS.join(", ")
      }, or a stage's name (${STAGE_KINDS.join(", ")}, or the name your trace gives it)`,
      true,
    );
  }
}

/** Validates one case and fills the defaults; the id may still be missing. */
export function readCase(raw: unknown): Omit<TestCase, "id"> & { id?: string } {
  checkCase(raw);
  return caseFrom(raw as CaseFields);
}

/** A case's fields as valibot checked them, before its transforms. */
export type CaseFields = Omit<v.InferInput<typeof CaseSchema>, "expect"> & {
  expect?: Record<string, unknown>;
};

/**
 * Validates one case.
 *
 * @param raw the case's value
 * @throws {CaseProblem} for its first mistake
 */
function checkCase(raw: unknown): void {
  if (!isPlainObject(raw)) {
    throw new CaseProblem([], "a case must be a mapping with at least a question");
  }
  const unknown = Object.keys(raw).filter((k) => !CASE_FIELDS.includes(k));
  if (unknown.length > 0) {
    const near = unknown.flatMap((k) => suggest(k, CASE_FIELDS) ?? []);
    const hint = near.length > 0 ? `did you mean ${near.map((n) => `"${n}"`).join(", ")}? ` : "";
    throw new CaseProblem(
      [unknown[0]!],
      `unknown field(s) ${nameList(unknown)}; ${hint}allowed: ${CASE_FIELDS.join(", ")}`,
      true,
    );
  }
  if (!("question" in raw)) {
    throw new CaseProblem([], "missing field 'question'; every case needs a question");
  }
  const parsed = v.safeParse(CaseSchema, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = (issue.path ?? []).map((p) => p.key as PathKey);
    throw new CaseProblem(path, issue.message);
  }
  const c = parsed.output;
  if (c.expect !== undefined && "rows" in c.expect) checkExpectRows(c.expect["rows"]);
  if (c.expect !== undefined) checkExpectKeys(c.expect);
  if (c.expect !== undefined) checkExpectDb(c.expect);
}

/**
 * The case of a value that {@link readCase} accepted: the schema's
 * transforms (ids, tags and tenants as text) and the defaults. A run reads
 * a JSON lines file twice and validates each line the first time only.
 *
 * @param c the case's value, valid
 * @returns the case; the id may still be missing
 */
export function caseFrom(c: CaseFields): Omit<TestCase, "id"> & { id?: string } {
  return {
    question: c.question,
    ...(c.reference_sql !== undefined ? { reference_sql: c.reference_sql } : {}),
    ...(c.expect !== undefined ? { expect: c.expect as Expect } : {}),
    ...(c.id !== undefined ? { id: String(c.id) } : {}),
    tags: c.tags === undefined ? [] : c.tags.map(String),
    ordered: c.ordered ?? false,
    ...(c.strict_columns !== undefined ? { strict_columns: c.strict_columns } : {}),
    precision: c.precision ?? 2,
    ...(c.counterexample !== undefined ? { counterexample: c.counterexample } : {}),
    ...(c.tenant !== undefined ? { tenant: String(c.tenant) } : {}),
    ...(c.db !== undefined ? { db: c.db } : {}),
    ...(c.evidence !== undefined ? { evidence: c.evidence } : {}),
  };
}
