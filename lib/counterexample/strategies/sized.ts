/**
 * Groups sized to the queries' constants: `HAVING COUNT(*) > 28` gets a
 * group of 28 or 29 rows (or 27), `COUNT(DISTINCT c) > 5` a group of 5 to 7
 * distinct values of c, `SUM(x) > 100` values of x summing to 100 (or 99,
 * 101), `AVG(x) > 2` values averaging 2 (or 1, 3), `LIMIT 10` eleven rows. The rows join (see `_worlds.ts`); one
 * table's row is copied to the size, the others stay one per world. Asked
 * only when the queries compare an aggregate or have a LIMIT or OFFSET.
 *
 * @module
 */
import type { SqliteValue } from "../../sqlite/value.ts";
import type { CandidateRow } from "../candidate.ts";
import type { SizeTarget } from "../query_shape.ts";
import { copies, freshValue, makeWorlds, worldRow } from "./_worlds.ts";
import type { Strategy, StrategyContext } from "./strategy.ts";

/** More rows than this in one candidate is past what a search can afford to try. */
const MOST_ROWS = 1200;

/** A size the strategy builds: `LIMIT 10000` (a limit that only guards) is left out. */
function fits(s: SizeTarget): boolean {
  return s.value >= 0 && s.value < MOST_ROWS;
}

function sizesFor(t: SizeTarget): number[] {
  const n = Math.floor(t.value);
  if (t.kind === "rows") return [n + 1, n, n + 2];
  return [n, n + 1, n - 1, n + 2].filter((k) => k >= 1);
}

/** Values summing to `total` over `parts` rows (integers when the total is one). */
function split(total: number, parts: number): SqliteValue[] {
  if (Number.isInteger(total)) {
    const each = Math.floor(total / parts);
    return Array.from({ length: parts }, (_, i) => i === parts - 1 ? total - each * i : each);
  }
  return Array.from({ length: parts }, () => total / parts);
}

/** Groups sized to the queries' counts, sums and limits. */
export const sized: Strategy = {
  name: "sized",
  weight: 4,
  usable(context: StrategyContext) {
    return context.shape.sizes.some(fits);
  },
  generate(context: StrategyContext) {
    const { random } = context;
    const target = random.pick(context.shape.sizes.filter(fits));
    const worlds = makeWorlds(context, random.pick([1, 1, 2]));
    const read = context.schema.tables.filter((t) => context.schema.read.has(t.name));
    const holding = target.column === null
      ? []
      : read.filter((t) => t.columns.some((c) => c.name.toLowerCase() === target.column));
    // The table whose row is copied: the one a correlated subquery counts,
    // the one holding the aggregate's column (DISTINCT and SUM need it),
    // else any the queries read.
    const counted = read.find((t) => t.name.toLowerCase() === target.table);
    const table = counted !== undefined
      ? counted
      : holding.length > 0 && (target.kind !== "count" || random.chance(0.5))
      ? random.pick(holding)
      : random.pick(read.length > 0 ? read : context.schema.tables);
    const col = table.columns.findIndex((c) => c.name.toLowerCase() === target.column);
    const rows = new Map<string, CandidateRow[]>();
    for (const t of context.schema.tables) {
      const own = worlds.map((w) => worldRow(context, t, w));
      if (t !== table) {
        rows.set(t.name, own);
        continue;
      }
      const base = own[0]!;
      let group: CandidateRow[];
      if ((target.kind === "sum" || target.kind === "avg") && col >= 0) {
        const total = target.value + random.pick([0, 0, 1, -1]);
        const parts = random.pick([1, 2, 2, 3, 4]);
        const values = target.kind === "avg"
          ? Array.from({ length: parts }, () => total)
          : split(total, parts);
        group = copies(t, base, parts).map((r, i) => r.map((v, c) => c === col ? values[i]! : v));
      } else {
        const k = Math.min(MOST_ROWS, random.pick(sizesFor(target)));
        group = copies(t, base, k);
        if (target.kind === "distinct" && col >= 0) {
          // k distinct values, and now and then one repeated
          const start = base[col] ?? 0;
          group = group.map((r, i) =>
            r.map((v, c) => c === col ? (i === 0 ? v : freshValue(start, i)) : v)
          );
          if (random.chance(0.3)) group.push(copies(t, group[0]!, k + 1)[k]!);
        } else if (target.kind === "rows" && random.chance(0.5)) {
          // rows that an ORDER BY can tell apart
          const free = t.columns.map((c, i) => ({ c, i })).filter(({ c }) => c.pk === 0);
          if (free.length > 0) {
            const { i: at } = random.pick(free);
            group = group.map((r, i) =>
              r.map((v, c) => c === at ? freshValue(base[at] ?? 0, i) : v)
            );
          }
        }
      }
      rows.set(t.name, [...group, ...own.slice(1)]);
    }
    return rows;
  },
};
