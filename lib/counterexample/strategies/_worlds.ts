/**
 * Candidates whose rows join: every column belongs to a class of columns a
 * join may equate (the same name, as NATURAL JOIN and USING equate them; the
 * two sides of an `a.x = b.y` in the queries; a foreign key and the key it
 * refers to), and a "world" gives each class one value. A world's row in
 * every table therefore satisfies every equality of a join chain at once,
 * however many tables it has. A candidate is one to three worlds that share
 * some classes' values and differ in others: two students of the same id in
 * two departments, a part with supplies of two part numbers.
 *
 * Worked example: tables COURSE(COURSE_ID, DEPT_NAME), STUDENT(ID,
 * DEPT_NAME), TAKES(ID, COURSE_ID). Classes: {COURSE_ID}, {DEPT_NAME}, {ID}.
 * World 0 = {COURSE_ID: 0, DEPT_NAME: 1, ID: 0}; world 1 keeps ID and
 * COURSE_ID and changes DEPT_NAME to 2. The rows: COURSE (0, 1), (0, 2);
 * STUDENT (0, 1), (0, 2); TAKES (0, 0) twice; grouped by ID the student has
 * four joined rows, grouped by ID and DEPT_NAME two groups of two.
 *
 * @module
 */
import type { SqliteValue } from "../../sqlite/value.ts";
import type { CandidateRow } from "../candidate.ts";
import type { SearchTable } from "../schema.ts";
import type { StrategyContext } from "./strategy.ts";

/** A value per class. */
export type World = readonly SqliteValue[];

interface Classes {
  /** Per table name, the class of each column. */
  readonly of: ReadonlyMap<string, readonly number[]>;
  /** Per class, the values it may take. */
  readonly values: readonly (readonly SqliteValue[])[];
  /** Per class, the small plain values tried first (0, 1, 'a', ...). */
  readonly plain: readonly (readonly SqliteValue[])[];
  /** Per class, whether some column of it may be NULL. */
  readonly nullable: readonly boolean[];
  /** Class a = class b + n, from the queries' `a = b + n`. */
  readonly offsets: readonly (readonly [number, number, number])[];
}

const cache = new WeakMap<StrategyContext, Classes>();

function keyOf(v: SqliteValue): string {
  return `${typeof v}:${String(v)}`;
}

/**
 * The column classes of a search, built once per context.
 *
 * @param context the strategy context
 * @returns the classes
 */
export function classesOf(context: StrategyContext): Classes {
  const cached = cache.get(context);
  if (cached !== undefined) return cached;
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  const union = (a: string, b: string): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra, rb);
  };
  const tables = context.schema.tables;
  for (const t of tables) for (const c of t.columns) find(c.name.toLowerCase());
  for (const [a, b] of context.shape.equalities) {
    if (parent.has(a) && parent.has(b)) union(a, b);
  }
  for (const t of tables) {
    for (const fk of t.foreignKeys) {
      const p = tables.find((x) => x.name.toLowerCase() === fk.parent.toLowerCase());
      if (p === undefined) continue;
      const to = fk.parentColumns.length > 0
        ? fk.parentColumns
        : p.columns.filter((c) => c.pk > 0).sort((x, y) => x.pk - y.pk).map((c) => c.name);
      fk.columns.forEach((c, i) => {
        if (to[i] !== undefined) union(c.toLowerCase(), to[i]!.toLowerCase());
      });
    }
  }
  const ids = new Map<string, number>();
  const values: SqliteValue[][] = [];
  const plain: SqliteValue[][] = [];
  const nullable: boolean[] = [];
  const seen: Set<string>[] = [];
  const of = new Map<string, number[]>();
  for (const t of tables) {
    const pools = context.pools.get(t.name) ?? [];
    of.set(
      t.name,
      t.columns.map((c, i) => {
        const root = find(c.name.toLowerCase());
        let id = ids.get(root);
        if (id === undefined) {
          id = values.length;
          ids.set(root, id);
          values.push([]);
          plain.push([]);
          nullable.push(false);
          seen.push(new Set());
        }
        const pool = pools[i];
        const add = (v: SqliteValue, to: SqliteValue[]): void => {
          if (!seen[id!]!.has(keyOf(v))) {
            seen[id!]!.add(keyOf(v));
            to.push(v);
          }
        };
        if (c.affinity === "TEXT") { for (const v of ["a", "b"]) add(v, plain[id]!); }
        else for (const v of [0, 1, 2]) add(v, plain[id]!);
        for (const v of pool?.exact ?? []) add(v, values[id]!);
        for (const v of pool?.boundary ?? []) add(v, values[id]!);
        for (const v of (pool?.real ?? []).slice(0, 12)) add(v, values[id]!);
        if (!c.notNull && c.pk === 0) nullable[id] = true;
        return id;
      }),
    );
  }
  const classOf = (name: string): number | undefined =>
    parent.has(name) ? ids.get(find(name)) : undefined;
  const offsets: [number, number, number][] = [];
  for (const [a, b, n] of context.shape.offsets) {
    const ca = classOf(a);
    const cb = classOf(b);
    if (ca !== undefined && cb !== undefined && ca !== cb) offsets.push([ca, cb, n]);
  }
  const classes = { of, values, plain, nullable, offsets };
  cache.set(context, classes);
  return classes;
}

/**
 * Worlds for one candidate: the first picks every class's value, each next
 * one keeps some and changes the others.
 *
 * @param context the strategy context
 * @param n how many worlds
 * @returns the worlds
 */
export function makeWorlds(context: StrategyContext, n: number): World[] {
  const { random } = context;
  const classes = classesOf(context);
  const pick = (k: number, not?: SqliteValue): SqliteValue => {
    const from = random.chance(0.55) || classes.values[k]!.length === 0
      ? classes.plain[k]!
      : classes.values[k]!;
    const choices = from.filter((v) => not === undefined || keyOf(v) !== keyOf(not));
    if (classes.nullable[k] && random.chance(0.05)) return null;
    return choices.length > 0 ? random.pick(choices) : random.pick(from);
  };
  const first = classes.values.map((_, k) => pick(k));
  // a = b + n holds in most worlds (a join on an expression)
  const offset = (w: SqliteValue[]): SqliteValue[] => {
    for (const [a, b, n] of classes.offsets) {
      const v = w[b];
      if (typeof v === "number" && random.chance(0.8)) w[a] = v + n;
    }
    return w;
  };
  offset(first);
  const worlds: World[] = [first];
  for (let w = 1; w < n; w++) {
    const keep = random.pick([0.3, 0.6, 0.85]);
    worlds.push(offset(first.map((v, k) => random.chance(keep) ? v : pick(k, v))));
  }
  return worlds;
}

/**
 * A table's row in a world.
 *
 * @param context the strategy context
 * @param table the table
 * @param world the world
 * @returns the row
 */
export function worldRow(context: StrategyContext, table: SearchTable, world: World): CandidateRow {
  const of = classesOf(context).of.get(table.name)!;
  return table.columns.map((c, i) => {
    const v = world[of[i]!] ?? null;
    return v === null && c.notNull ? 0 : v;
  });
}

/**
 * A value for a key column that no other row of the candidate has.
 *
 * @param base the value the row had
 * @param i which copy
 * @returns another value of the same type
 */
export function freshValue(base: SqliteValue, i: number): SqliteValue {
  if (typeof base === "number") return Math.floor(base) + 1000 + i;
  if (typeof base === "bigint") return base + 1000n + BigInt(i);
  if (typeof base === "string") return `${base}~${i}`;
  return 1000 + i;
}

/**
 * Copies of a row, `k` in all, each with fresh values in the columns of the
 * table's unique sets (so the schema takes them).
 *
 * @param table the table
 * @param row the row to copy
 * @param k how many rows in all
 * @returns the rows
 */
export function copies(table: SearchTable, row: CandidateRow, k: number): CandidateRow[] {
  const unique = new Set<number>();
  for (const set of table.uniqueSets) {
    // One column of each set is enough to make the copy unique: the last,
    // which in a composite key is least often the joined one.
    const name = set[set.length - 1]!;
    unique.add(table.columns.findIndex((c) => c.name === name));
  }
  const out: CandidateRow[] = [row];
  for (let i = 1; i < k; i++) {
    out.push(row.map((v, c) => unique.has(c) ? freshValue(v ?? 0, i) : v));
  }
  return out;
}
