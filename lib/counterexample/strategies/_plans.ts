/**
 * Candidates as plans: a few worlds (see `_worlds.ts`: a value per class of
 * join-equated columns, so a world's rows join), each for every table or
 * only for some, with single rows' values set apart from their class. The
 * targeted candidates (`targeted.ts`) are built this way: a witness world
 * that meets the queries' comparisons, then that world changed a little
 * (one value on a boundary, NULL, another tenant) or joined by a copy of
 * some of its rows under fresh keys (a duplicate, a second group).
 *
 * Worked example: orders(id PK, store_id) and store(id PK, name), joined
 * on `o.store_id = s.id`, so one class holds orders.store_id and store.id.
 * Witness W = {orders.id: 1, store class: 1, name: 'Main'}. A copy of the
 * orders row alone gets a fresh orders.id (2) and keeps store 1; a copy
 * forced to store 7 must bring store 7 along, so the store table joins the
 * copy with a fresh name where the name is UNIQUE.
 *
 * @module
 */
import type { SqliteValue } from "../../sqlite/value.ts";
import type { Candidate, CandidateRow } from "../candidate.ts";
import type { SearchTable } from "../schema.ts";
import { classesOf, worldRow } from "./_worlds.ts";
import type { StrategyContext } from "./strategy.ts";

/** One world of a plan. */
export interface WorldSpec {
  /** A value per class. */
  readonly values: readonly SqliteValue[];
  /** Values set for one table's row, by column index, apart from the class's. */
  readonly overrides?: ReadonlyMap<string, ReadonlyMap<number, SqliteValue>>;
  /** Only these tables get this world's row; all when absent. */
  readonly only?: ReadonlySet<string>;
}

/**
 * The rows of a plan: each world's row in each of its tables, parents first.
 *
 * @param context the strategy context
 * @param worlds the worlds
 * @returns the candidate
 */
export function planRows(context: StrategyContext, worlds: readonly WorldSpec[]): Candidate {
  const rows = new Map<string, CandidateRow[]>();
  for (const t of context.schema.tables) {
    const own: CandidateRow[] = [];
    for (const w of worlds) {
      if (w.only !== undefined && !w.only.has(t.name)) continue;
      const row = [...worldRow(context, t, w.values)];
      for (const [i, v] of w.overrides?.get(t.name) ?? []) {
        row[i] = v === null && t.columns[i]!.notNull ? row[i]! : v;
      }
      own.push(row);
    }
    if (own.length > 0) rows.set(t.name, own);
  }
  return rows;
}

/**
 * A world with one table's row set apart.
 *
 * @param w the world
 * @param table the table
 * @param column the column's index
 * @param value the value
 * @returns the changed world
 */
export function withOverride(
  w: WorldSpec,
  table: string,
  column: number,
  value: SqliteValue,
): WorldSpec {
  const overrides = new Map(w.overrides ?? []);
  overrides.set(table, new Map([...(overrides.get(table) ?? []), [column, value]]));
  return { ...w, overrides };
}

/**
 * A value for class k that no world of the plan has given it: one its
 * checks still accept when there is one (`ok`), else any.
 */
export type Freshen = (
  k: number,
  current: SqliteValue,
  used: ReadonlySet<string>,
) => { readonly value: SqliteValue; readonly ok: boolean };

function key(v: SqliteValue): string {
  return `${typeof v}:${String(v)}`;
}

const relatedCache = new WeakMap<StrategyContext, (t: SearchTable, i: number) => boolean>();

/**
 * Whether a column joins other tables' rows: part of a foreign key (either
 * end), one side of an equality in the queries, or a name a NATURAL JOIN or
 * USING equates. Such a column's new value must be its class's (the rows
 * that join it follow); any other column can take a value of its own.
 */
function related(context: StrategyContext): (t: SearchTable, i: number) => boolean {
  const cached = relatedCache.get(context);
  if (cached !== undefined) return cached;
  const names = new Set<string>();
  for (const [a, b] of context.shape.equalities) names.add(a).add(b);
  const referenced = new Set<string>();
  for (const t of context.schema.tables) {
    for (const fk of t.foreignKeys) {
      const p = context.schema.tables.find((x) => x.name.toLowerCase() === fk.parent.toLowerCase());
      const cols = fk.parentColumns.length > 0
        ? fk.parentColumns
        : p?.columns.filter((c) => c.pk > 0).map((c) => c.name) ?? [];
      for (const c of cols) referenced.add(`${fk.parent.toLowerCase()}.${c.toLowerCase()}`);
    }
  }
  const same = context.shape.sameName;
  const fn = (t: SearchTable, i: number): boolean => {
    const name = t.columns[i]!.name;
    const lower = name.toLowerCase();
    return names.has(lower) || same === "all" || same.has(lower) ||
      t.foreignKeys.some((f) => f.columns.includes(name)) ||
      referenced.has(`${t.name.toLowerCase()}.${lower}`);
  };
  relatedCache.set(context, fn);
  return fn;
}

/** The parent table a foreign-key column points at, and whether the column is part of one. */
function parentOf(
  context: StrategyContext,
  table: SearchTable,
  column: string,
): SearchTable | undefined {
  const fk = table.foreignKeys.find((f) => f.columns.includes(column));
  if (fk === undefined) return undefined;
  return context.schema.tables.find((p) => p.name.toLowerCase() === fk.parent.toLowerCase());
}

/**
 * A copy of some of a world's rows under fresh keys: for each unique set
 * (primary key, UNIQUE) of each table copied, one column gets a fresh value
 * that the queries' comparisons still accept where one does, a column that
 * is not a foreign key first; when only a foreign key can change, the
 * parent it points at is copied too. A column that joins other rows
 * changes its class (the rows joined follow); any other changes in its own
 * row only. The classes in `forced` take the value given.
 *
 * @param context the strategy context
 * @param base the world copied
 * @param tables the tables whose rows are copied; every table when undefined
 * @param options classes forced to a value, how to freshen, the values already taken, and a
 *   column to change first
 * @returns the copy, restricted to the tables it needs
 */
export function copyWorld(
  context: StrategyContext,
  base: WorldSpec,
  tables: readonly SearchTable[] | undefined,
  options: {
    readonly forced?: ReadonlyMap<number, SqliteValue>;
    readonly freshen: Freshen;
    readonly used: Map<number, Set<string>>;
    /** A column of the first table to change first where it is in a unique set. */
    readonly vary?: number | undefined;
  },
): WorldSpec {
  const classes = classesOf(context);
  const joins = related(context);
  const values = [...base.values];
  const changed = new Set<number>();
  let copy: WorldSpec = { values };
  for (const [k, v] of options.forced ?? []) {
    values[k] = v;
    changed.add(k);
  }
  const all = tables === undefined;
  const copied = new Set<SearchTable>(tables ?? context.schema.tables);
  const queue = [...copied];
  const usedOf = (k: number): Set<string> => {
    const used = options.used.get(k) ?? new Set<string>();
    options.used.set(k, used);
    return used;
  };
  while (queue.length > 0) {
    const t = queue.shift()!;
    const of = classes.of.get(t.name)!;
    const local = copy.overrides?.get(t.name);
    for (const set of t.uniqueSets) {
      const cols = set.map((name) => t.columns.findIndex((c) => c.name === name)).filter((i) =>
        i >= 0
      );
      if (cols.some((i) => changed.has(of[i]!) || copy.overrides?.get(t.name)?.has(i))) continue;
      // A column that is not a foreign key first (a foreign key's new value
      // needs a parent), and one whose new value the queries still accept.
      const vary = t === tables?.[0] && options.vary !== undefined && cols.includes(options.vary)
        ? [options.vary]
        : [];
      const order = [
        ...vary,
        ...[...cols].reverse().filter((i) =>
          !vary.includes(i) && parentOf(context, t, t.columns[i]!.name) === undefined
        ),
        ...[...cols].reverse().filter((i) =>
          !vary.includes(i) && parentOf(context, t, t.columns[i]!.name) !== undefined
        ),
      ];
      const tries = order.map((i) => {
        const k = of[i]!;
        const current = local?.get(i) ?? values[k] ?? null;
        const used = usedOf(k);
        used.add(key(current));
        return { i, k, ...options.freshen(k, current, used) };
      });
      const pick = tries.find((x) => x.ok) ?? tries[0];
      if (pick === undefined) continue;
      usedOf(pick.k).add(key(pick.value));
      if (joins(t, pick.i)) {
        values[pick.k] = pick.value;
        changed.add(pick.k);
      } else copy = withOverride(copy, t.name, pick.i, pick.value);
      const parent = parentOf(context, t, t.columns[pick.i]!.name);
      if (parent !== undefined && !copied.has(parent)) {
        copied.add(parent);
        queue.push(parent);
      }
    }
    if (all) continue;
    // A forced value in a foreign key needs its parent row.
    for (const fk of t.foreignKeys) {
      const i = t.columns.findIndex((c) => c.name === fk.columns[0]);
      if (i < 0 || !changed.has(of[i]!)) continue;
      const parent = parentOf(context, t, fk.columns[0]!);
      if (parent !== undefined && !copied.has(parent)) {
        copied.add(parent);
        queue.push(parent);
      }
    }
  }
  const overrides = new Map(base.overrides ?? []);
  for (const [t, m] of copy.overrides ?? []) {
    overrides.set(t, new Map([...(overrides.get(t) ?? []), ...m]));
  }
  return {
    values,
    ...(overrides.size > 0 ? { overrides } : {}),
    ...(all ? {} : { only: new Set([...copied].map((t) => t.name)) }),
  };
}
