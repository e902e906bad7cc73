/**
 * Compiling a selector and matching it: {@link parseSelector} and
 * {@link matchesDiff}. A selector's parts all have to hold: its scopes
 * (selector/scopes.ts), and its `$and` (every selector), `$or` (some
 * selector) and `$not` (not the selector). A nested selector without its own
 * `target` inherits its parent's.
 *
 * @module
 */
import type { DatabaseDiff } from "../lib/diff/types.ts";
import { SelectorError } from "../lib/errors.ts";
import { formatPath, type PathKey } from "./_text.ts";
import { BOTH, type Planes, planesName, planesOf } from "./planes.ts";
import { validateSelectorAt } from "./schema.ts";
import { type Compiled, compileScopes } from "./scopes.ts";
import type { Selector, TablesScope } from "./types.ts";
import { CannotTellError } from "../lib/errors.ts";
import { TableFacts } from "./facts.ts";
import { every, negate, some, verdictWord } from "./_truth.ts";

/** Refuses criteria the target planes cannot have: a mistake, not a silent false. */
function checkPlanes(selector: Selector, planes: Planes, path: readonly PathKey[]): void {
  const at = (...keys: PathKey[]) => formatPath([...path, ...keys]);
  const target = `target is "${planesName(planes)}"`;
  if (selector.rows !== undefined && !planes.data) {
    throw new SelectorError(
      at("rows"),
      `rows are in the data plane, but ${target}; use target "data" or "both"`,
    );
  }
  const tables: TablesScope | undefined = selector.tables;
  if (tables === undefined) return;
  if (tables.columns !== undefined && !planes.schema) {
    throw new SelectorError(
      at("tables", "columns"),
      `columns are in the schema plane, but ${target}; use target "schema" or "both"`,
    );
  }
  if (planes.schema) return;
  const dataOnly = `in the data plane a table is only "changed" or "unchanged"`;
  for (const key of ["added", "removed"] as const) {
    if (tables[key] !== undefined) {
      throw new SelectorError(at("tables", key), `${dataOnly}, and ${target}`);
    }
  }
  const s = tables.status;
  const statuses = s === undefined
    ? []
    : typeof s === "string"
    ? [s]
    : typeof s.has_one === "string"
    ? [s.has_one]
    : s.has_one;
  if (statuses.some((x) => x === "added" || x === "removed")) {
    throw new SelectorError(at("tables", "status"), `${dataOnly}, and ${target}`);
  }
}

function label(path: readonly PathKey[], key: string, index?: number): PathKey[] {
  return index === undefined ? [...path, key] : [...path, key, index];
}

function indent(lines: readonly string[]): string[] {
  return lines.map((l) => `  ${l}`);
}

function compile(selector: Selector, inherited: Planes, path: readonly PathKey[]): Compiled {
  const planes = selector.target === undefined ? inherited : planesOf(selector.target);
  checkPlanes(selector, planes, path);
  const parts: Compiled[] = [];
  const hasScope = selector.databases !== undefined || selector.tables !== undefined ||
    selector.rows !== undefined;
  const hasLogic = selector.$and !== undefined || selector.$or !== undefined ||
    selector.$not !== undefined;
  if (hasScope || !hasLogic) parts.push(compileScopes(selector, planes));

  const children = (key: "$and" | "$or", list: readonly Selector[]) =>
    list.map((s, i) => ({
      name: formatPath(label(path, key, i)),
      compiled: compile(s, planes, label(path, key, i)),
    }));
  const criteriaOf = (list: readonly { compiled: Compiled }[]) =>
    list.flatMap((c) => c.compiled.criteria);

  if (selector.$and !== undefined) {
    const all = children("$and", selector.$and);
    parts.push({
      criteria: criteriaOf(all),
      test: (diff, f) => every(all, (c) => c.compiled.test(diff, f)),
      explain: (diff, f) => {
        const results = all.map((c) => ({ ...c, ...c.compiled.explain(diff, f) }));
        const matched = every(results, (r) => r.matched);
        const shown = matched === true ? results : results.filter((r) => r.matched !== true);
        return {
          matched,
          lines: shown.flatMap((r) => [`${r.name}: ${verdictWord(r.matched)}`, ...indent(r.lines)]),
        };
      },
    });
  }
  if (selector.$or !== undefined) {
    const any = children("$or", selector.$or);
    parts.push({
      criteria: criteriaOf(any),
      test: (diff, f) => some(any, (c) => c.compiled.test(diff, f)),
      explain: (diff, f) => {
        const results = any.map((c) => ({ ...c, ...c.compiled.explain(diff, f) }));
        const hit = results.find((r) => r.matched === true);
        const matched = some(results, (r) => r.matched);
        // Cannot tell: the branches that cannot; no match: every branch.
        const shown = hit !== undefined
          ? [hit]
          : matched === null
          ? results.filter((r) => r.matched === null)
          : results;
        return {
          matched,
          lines: shown.flatMap((r) => [`${r.name}: ${verdictWord(r.matched)}`, ...indent(r.lines)]),
        };
      },
    });
  }
  if (selector.$not !== undefined) {
    const name = formatPath(label(path, "$not"));
    const inner = compile(selector.$not, planes, label(path, "$not"));
    parts.push({
      criteria: inner.criteria,
      test: (diff, f) => negate(inner.test(diff, f)),
      explain: (diff, f) => {
        const r = inner.explain(diff, f);
        const says = r.matched === null ? "cannot tell" : r.matched ? "matches" : "does not match";
        return {
          matched: negate(r.matched),
          lines: [`${name}: the inner selector ${says}`, ...indent(r.lines)],
        };
      },
    });
  }
  if (parts.length === 1) return parts[0]!;
  return {
    criteria: parts.flatMap((p) => p.criteria),
    test: (diff, f) => every(parts, (p) => p.test(diff, f)),
    explain: (diff, f) => {
      const results = parts.map((p) => p.explain(diff, f));
      const matched = every(results, (r) => r.matched);
      // No match: the parts that fail decide it; cannot tell: those that cannot.
      const shown = matched === true
        ? results
        : results.filter((r) => r.matched === (matched === false ? false : null));
      return { matched, lines: shown.flatMap((r) => r.lines) };
    },
  };
}

/** Validates and compiles a selector document. */
export function compileSelector(input: unknown): Compiled {
  const { selector, path } = validateSelectorAt(input);
  return compile(selector, BOTH, path);
}

/**
 * Validates a selector: its structure, its operators and values, and that
 * its criteria fit its target planes.
 *
 * @param input a selector as parsed from JSON or YAML (a top-level
 *   `selector:` key is unwrapped)
 * @returns the validated selector
 * @throws {SelectorError} naming the JSON path of the first mistake
 * @example
 * ```ts
 * import { parseSelector } from "./mod.ts";
 * parseSelector({ rows: { changed: { has_one: ["password"] } } });
 * // parseSelector({ rows: { chnaged: "password" } }) throws
 * //   rows: unknown key "chnaged"; did you mean "changed"?
 * ```
 */
export function parseSelector(input: unknown): Selector {
  const { selector, path } = validateSelectorAt(input);
  compile(selector, BOTH, path);
  return selector;
}

/**
 * Tests whether a diff matches a selector. An answer that depends on row
 * changes the diff counted but did not keep (`max_rows`, `max_bytes`) is
 * neither: it throws {@link CannotTellError}. Ask while diffing
 * (`watchSelector`) to see every row.
 *
 * @param diff a diff document (from `diffSqliteDatabases` or `diffFromJson`)
 * @param selector a selector, validated or not
 * @returns true when the diff matches
 * @throws {SelectorError} when the selector has a mistake (never a silent false)
 * @throws {CannotTellError} when the rows the diff kept cannot tell
 * @example
 * ```ts
 * import { matchesDiff } from "./mod.ts";
 * import type { DatabaseDiff } from "../lib/diff/types.ts";
 * const diff: DatabaseDiff = {
 *   version: 1,
 *   settings: { include_schema: true, include_data: true, max_rows: 1000, tables: null },
 *   databases: [],
 * };
 * matchesDiff(diff, { rows: { added: { has_one: [{ name: "alice" }] } } }); // false
 * ```
 */
export function matchesDiff(diff: DatabaseDiff, selector: Selector | unknown): boolean {
  const compiled = compileSelector(selector);
  // The answer alone: no nearest misses, and a pass stops once a row settles it.
  const matched = compiled.test(diff, new TableFacts(null, false));
  if (matched === null) {
    throw new CannotTellError(cannotTellText(compiled.explain(diff, new TableFacts()).lines));
  }
  return matched;
}

/** The first line of a "cannot tell" answer. */
export const CANNOT_TELL =
  "cannot tell: the answer depends on row changes the diff counted but did not keep";

/** A "cannot tell" explanation: its first line and the details, indented. */
export function cannotTellText(lines: readonly string[]): string {
  return [CANNOT_TELL, ...lines.map((l) => `  ${l}`)].join("\n");
}
