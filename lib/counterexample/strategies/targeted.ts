/**
 * The targeted candidates, tried before any random one: built from the
 * queries' comparisons (`atoms.ts`), not drawn by chance. First a witness:
 * one row per table, joined (`_worlds.ts`), with every compared column given
 * a value that meets the comparisons (`_solve.ts`). Then the witness
 * changed the ways near misses are caught, smallest first:
 *
 * - `boundary`: a compared column exactly on each constant, and one either
 *   side in the column's type (a price of 10, 9 and 11; 9.99 and 10.01 for
 *   a REAL; the day before for a date), in place, then in a second row;
 * - `null`: NULL in each nullable column the queries name, in place, then
 *   in a second row (a NOT IN's subquery yielding a NULL, COUNT(col));
 * - `second_value`: a value that misses each equality (another tenant,
 *   another status, a value outside the IN list), in the one row, then in a
 *   copy of the row, then in a copy of the whole witness under fresh keys
 *   (a second tenant with its own customers and orders);
 * - `duplicate`: each table's row repeated (as it is where the schema
 *   allows, else under fresh keys), the whole witness repeated under fresh
 *   keys, and the witnesses of a UNION's branches together;
 * - `size`: a table's row copied to the counts the queries compare with
 *   (`HAVING count(*) > 3`, `(SELECT count(*) FROM t ...) <= 3`, `LIMIT 3`).
 *
 * The list interleaves the kinds, so each is tried early, and ends where
 * the search's share of the budget for them ends.
 *
 * @module
 */
import type { SqliteValue } from "../../sqlite/value.ts";
import type { Candidate } from "../candidate.ts";
import type { ColumnPool } from "../pools.ts";
import { plainValue } from "../pools.ts";
import type { SearchTable } from "../schema.ts";
import type { Atom } from "../atoms.ts";
import { copyWorld, type Freshen, planRows, withOverride, type WorldSpec } from "./_plans.ts";
import { type Check, edgeValues, meets, missing, solve } from "./_solve.ts";
import { classesOf } from "./_worlds.ts";
import type { StrategyContext } from "./strategy.ts";

/** A candidate and the kind of change that made it. */
export interface TargetedCandidate {
  readonly name: string;
  readonly candidate: Candidate;
}

/** A column an atom compares: its table, index, pool and class. */
interface Target {
  readonly table: SearchTable;
  readonly index: number;
  readonly pool: ColumnPool;
  readonly cls: number;
}

/** Copies of a row made for a size, at most. */
const MOST_COPIES = 200;

function key(v: SqliteValue): string {
  return `${typeof v}:${String(v)}`;
}

function unique<T>(xs: readonly T[], by: (x: T) => string): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => {
    const k = by(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** What the generators share: the atoms resolved, each class's domain and checks. */
class Space {
  readonly context: StrategyContext;
  readonly atoms: readonly { readonly atom: Atom; readonly targets: readonly Target[] }[];
  readonly #domains = new Map<number, SqliteValue[]>();
  readonly #key: boolean[];

  constructor(context: StrategyContext) {
    this.context = context;
    const classes = classesOf(context);
    this.atoms = context.shape.atoms.map((atom) => ({
      atom,
      targets: this.targets(atom.table, atom.column),
    })).filter((a) => a.targets.length > 0);
    this.#key = classes.values.map(() => false);
    for (const t of context.schema.tables) {
      const of = classes.of.get(t.name)!;
      for (const set of t.uniqueSets) {
        for (const name of set) {
          const i = t.columns.findIndex((c) => c.name === name);
          if (i >= 0) this.#key[of[i]!] = true;
        }
      }
    }
  }

  /**
   * The columns a reference names: in its table (its alias resolved), or in
   * any table the queries read when unqualified or not a table's name.
   */
  targets(table: string | null, column: string): Target[] {
    const { schema, pools } = this.context;
    const classes = classesOf(this.context);
    const named = table === null ? [] : schema.tables.filter((t) => t.name.toLowerCase() === table);
    const tables = named.length > 0 ? named : schema.tables.filter((t) => schema.read.has(t.name));
    const out: Target[] = [];
    for (const t of tables) {
      const index = t.columns.findIndex((c) => c.name.toLowerCase() === column);
      if (index < 0) continue;
      out.push({
        table: t,
        index,
        pool: pools.get(t.name)![index]!,
        cls: classes.of.get(t.name)![index]!,
      });
    }
    return out;
  }

  /** The columns of class k, with their pools. */
  columns(k: number): { table: SearchTable; index: number; pool: ColumnPool }[] {
    const classes = classesOf(this.context);
    const out: { table: SearchTable; index: number; pool: ColumnPool }[] = [];
    for (const t of this.context.schema.tables) {
      classes.of.get(t.name)!.forEach((c, index) => {
        if (c === k) out.push({ table: t, index, pool: this.context.pools.get(t.name)![index]! });
      });
    }
    return out;
  }

  /** The checks on class k, of some atoms. */
  checks(k: number, atoms: readonly Atom[]): Check[] {
    const out: Check[] = [];
    for (const a of this.atoms) {
      if (!atoms.includes(a.atom)) continue;
      for (const t of a.targets) if (t.cls === k) out.push({ atom: a.atom, pool: t.pool });
    }
    return out;
  }

  /** What class k may hold, given values first (they meet the schema's CHECKs), then the constants. */
  domain(k: number): SqliteValue[] {
    const cached = this.#domains.get(k);
    if (cached !== undefined) return cached;
    const cols = this.columns(k);
    const out: SqliteValue[] = [];
    for (const c of cols) out.push(...c.pool.real);
    for (const a of this.atoms) {
      for (const t of a.targets) if (t.cls === k) out.push(...edgeValues(a.atom, t.pool));
    }
    for (const c of cols) out.push(...c.pool.boundary);
    const affinity = cols[0]?.pool.column.affinity ?? "INTEGER";
    for (let i = 0; i < 3; i++) out.push(plainValue(affinity, i));
    // NULL last, where a column of the class takes it (IS NULL needs it)
    if (classesOf(this.context).nullable[k]) out.push(null);
    const values = unique(out, key);
    this.#domains.set(k, values);
    return values;
  }

  isKey(k: number): boolean {
    return this.#key[k] ?? false;
  }

  /** A witness: every class a value that meets the given atoms. */
  witness(atoms: readonly Atom[]): WorldSpec {
    const n = classesOf(this.context).values.length;
    const values: SqliteValue[] = [];
    for (let k = 0; k < n; k++) values.push(solve(this.domain(k), this.checks(k, atoms)) ?? null);
    return { values };
  }

  /** A fresh value for class k that its atoms still accept, where one does. */
  freshen(atoms: readonly Atom[]): Freshen {
    return (k, current, used) => {
      const checks = this.checks(k, atoms);
      const near: SqliteValue[] = [];
      if (typeof current === "number") {
        for (const d of [1, 2, 3, -1, -2, 1000]) near.push(Math.floor(current) + d);
      } else if (typeof current === "bigint") near.push(current + 1n, current + 2n);
      else if (typeof current === "string") {
        near.push(`${current}~1`, `${current}~2`, `${current}x`);
      } else near.push(1001, 1002);
      const options = [...near, ...this.domain(k)].filter((v) => v !== null && !used.has(key(v)));
      const meetsAll = options.find((v) => checks.every((c) => meets(v, c.atom, c.pool) !== false));
      return meetsAll !== undefined
        ? { value: meetsAll, ok: true }
        : { value: options[0] ?? current, ok: false };
    };
  }
}

/** The table a column's foreign key points at, if it is part of one. */
function parentTable(
  context: StrategyContext,
  table: SearchTable,
  index: number,
): SearchTable | undefined {
  const fk = table.foreignKeys.find((f) => f.columns.includes(table.columns[index]!.name));
  return fk === undefined
    ? undefined
    : context.schema.tables.find((p) => p.name.toLowerCase() === fk.parent.toLowerCase());
}

/** Takes one item from each list in turn until all are empty. */
function* interleave<T>(lists: readonly (readonly T[])[]): Generator<T> {
  for (let i = 0;; i++) {
    let any = false;
    for (const l of lists) {
      if (i < l.length) {
        any = true;
        yield l[i]!;
      }
    }
    if (!any) return;
  }
}

interface Plan {
  readonly name: string;
  readonly worlds: readonly WorldSpec[];
}

/**
 * The targeted candidates of a search, in the order to try them.
 *
 * @param context the strategy context
 * @param most how many at most
 * @returns the candidates, each with the kind of change that made it
 */
export function targetedCandidates(context: StrategyContext, most: number): TargetedCandidate[] {
  const space = new Space(context);
  const all = space.atoms.map((a) => a.atom);
  const w = space.witness(all);
  const freshen = space.freshen(all);
  const used = () => new Map<number, Set<string>>();
  const read = context.schema.tables.filter((t) => context.schema.read.has(t.name));

  // The witnesses: of every atom, then of each query's branch alone.
  const branches = unique(all.map((a) => `${a.query}:${a.branch}`), (x) => x);
  const perBranch = branches.map((b) =>
    space.witness(all.filter((a) => `${a.query}:${a.branch}` === b))
  );
  const witnesses: Plan[] = [w, ...perBranch].map((x) => ({ name: "witness", worlds: [x] }));

  const boundaryInPlace: Plan[] = [];
  const boundaryCopy: Plan[] = [];
  const secondInPlace: Plan[] = [];
  const secondCopy: Plan[] = [];
  const secondFork: Plan[] = [];
  for (const { atom, targets } of space.atoms) {
    for (const t of targets) {
      for (const v of edgeValues(atom, t.pool)) {
        const at = { ...w, values: w.values.map((x, k) => (k === t.cls ? v : x)) };
        boundaryInPlace.push({ name: "boundary", worlds: [at] });
        boundaryCopy.push({
          name: "boundary",
          worlds: [
            w,
            copyWorld(context, w, [t.table], {
              forced: new Map([[t.cls, v]]),
              freshen,
              used: used(),
            }),
          ],
        });
      }
      if (atom.op === "<" || atom.op === ">" || atom.op === "<=" || atom.op === ">=") continue;
      const others = missing(space.domain(t.cls), atom, t.pool).slice(0, 2);
      for (const v of others) {
        // The one row set apart (its join partners keep the witness's value) ...
        // (a foreign key set apart needs the parent row it now points at)
        const apart = withOverride(w, t.table.name, t.index, v);
        const parent = parentTable(context, t.table, t.index);
        secondInPlace.push({
          name: "second_value",
          worlds: parent === undefined ? [apart] : [
            apart,
            copyWorld(context, w, [parent], {
              forced: new Map([[t.cls, v]]),
              freshen,
              used: used(),
            }),
          ],
        });
        secondCopy.push({
          name: "second_value",
          worlds: [
            w,
            copyWorld(context, w, [t.table], {
              forced: new Map([[t.cls, v]]),
              freshen,
              used: used(),
            }),
          ],
        });
        // ... and a second witness under fresh keys with the other value.
        secondFork.push({
          name: "second_value",
          worlds: [
            w,
            copyWorld(context, w, undefined, {
              forced: new Map([[t.cls, v]]),
              freshen,
              used: used(),
            }),
          ],
        });
      }
    }
  }

  // The nullable columns the queries name, in the tables they read.
  const nullable = read.flatMap((t) => {
    const pools = context.pools.get(t.name)!;
    return t.columns.flatMap((c, index) =>
      c.notNull || c.pk > 0 || !pools[index]!.mentioned ? [] : [{ table: t, index }]
    );
  });
  // Two columns compared by order: equal (the boundary), and one either side.
  for (const c of context.shape.compares) {
    for (const lt of space.targets(c.left.table, c.left.column)) {
      for (const rt of space.targets(c.right.table, c.right.column)) {
        const value = w.values[rt.cls] ?? null;
        if (lt.cls === rt.cls || value === null || typeof value === "object") continue;
        const at = typeof value === "bigint" ? Number(value) : value;
        const same: Atom = {
          ...c,
          table: null,
          column: "",
          op: "=",
          values: [at],
          negated: false,
          wrapped: false,
        };
        for (const v of edgeValues(same, lt.pool).slice(0, 5)) {
          const values = w.values.map((x, k) => (k === lt.cls ? v : x));
          boundaryInPlace.push({ name: "boundary", worlds: [{ ...w, values }] });
        }
      }
    }
  }

  // A table's row left out: a parent without children, an unmatched outer join.
  const unmatched: Plan[] = read.map((t) => ({
    name: "unmatched",
    worlds: [{
      ...w,
      only: new Set(context.schema.tables.filter((x) => x !== t).map((x) => x.name)),
    }],
  }));

  const nullInPlace: Plan[] = [];
  const nullCopy: Plan[] = [];
  for (const { table: t, index: i } of nullable) {
    nullInPlace.push({ name: "null", worlds: [withOverride(w, t.name, i, null)] });
    const copy = copyWorld(context, w, [t], { freshen, used: used() });
    nullCopy.push({ name: "null", worlds: [w, withOverride(copy, t.name, i, null)] });
  }

  const duplicates: Plan[] = [];
  for (const t of read) {
    if (t.uniqueSets.length === 0) {
      duplicates.push({ name: "duplicate", worlds: [w, { ...w, only: new Set([t.name]) }] });
    }
    duplicates.push({
      name: "duplicate",
      worlds: [w, copyWorld(context, w, [t], { freshen, used: used() })],
    });
  }
  const forks: Plan[] = [{
    name: "duplicate",
    worlds: [w, copyWorld(context, w, undefined, { freshen, used: used() })],
  }];
  // A UNION's branches, each with its own witness, together: the later ones
  // under fresh keys (that their own comparisons still accept), and then
  // with each nullable column the queries name NULL in every branch (two
  // NULLs are one row to UNION, two to UNION ALL).
  for (const q of [0, 1]) {
    const own = branches.flatMap((b, i) => (b.startsWith(`${q}:`) ? [i] : []));
    if (own.length < 2) continue;
    const taken = used();
    const worlds = own.map((i, n) => {
      if (n === 0) return perBranch[i]!;
      const atoms = all.filter((a) => `${a.query}:${a.branch}` === branches[i]);
      return copyWorld(context, perBranch[i]!, undefined, {
        freshen: space.freshen(atoms),
        used: taken,
      });
    });
    forks.push({ name: "duplicate", worlds });
    for (const { table, index } of nullable) {
      forks.push({
        name: "duplicate",
        worlds: worlds.map((x) => withOverride(x, table.name, index, null)),
      });
    }
  }

  const sizes: Plan[] = [];
  for (const s of context.shape.sizes) {
    if (s.kind !== "count" && s.kind !== "rows") continue;
    const n = Math.floor(s.value);
    const counts = (s.kind === "rows" ? [n + 1, n, n + 2] : [n, n + 1, n - 1]).filter((k) =>
      k >= 1 && k <= MOST_COPIES
    );
    const tables = s.table !== undefined
      ? read.filter((t) => t.name.toLowerCase() === s.table)
      : [...read].sort((a, b) => b.foreignKeys.length - a.foreignKeys.length).slice(0, 3);
    for (const t of tables) {
      // Which key column the copies differ in decides the groups they fall
      // in (a course's students, or a student's courses): each in turn.
      const keys = [...new Set(t.uniqueSets.flat())].map((name) =>
        t.columns.findIndex((c) => c.name === name)
      ).filter((i) => i >= 0).reverse().slice(0, 3);
      for (const vary of keys.length > 0 ? keys : [undefined]) {
        for (const k of counts) {
          const taken = used();
          const worlds: WorldSpec[] = [w];
          for (let i = 1; i < k; i++) {
            worlds.push(copyWorld(context, w, [t], { freshen, used: taken, vary }));
          }
          sizes.push({ name: "size", worlds });
        }
      }
    }
  }

  const ordered = [
    ...witnesses,
    ...interleave([boundaryInPlace, nullInPlace, secondInPlace, unmatched]),
    ...interleave([duplicates, boundaryCopy, nullCopy, secondCopy]),
    ...interleave([secondFork, forks]),
    ...sizes,
  ];
  return ordered.slice(0, most).map((p) => ({
    name: p.name,
    candidate: planRows(context, p.worlds),
  }));
}
