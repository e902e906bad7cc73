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
import type { TableDiff } from "../lib/diff/types.ts";
import { OPERATOR_NAMES, OPERATORS } from "./operators.ts";
import { formatValue } from "./_text.ts";
import {
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

/** A compiled `rows.added`, `rows.removed` or `rows.changed`. */
export interface RowCriterion {
  readonly kind: RowKind;
  /** Whether `table` satisfies it, among the rows `byKey` accepts. */
  test(table: TableDiff, byKey: Condition | null): boolean;
  /** What matched (`id=10: role "manager" -> "admin"`) or why nothing did. */
  explain(table: TableDiff, byKey: Condition | null): { ok: boolean; text: string };
  /** Whether `table`'s kept rows of this kind could hold the columns it reads (false: none has them). */
  readsColumnsOf(table: TableDiff): boolean;
  /** The columns its conditions read, for "no table has column ..." */
  readonly columns: readonly string[];
}

/** A compiled `$count`. */
interface CountTest {
  test(n: number): boolean;
  describe(): string;
}

function compileCount(condition: CountCondition): CountTest {
  const ops: Record<string, unknown> = typeof condition === "number"
    ? { $eq: condition }
    : condition;
  const tests: ((n: number) => boolean)[] = [];
  const words: string[] = [];
  for (const name of OPERATOR_NAMES) {
    if (!(name in ops)) continue;
    const test = OPERATORS[name].build(ops[name]);
    tests.push((n) => test(n));
    words.push(OPERATORS[name].describe("count", ops[name]));
  }
  return { test: (n) => tests.every((t) => t(n)), describe: () => words.join(" and ") };
}

/** The row changes of one kind as conditions see them. */
export function rowViews(table: TableDiff, kind: RowKind): RowView[] {
  if (kind === "changed") {
    return table.rows.changed.map((r) => ({
      values: r.after,
      key: r.key,
      before: r.before,
      after: r.after,
      changedColumns: r.changed_columns,
    }));
  }
  return table.rows[kind].map((r) => ({
    values: r.row,
    key: r.key,
    before: kind === "removed" ? r.row : null,
    after: kind === "added" ? r.row : null,
    changedColumns: null,
  }));
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
 * @returns the criterion
 */
export function compileRowCriterion(
  kind: RowKind,
  match: RowsMatch | ChangedRowsMatch,
): RowCriterion {
  const parts = kind === "changed"
    ? changedParts(match as ChangedRowsMatch)
    : addedOrRemovedParts(match as RowsMatch);
  const { where, hasOne, hasAll, count } = parts;

  const candidates = (table: TableDiff, byKey: Condition | null): RowView[] =>
    rowViews(table, kind).filter((r) =>
      (byKey === null || byKey.test(r)) && (where === null || where.test(r))
    );
  /** The number of candidates, exact from the counts when nothing filters. */
  const candidateCount = (table: TableDiff, byKey: Condition | null, rows: RowView[]): number =>
    byKey === null && where === null ? table.counts[kind] : rows.length;

  const test = (table: TableDiff, byKey: Condition | null): boolean => {
    if (table.counts[kind] === 0 && table.rows[kind].length === 0) {
      return count !== null && hasOne === null && hasAll === null && count.test(0);
    }
    if (hasOne === null && hasAll === null && count === null && byKey === null && where === null) {
      return table.counts[kind] > 0;
    }
    const rows = candidates(table, byKey);
    if (hasOne !== null && !hasOne.some((t) => rows.some((r) => t.test(r)))) return false;
    if (hasAll !== null && !hasAll.every((t) => rows.some((r) => t.test(r)))) return false;
    if (count !== null) return count.test(candidateCount(table, byKey, rows));
    if (hasOne === null && hasAll === null) return rows.length > 0;
    return true;
  };

  const explain = (table: TableDiff, byKey: Condition | null): { ok: boolean; text: string } => {
    const ok = test(table, byKey);
    const noun = `${kind} row`;
    const filter = [byKey, where].filter((c): c is Condition => c !== null);
    const filtered = filter.length === 0
      ? ""
      : ` with ${filter.map((c) => c.describe()).join(" and ")}`;
    const all = rowViews(table, kind);
    const rows = candidates(table, byKey);
    const n = candidateCount(table, byKey, rows);
    const kept = table.truncated && filter.length > 0
      ? ` (the diff kept ${all.length} of ${table.counts[kind]} ${kind} rows)`
      : "";
    if (ok) {
      if (count !== null) {
        return { ok, text: `${plural(n, noun)}${filtered} (${count.describe()})` };
      }
      const witness = [...(hasOne ?? []), ...(hasAll ?? [])];
      const shown = witness.length === 0
        ? rows.slice(0, 1).map((r) => renderRow(r, filter))
        : (hasAll ?? hasOne ?? []).map((t) => {
          const r = rows.find((row) => t.test(row));
          return r === undefined ? "" : renderRow(r, [t, ...filter]);
        }).filter((s) => s !== "").slice(0, hasAll === null ? 1 : hasAll.length);
      return { ok, text: shown.length === 0 ? `${plural(n, noun)}` : shown.join("; ") };
    }
    if (table.counts[kind] === 0) {
      return {
        ok,
        text: count !== null ? `no row was ${kind} (${count.describe()})` : `no row was ${kind}`,
      };
    }
    if (
      count !== null && (hasOne === null || hasOne.some((t) => rows.some((r) => t.test(r)))) &&
      (hasAll === null || hasAll.every((t) => rows.some((r) => t.test(r))))
    ) {
      return { ok, text: `${plural(n, noun)}${filtered}, expected ${count.describe()}${kept}` };
    }
    if (rows.length === 0) {
      const near = filter.length === 0 ? undefined : nearest(all, filter);
      return {
        ok,
        text: `no ${noun} has ${filter.map((c) => c.describe()).join(" and ")}${
          near === undefined ? "" : `; nearest: ${renderRow(near, filter)}`
        }${kept}`,
      };
    }
    const missing = hasAll?.find((t) => !rows.some((r) => t.test(r))) ??
      (hasOne === null ? undefined : anyOf(hasOne));
    if (missing === undefined) return { ok, text: `no ${noun}${filtered} matches` };
    const near = nearest(rows, [missing]);
    return {
      ok,
      text: `no ${noun}${filtered} has ${missing.describe()}${
        near === undefined ? "" : `; nearest: ${renderRow(near, [missing, ...filter])}`
      }${kept}`,
    };
  };

  const columns = [
    ...new Set([where, ...(hasOne ?? []), ...(hasAll ?? [])].flatMap((c) => c?.columns ?? [])),
  ];
  const readsColumnsOf = (table: TableDiff): boolean => {
    const views = rowViews(table, kind);
    // No kept row (max_rows 0, or none of this kind): nothing says it lacks them.
    if (views.length === 0 || columns.length === 0) return true;
    return views.some((r) =>
      columns.every((c) =>
        Object.hasOwn(r.values, c) || (r.before !== null && Object.hasOwn(r.before, c))
      )
    );
  };

  return { kind, test, explain, readsColumnsOf, columns };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** The row satisfying the most comparisons of `conditions` (the first on a tie). */
function nearest(rows: readonly RowView[], conditions: readonly Condition[]): RowView | undefined {
  let best: RowView | undefined;
  let bestScore = -1;
  for (const r of rows) {
    // On a tie, a changed row whose change touches the condition's columns is nearer.
    const touched = r.changedColumns !== null &&
      conditions.some((c) => c.columns.some((col) => r.changedColumns!.includes(col)));
    const s = conditions.reduce((sum, c) => sum + c.score(r), 0) + (touched ? 0.5 : 0);
    if (s > bestScore) {
      best = r;
      bestScore = s;
    }
  }
  return best;
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
