/**
 * The row criteria of the `rows` scope: `rows.added`, `rows.removed` and
 * `rows.changed`, each a column, a list of columns, or an object of
 * `has_one`, `has_all`, `where` and `$count`.
 *
 * One rule covers every combination: `by_key` and `where` pick the
 * candidate rows; `has_one` needs one template to match one candidate,
 * `has_all` needs every template to match some candidate (different rows
 * may match different templates), `$count` compares the number of
 * candidates; with none of the three, one candidate is enough. A bare
 * column or list is `has_one` of that one template.
 *
 * @module
 */
import type { SqliteRow } from "../lib/sqlite/value.ts";
import type { AddedRow, ChangedRow, RemovedRow, TableDiff } from "../lib/diff/types.ts";
import { complete, type FoldShape, type RowFacts, type RowFold, startFold } from "./row_facts.ts";
import { every, type Truth } from "./_truth.ts";
import { OPERATOR_NAMES, OPERATORS } from "./operators.ts";
import { formatValue } from "./_text.ts";
import {
  allOf,
  anyOf,
  changedAll,
  compileWhere,
  compileWhereObject,
  type Condition,
  notNull,
  type RowView,
} from "./where.ts";
import type { ChangedRowsMatch, CountCondition, RowsMatch, RowTemplate } from "./types.ts";

/** Which kind of row change a criterion looks at. */
export type RowKind = "added" | "removed" | "changed";

/**
 * A compiled `rows.added`, `rows.removed` or `rows.changed`, with its
 * scope's `by_key`. It reads a table's rows through {@link RowFacts}: one
 * pass over every row while the diff streams, or over the rows a diff kept.
 */
export interface RowCriterion {
  readonly kind: RowKind;
  /**
   * A pass over rows of its kind, gathering what it needs: for the answer
   * alone, or (`explaining`, the default) for the explanation too.
   */
  start(explaining?: boolean): RowFold;
  /** Whether a table's rows satisfy it; null when the rows the facts saw cannot tell. */
  decide(facts: RowFacts): Truth;
  /** What matched (`id=10: role "manager" -> "admin"`), or why nothing did or why it cannot tell. */
  explain(facts: RowFacts): { ok: Truth; text: string };
  /** The columns its conditions read, for "no table has column ..." */
  readonly columns: readonly string[];
}

/** A compiled `$count`. */
interface CountTest {
  test(n: number): boolean;
  /** The counts where the answer may change: each operand, and its neighbours. */
  readonly edges: readonly number[];
  describe(): string;
}

function compileCount(condition: CountCondition): CountTest {
  const ops: Record<string, unknown> = typeof condition === "number"
    ? { $eq: condition }
    : condition;
  const tests: ((n: number) => boolean)[] = [];
  const words: string[] = [];
  const edges: number[] = [];
  for (const name of OPERATOR_NAMES) {
    if (!(name in ops)) continue;
    const test = OPERATORS[name].build(ops[name]);
    tests.push((n) => test(n));
    words.push(OPERATORS[name].describe("count", ops[name]));
    for (const v of [ops[name]].flat()) {
      if (typeof v === "number") edges.push(v - 1, v, v + 1);
    }
  }
  return {
    test: (n) => tests.every((t) => t(n)),
    edges,
    describe: () => words.join(" and "),
  };
}

/**
 * Whether every count from `low` to `high` passes (true), none does
 * (false), or some do (null). Each operator's answer changes only at its
 * operand, so `low`, `high` and the operands with their neighbours in
 * between are every place it can change.
 */
function countOver(count: CountTest, low: number, high: number): Truth {
  const points = [low, high, ...count.edges.filter((n) => n > low && n < high)];
  const first = count.test(low);
  return points.every((n) => count.test(n) === first) ? first : null;
}

/** The row changes of one kind as conditions see them. */
export function rowViews(table: TableDiff, kind: RowKind): RowView[] {
  if (kind === "changed") return table.rows.changed.map((r) => rowView("changed", r));
  return table.rows[kind].map((r) => rowView(kind, r));
}

/** One row change as conditions see it. */
export function rowView(kind: RowKind, change: AddedRow | RemovedRow | ChangedRow): RowView {
  if (kind === "changed") {
    const r = change as ChangedRow;
    return {
      values: r.after,
      key: r.key,
      before: r.before,
      after: r.after,
      changedColumns: r.changed_columns,
    };
  }
  const r = change as AddedRow | RemovedRow;
  return {
    values: r.row,
    key: r.key,
    before: kind === "removed" ? r.row : null,
    after: kind === "added" ? r.row : null,
    changedColumns: null,
  };
}

function template(t: RowTemplate): Condition {
  if (typeof t === "string") return notNull([t]);
  if (Array.isArray(t)) return notNull(t as readonly string[]);
  return compileWhereObject(t as Exclude<RowTemplate, string | readonly string[]>);
}

interface Parts {
  readonly where: Condition | null;
  readonly hasOne: readonly Condition[] | null;
  readonly hasAll: readonly Condition[] | null;
  readonly count: CountTest | null;
}

function addedOrRemovedParts(match: RowsMatch): Parts {
  if (typeof match === "string" || Array.isArray(match)) {
    return { where: null, hasOne: [template(match as RowTemplate)], hasAll: null, count: null };
  }
  const m = match as Exclude<RowsMatch, string | readonly string[]>;
  const hasOne = m.has_one === undefined
    ? null
    : Array.isArray(m.has_one)
    ? (m.has_one as readonly RowTemplate[]).map(template)
    : [template(m.has_one as RowTemplate)];
  return {
    where: m.where === undefined ? null : compileWhere(m.where),
    hasOne,
    hasAll: m.has_all === undefined ? null : m.has_all.map(template),
    count: m.$count === undefined ? null : compileCount(m.$count),
  };
}

function changedParts(match: ChangedRowsMatch): Parts {
  if (typeof match === "string") {
    return { where: null, hasOne: [changedAll([match])], hasAll: null, count: null };
  }
  if (Array.isArray(match)) {
    return { where: null, hasOne: [changedAll(match)], hasAll: null, count: null };
  }
  const m = match as Exclude<ChangedRowsMatch, string | readonly string[]>;
  const each = (cols: string | readonly string[]) =>
    (typeof cols === "string" ? [cols] : cols).map((c) => changedAll([c]));
  return {
    where: m.where === undefined ? null : compileWhere(m.where),
    hasOne: m.has_one === undefined ? null : each(m.has_one),
    hasAll: m.has_all === undefined ? null : each(m.has_all),
    count: m.$count === undefined ? null : compileCount(m.$count),
  };
}

/**
 * Compiles one row criterion.
 *
 * @param kind added, removed or changed
 * @param match the validated criterion
 * @param byKey the scope's `by_key`, or null
 * @returns the criterion
 */
export function compileRowCriterion(
  kind: RowKind,
  match: RowsMatch | ChangedRowsMatch,
  byKey: Condition | null,
): RowCriterion {
  const parts = kind === "changed"
    ? changedParts(match as ChangedRowsMatch)
    : addedOrRemovedParts(match as RowsMatch);
  const { where, hasOne, hasAll, count } = parts;
  const filters = [byKey, where].filter((c): c is Condition => c !== null);
  const filter = filters.length === 0 ? null : allOf(filters);
  const columns = [
    ...new Set([where, ...(hasOne ?? []), ...(hasAll ?? [])].flatMap((c) => c?.columns ?? [])),
  ];
  const shape: FoldShape = {
    filter,
    hasOne,
    hasAll,
    anyOne: hasOne === null ? null : anyOf(hasOne),
    columns,
    counted: count !== null,
  };
  const plain = hasOne === null && hasAll === null && count === null && filter === null;

  const decide = (f: RowFacts): Truth => {
    if (f.unproven === true) return null;
    const whole = complete(f);
    if (f.total === 0 && f.seen === 0) {
      return count !== null && hasOne === null && hasAll === null && count.test(0);
    }
    if (plain) return f.total > 0;
    // What the rows not looked at could still bring: a hit, never take one away.
    const found = (hit: boolean): Truth => hit ? true : whole ? false : null;
    const parts: Truth[] = [];
    if (hasOne !== null) parts.push(found(f.oneHits.some((h) => h !== undefined)));
    if (hasAll !== null) parts.push(found(f.allHits.every((h) => h !== undefined)));
    if (count !== null) {
      parts.push(
        filter === null
          ? count.test(f.total)
          : countOver(count, f.candidates, f.candidates + f.total - f.seen),
      );
    } else if (hasOne === null && hasAll === null) parts.push(found(f.candidates > 0));
    return every(parts, (p) => p);
  };

  const explain = (f: RowFacts): { ok: Truth; text: string } => {
    const ok = decide(f);
    const noun = `${kind} row`;
    if (f.unproven === true) {
      return {
        ok,
        text:
          `cannot tell: this table's ${kind} rows come from diffs that did not keep every row (a diff of cut diffs)`,
      };
    }
    const filtered = filter === null
      ? ""
      : ` with ${filters.map((c) => c.describe()).join(" and ")}`;
    const n = filter === null ? f.total : f.candidates;
    const kept = complete(f) ? "" : ` (the diff kept ${f.seen} of ${f.total} ${kind} rows)`;
    if (ok === true) {
      if (count !== null) {
        return { ok, text: `${plural(n, noun)}${filtered} (${count.describe()})` };
      }
      const shown = hasAll !== null
        ? hasAll.map((t, i) =>
          f.allHits[i] === undefined ? "" : renderRow(f.allHits[i]!, [t, ...filters])
        )
        : hasOne !== null
        ? hasOne.map((t, i) =>
          f.oneHits[i] === undefined ? "" : renderRow(f.oneHits[i]!, [t, ...filters])
        )
          .filter((x) => x !== "").slice(0, 1)
        : f.first === undefined
        ? []
        : [renderRow(f.first, filters)];
      const texts = shown.filter((x) => x !== "");
      return { ok, text: texts.length === 0 ? `${plural(n, noun)}` : texts.join("; ") };
    }
    if (f.total === 0) {
      return {
        ok,
        text: count !== null ? `no row was ${kind} (${count.describe()})` : `no row was ${kind}`,
      };
    }
    const templatesHold = (hasOne === null || f.oneHits.some((h) => h !== undefined)) &&
      (hasAll === null || f.allHits.every((h) => h !== undefined));
    if (count !== null && templatesHold) {
      if (ok === null) {
        return {
          ok,
          text: `${plural(n, noun)}${filtered} among the ${f.seen} of ${f.total} the diff kept, ` +
            `expected ${count.describe()}: cannot tell how many are among the others`,
        };
      }
      return { ok, text: `${plural(n, noun)}${filtered}, expected ${count.describe()}${kept}` };
    }
    if (ok === null) {
      // Cannot tell: say what the kept rows lack, without a nearest miss
      // (the row sought may well be among the others).
      const lacking = f.candidates === 0
        ? filters.map((c) => c.describe()).join(" and ")
        : (hasAll?.find((_, i) => f.allHits[i] === undefined) ?? shape.anyOne)?.describe();
      return {
        ok,
        text: `none of the ${f.seen} of ${f.total} ${kind} rows the diff kept has ${lacking}${
          f.candidates === 0 || filtered === "" ? "" : ` among those${filtered}`
        }`,
      };
    }
    if (f.candidates === 0) {
      const near = f.nearestAll;
      return {
        ok,
        text: `no ${noun} has ${filters.map((c) => c.describe()).join(" and ")}${
          near === undefined ? "" : `; nearest: ${renderRow(near, filters)}`
        }${kept}`,
      };
    }
    const missingAt = f.allHits.findIndex((h) => h === undefined);
    const missing = hasAll !== null && missingAt >= 0 ? hasAll[missingAt] : shape.anyOne;
    if (missing === null || missing === undefined) {
      return { ok, text: `no ${noun}${filtered} matches${kept}` };
    }
    const near = hasAll !== null && missingAt >= 0 ? f.nearestEach[missingAt] : f.nearestOne;
    return {
      ok,
      text: `no ${noun}${filtered} has ${missing.describe()}${
        near === undefined ? "" : `; nearest: ${renderRow(near, [missing, ...filters])}`
      }${kept}`,
    };
  };

  return {
    kind,
    start: (explaining = true) => startFold(shape, explaining),
    decide,
    explain,
    columns,
  };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function formatRowKey(key: SqliteRow): string {
  return Object.entries(key).map(([k, v]) => `${k}=${formatValue(v)}`).join(",");
}

/**
 * A row change as one short line: its key, then the columns the conditions
 * read (before -> after for a changed row): `id=10 role "manager" -> "editor"`.
 */
export function renderRow(row: RowView, conditions: readonly Condition[]): string {
  const keyColumns = row.key === null ? [] : Object.keys(row.key);
  let columns = [...new Set(conditions.flatMap((c) => c.columns))]
    .filter((c) =>
      !keyColumns.includes(c) &&
      (Object.hasOwn(row.values, c) || (row.before !== null && Object.hasOwn(row.before, c)))
    );
  if (columns.length === 0) {
    columns = row.changedColumns !== null
      ? [...row.changedColumns]
      : Object.keys(row.values).filter((c) => !keyColumns.includes(c));
  }
  const shown = columns.slice(0, 4).map((c) => {
    const after = Object.hasOwn(row.values, c) ? formatValue(row.values[c]!) : "(none)";
    if (row.changedColumns !== null && row.before !== null && row.changedColumns.includes(c)) {
      const before = Object.hasOwn(row.before, c) ? formatValue(row.before[c]!) : "(none)";
      return `${c} ${before} -> ${after}`;
    }
    return `${c} ${after}`;
  });
  if (columns.length > 4) shown.push("...");
  const key = row.key === null ? "" : formatRowKey(row.key);
  if (key === "") return shown.join(" ");
  return shown.length === 0 ? key : `${key}: ${shown.join(" ")}`;
}
