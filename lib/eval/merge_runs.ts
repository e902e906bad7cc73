/**
 * Merging the run files of the shards of one run (`dbagenteval merge`) into
 * one run file that `diff`, `report` and every reporter take as they take an
 * unsharded run.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { ERROR, FAIL, PASS, SKIP, type Status } from "./check.ts";
import type { RunFile, RunFileCase } from "./run_file.ts";

/**
 * A run file and the name to use for it in messages.
 *
 * @example
 * ```ts
 * import type { NamedRunFile } from "../../mod.ts";
 * const named = (run: NamedRunFile["run"]): NamedRunFile => ({ name: "shard-1.json", run });
 * ```
 */
export interface NamedRunFile {
  readonly name: string;
  readonly run: RunFile;
}

/**
 * The totals and first failing stages of a list of run-file cases (most
 * frequent stage first; ties keep the order first seen).
 *
 * @param cases the cases
 * @returns the totals and the failures by stage, as a run file holds them
 * @example
 * ```ts
 * import { runTotals } from "../../mod.ts";
 * const c = { id: "a", question: "A?", tags: [], verdict: "FAIL" as const, failed_stage: "execute",
 *   error: null, duration_ms: 1, answer: null, sql: null, checks: [] };
 * runTotals([c]).totals.failed; // 1
 * ```
 */
export function runTotals(
  cases: readonly RunFileCase[],
): Pick<RunFile, "totals" | "failures_by_stage"> {
  const count = (s: Status) => cases.filter((c) => c.verdict === s).length;
  const byStage = new Map<string, number>();
  for (const c of cases) {
    if (c.verdict === FAIL && c.failed_stage !== null) {
      byStage.set(c.failed_stage, (byStage.get(c.failed_stage) ?? 0) + 1);
    }
  }
  return {
    totals: {
      total: cases.length,
      passed: count(PASS),
      failed: count(FAIL),
      errors: count(ERROR),
      skipped: count(SKIP),
    },
    failures_by_stage: Object.fromEntries([...byStage].sort((a, b) => b[1] - a[1])),
  };
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Merges the run files of every shard of one run. The inputs must be shards
 * (`run --shard i/n --json`) of the same selection of the same cases file,
 * with the same repeat settings, one file per shard, no case twice, and no
 * shard missing; anything else is refused with a message naming the files.
 * Cases come out in cases-file order; totals and failing stages are
 * recounted; judge calls add up; the duration is the longest shard's.
 *
 * @param runs the shards' run files, in any order
 * @returns the merged run file (without a `shard` field)
 * @throws {UsageError} on overlapping, mismatched or missing shards
 * @example
 * ```ts
 * import { defineCase, mergeRuns, runSuite, shardCases, toRunFile } from "../../mod.ts";
 * const cases = ["a", "b", "c"].map((id) => defineCase({ id, question: `${id}?` }));
 * const shards = await Promise.all([1, 2].map(async (index) => {
 *   const run = toRunFile(await runSuite(shardCases(cases, { index, total: 2 }), () => "ok"));
 *   return { name: `${index}.json`, run: { ...run, shard: { index, total: 2, of: 3, fingerprint: "x" } } };
 * }));
 * mergeRuns(shards).totals.total; // 3
 * ```
 */
export function mergeRuns(runs: readonly NamedRunFile[]): RunFile {
  if (runs.length === 0) throw new UsageError("merge: give the run files of every shard");
  const first = runs[0]!;
  for (const { name, run } of runs) {
    if (run.shard === undefined) {
      throw new UsageError(
        `merge: ${name} is not a shard's run file (no "shard"); merge takes the --json files of run --shard i/n`,
      );
    }
  }
  const head = first.run.shard!;
  const seen = new Map<number, string>();
  for (const { name, run } of runs) {
    const s = run.shard!;
    if (s.total !== head.total || s.of !== head.of || s.fingerprint !== head.fingerprint) {
      throw new UsageError(
        `merge: ${name} (shard ${s.index}/${s.total} of ${s.of} cases) and ${first.name} (shard ${head.index}/${head.total} of ${head.of} cases) are shards of different runs; merge the shards of one run`,
      );
    }
    if (run.cases_file !== first.run.cases_file) {
      throw new UsageError(
        `merge: ${name} ran ${run.cases_file ?? "no cases file"} and ${first.name} ran ${
          first.run.cases_file ?? "no cases file"
        }; merge the shards of one run`,
      );
    }
    if (!same(run.repeat, first.run.repeat) || !same(run.min_pass_rate, first.run.min_pass_rate)) {
      throw new UsageError(
        `merge: ${name} and ${first.name} were run with different --repeat or --min-pass-rate; merge the shards of one run`,
      );
    }
    const other = seen.get(s.index);
    if (other !== undefined) {
      throw new UsageError(
        `merge: ${other} and ${name} are both shard ${s.index}/${s.total}; pass each shard once`,
      );
    }
    seen.set(s.index, name);
  }
  const missing = Array.from({ length: head.total }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) {
    throw new UsageError(
      `merge: shard ${
        missing.map((i) => `${i}/${head.total}`).join(", ")
      } missing; pass the run file of every shard`,
    );
  }
  const owner = new Map<string, string>();
  const cases: RunFileCase[] = [];
  for (const { name, run } of runs) {
    for (const c of run.cases) {
      const other = owner.get(c.id);
      if (other !== undefined) {
        throw new UsageError(
          `merge: case "${c.id}" is in both ${other} and ${name}; shards must not overlap (were they made with different --shard-durations?)`,
        );
      }
      owner.set(c.id, name);
      cases.push(c);
    }
  }
  const order = cases.map((c, i) => ({ c, i }));
  order.sort((a, b) => (a.c.line ?? Infinity) - (b.c.line ?? Infinity) || a.i - b.i);
  const merged = order.map((x) => x.c);
  const latest = runs.map((r) => r.run.created_at).sort().at(-1)!;
  const { shard: _shard, ...rest } = first.run;
  return {
    ...rest,
    created_at: latest,
    ...runTotals(merged),
    judge_calls: runs.reduce((n, r) => n + r.run.judge_calls, 0),
    duration_ms: Math.max(...runs.map((r) => r.run.duration_ms)),
    cases: merged,
  };
}
