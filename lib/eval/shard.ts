/**
 * Splitting the cases of a run across machines (`run --shard i/n`): the
 * same split on every machine, from the case ids alone, balanced by count
 * or, given the durations of a previous run, by time.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import type { TestCase } from "./case.ts";

/**
 * Shard `index` (1-based) of `total`.
 *
 * @example
 * ```ts
 * import { parseShard, type Shard } from "../../mod.ts";
 * const shard: Shard = parseShard("2/4");
 * shard; // { index: 2, total: 4 }
 * ```
 */
export interface Shard {
  readonly index: number;
  readonly total: number;
}

/**
 * Reads `i/n` as `--shard` takes it.
 *
 * @param text e.g. `2/4`
 * @returns the shard
 * @throws {UsageError} unless 1 <= i <= n
 * @example
 * ```ts
 * import { parseShard } from "../../mod.ts";
 * parseShard("1/3").total; // 3
 * ```
 */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(m?.[1]);
  const total = Number(m?.[2]);
  if (m === null || index < 1 || total < 1 || index > total) {
    throw new UsageError(
      `--shard ${text}: expected i/n with 1 <= i <= n, e.g. 1/4 for the first of four shards`,
    );
  }
  return { index, total };
}

/** FNV-1a, 32 bits: a hash that is the same on every machine and runtime. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * A short hash of a list of case ids (order does not matter): shards of the
 * same selection share it, so `merge` can refuse shards of different runs.
 *
 * @param ids the case ids
 * @returns eight hex digits
 * @example
 * ```ts
 * import { casesFingerprint } from "../../mod.ts";
 * casesFingerprint(["a", "b"]) === casesFingerprint(["b", "a"]); // true
 * ```
 */
export function casesFingerprint(ids: readonly string[]): string {
  return fnv1a([...ids].sort().join("\n")).toString(16).padStart(8, "0");
}

/**
 * Options of {@link shardCases}.
 *
 * @example
 * ```ts
 * import type { ShardOptions } from "../../mod.ts";
 * const options: ShardOptions = { durations: new Map([["slow", 9000]]) };
 * options.durations?.get("slow"); // 9000
 * ```
 */
export interface ShardOptions {
  /** Milliseconds per case id from a previous run: balance by time instead of count. */
  readonly durations?: ReadonlyMap<string, number> | undefined;
}

/**
 * The cases of one shard, in file order. Cases are ordered by a hash of
 * their id; by count, the k-th of that order goes to shard k mod n (sizes
 * differ by at most one); by duration, the longest case not yet placed
 * goes to the shard with the least time so far (cases the previous run did
 * not have count as its mean). Every shard of the same cases is disjoint
 * and together they hold every case.
 *
 * @param cases the selected cases (or their ids), the same on every machine
 * @param shard which shard
 * @param options durations to balance by
 * @returns this shard's cases
 * @example
 * ```ts
 * import { defineCase, shardCases } from "../../mod.ts";
 * const cases = ["a", "b", "c", "d", "e"].map((id) => defineCase({ id, question: `${id}?` }));
 * const sizes = [1, 2].map((index) => shardCases(cases, { index, total: 2 }).length);
 * sizes.sort(); // [2, 3]
 * ```
 */
export function shardCases<C extends Pick<TestCase, "id">>(
  cases: readonly C[],
  shard: Shard,
  options: ShardOptions = {},
): C[] {
  const order = cases.map((c, i) => ({ c, i, h: fnv1a(c.id) }));
  order.sort((a, b) => a.h - b.h || (a.c.id < b.c.id ? -1 : a.c.id > b.c.id ? 1 : 0));
  const pick = new Set<number>();
  const durations = options.durations;
  if (durations === undefined || durations.size === 0) {
    order.forEach((x, k) => {
      if (k % shard.total === shard.index - 1) pick.add(x.i);
    });
  } else {
    const known = [...durations.values()].filter((d) => Number.isFinite(d) && d >= 0);
    const mean = known.length === 0 ? 1 : known.reduce((a, b) => a + b, 0) / known.length;
    const cost = (id: string) => {
      const d = durations.get(id);
      return d !== undefined && Number.isFinite(d) && d >= 0 ? d : mean;
    };
    // Stable sort: equal durations keep the hash order, so every machine agrees.
    const byTime = [...order].sort((a, b) => cost(b.c.id) - cost(a.c.id));
    const load = new Array<number>(shard.total).fill(0);
    for (const x of byTime) {
      let least = 0;
      for (let s = 1; s < shard.total; s++) if (load[s]! < load[least]!) least = s;
      load[least]! += cost(x.c.id);
      if (least === shard.index - 1) pick.add(x.i);
    }
  }
  return cases.filter((_, i) => pick.has(i));
}

/**
 * The line a shard's run prints under its totals, so that a CI log says which
 * part of the suite it holds: `shard 2/4: 5 of the 20 cases`.
 *
 * @param shard which shard, and how many cases the whole selection has
 * @param cases how many cases this shard ran
 * @returns the line, without a newline
 * @example
 * ```ts
 * import { shardLine } from "./shard.ts";
 * shardLine({ index: 2, total: 4, of: 20 }, 5); // "shard 2/4: 5 of the 20 cases; dbagenteval merge joins the shards' run files"
 * ```
 */
export function shardLine(shard: Shard & { readonly of: number }, cases: number): string {
  return `shard ${shard.index}/${shard.total}: ${cases} of the ${shard.of} cases; ` +
    "dbagenteval merge joins the shards' run files";
}
