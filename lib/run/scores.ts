/**
 * `run --score`: the leaderboards' scores of a run's questions beside our
 * verdict (lib/compare), printed after the run's summary with every
 * question where they disagree.
 *
 * @module
 */
import { basename } from "node:path";
import { SqliteQueryError, UsageError } from "../errors.ts";
import type { TestCase } from "../eval/case.ts";
import type { CaseResult } from "../eval/suite.ts";
import type { RunFileScore } from "../eval/run_file.ts";
import { DatabaseDir } from "../databases/db_dir.ts";
import { leaderboardScores, leaderboardText, type ScoredQuestion } from "../compare/leaderboard.ts";
import type { Score } from "../compare/score.ts";
import { SCORES, scoresNamed } from "../compare/scores.ts";
import { spiderScore } from "../compare/score_spider.ts";
import { pooledStoredExecutor, sameStatement, type StoredExecutor } from "../compare/stored.ts";
import type { TestSuiteDatabase } from "../compare/score.ts";

/** How the scores are run: the official evaluators' flags. */
export interface ScoreFlags {
  /** --keep-distinct: Spider's evaluator with its --keep_distinct. */
  readonly keepDistinct?: boolean | undefined;
}

/**
 * The scores a `--score` value names (comma-separated).
 *
 * @param value the option's value
 * @param flags the evaluators' flags (--keep-distinct)
 * @returns the scores, or undefined without the option
 * @throws {UsageError} for a name that is not a score, or a flag without its score
 */
export function parseScores(
  value: string | undefined,
  flags: ScoreFlags = {},
): Score[] | undefined {
  if (value === undefined) {
    if (flags.keepDistinct === true) {
      throw new UsageError("--keep-distinct is a flag of --score spider: pass --score spider too");
    }
    return undefined;
  }
  const out: Score[] = [];
  for (const name of value.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    const scores = scoresNamed(name);
    if (scores === undefined) {
      throw new UsageError(
        `--score ${JSON.stringify(name)} is not a score; use one of: bird, ${
          Object.keys(SCORES).join(", ")
        }`,
      );
    }
    for (const s of scores) if (!out.includes(s)) out.push(s);
  }
  if (out.length === 0) throw new UsageError("--score needs a name: spider, bird, bird-ves, ...");
  if (flags.keepDistinct === true) {
    const i = out.findIndex((s) => s.name === "spider");
    if (i < 0) {
      throw new UsageError(
        `--keep-distinct is a flag of --score spider, and --score ${
          JSON.stringify(value)
        } has no spider`,
      );
    }
    out[i] = spiderScore({ keepDistinct: true });
  }
  return out;
}

/** Where a case's SQLite database is, for the scores. */
export interface ScoreDatabases {
  readonly db?: string | undefined;
  readonly dbDir?: string | undefined;
  readonly strictQuotes?: boolean | undefined;
  /** Each query's deadline, as the run's (`--timeout`): the evaluators give theirs too. */
  readonly timeoutMs?: number | undefined;
}

/** The run's own word that a statement ran past its deadline (lib/sqlite/pooled.ts). */
const DID_NOT_FINISH = /did not finish within|: the reference SQL did not finish/;
/** The engine's word for a result or value past its limit (lib/sqlite/pool_service.ts). */
const TOO_LARGE = /^(the result|a value) is larger than \d+ MB/;

/** Collects what the scores need from each finished case, then scores them all. */
export class RunScores {
  readonly #scores: readonly Score[];
  readonly #cases: ReadonlyMap<string, TestCase>;
  /** The cases' positions: questions are scored in the cases' order, not the order they finished. */
  readonly #order: ReadonlyMap<string, number>;
  readonly #questions: (Omit<ScoredQuestion, "execute"> & { readonly db: string | undefined })[] =
    [];
  /**
   * SQL the run already saw run past its deadline, by database: scoring
   * does not wait for it again (the same text, the same file, the same
   * deadline).
   */
  readonly #timedOut = new Map<string, Set<string>>();
  /** Predictions whose result the run found past the engine's limit, by database. */
  readonly #tooLarge = new Map<string, Map<string, Error>>();

  /**
   * @param scores the scores asked for
   * @param cases the run's cases
   */
  constructor(scores: readonly Score[], cases: readonly TestCase[]) {
    this.#scores = scores;
    this.#cases = new Map(cases.map((c) => [c.id, c]));
    this.#order = new Map(cases.map((c, i) => [c.id, i]));
  }

  /** @param r a finished case */
  add(r: CaseResult): void {
    const c = this.#cases.get(r.id);
    const sql = r.scorecard.trace?.lastOf("generate")?.output;
    const ran = (text: unknown, error: string | undefined) => {
      if (typeof text !== "string" || error === undefined || !DID_NOT_FINISH.test(error)) return;
      const key = c?.db ?? "";
      let set = this.#timedOut.get(key);
      if (set === undefined) this.#timedOut.set(key, set = new Set());
      set.add(sameStatement(text));
    };
    ran(sql, r.scorecard.trace?.lastOf("execute")?.error);
    ran(c?.reference_sql, r.error);
    // A result past the engine's limit is past it again: not run twice.
    const error = r.scorecard.trace?.lastOf("execute")?.error;
    if (typeof sql === "string" && error !== undefined && TOO_LARGE.test(error)) {
      const key = c?.db ?? "";
      let known = this.#tooLarge.get(key);
      if (known === undefined) this.#tooLarge.set(key, known = new Map());
      known.set(sql, new SqliteQueryError(sql, 18, error));
    }
    this.#questions.push({
      id: r.id,
      gold: c?.reference_sql,
      predicted: typeof sql === "string" ? sql : undefined,
      ours: r.verdict === "PASS",
      ordered: c?.ordered ?? false,
      precision: c?.precision ?? 2,
      db: c?.db,
    });
  }

  /**
   * Scores the questions, each on its case's SQLite database (opened once
   * and only read).
   *
   * @param where --db or --db-dir
   * @returns the lines to print and the run file's `scores`
   */
  async score(
    where: ScoreDatabases,
  ): Promise<{ readonly lines: string[]; readonly scores: RunFileScore[] }> {
    const dir = where.dbDir === undefined ? undefined : new DatabaseDir(where.dbDir);
    const late = new Set<string>();
    const failed = new Map<string, Map<string, Error>>();
    const failedOn = (file: string, seen?: ReadonlyMap<string, Error>) => {
      let m = failed.get(file);
      if (m === undefined) failed.set(file, m = new Map(seen ?? []));
      return m;
    };
    // The questions one of whose queries timed out (counted as the evaluators count them).
    let asking = "";
    const onTimeout = () => () => late.add(asking);
    // Every query runs in the worker pool under the run's deadline, whose
    // workers keep each file open (a test suite's dozens of files too).
    const executor = (db: string | undefined): StoredExecutor | undefined => {
      const path = db !== undefined && dir !== undefined
        ? dir.path(db)
        : where.db !== undefined && !/^(postgres(ql)?:|pglite:)/.test(where.db)
        ? where.db
        : undefined;
      if (path === undefined) return undefined;
      return pooledStoredExecutor(path, {
        strictQuotes: where.strictQuotes,
        timeoutMs: where.timeoutMs,
        timedOut: this.#timedOut.get(db ?? ""),
        onTimeout: onTimeout(),
        failed: failedOn(path, this.#tooLarge.get(db ?? "")),
      });
    };
    const testSuite = (db: string | undefined): TestSuiteDatabase[] =>
      db === undefined || dir === undefined || !this.#scores.some((s) => s.testSuites === true)
        ? []
        : dir.testSuite(db).map((file) => ({
          name: basename(file),
          execute: pooledStoredExecutor(file, {
            strictQuotes: where.strictQuotes,
            timeoutMs: where.timeoutMs,
            onTimeout: onTimeout(),
            failed: failedOn(file),
          }),
        }));
    const questions: ScoredQuestion[] = [];
    const order = (id: string) => this.#order.get(id) ?? Infinity;
    this.#questions.sort((a, b) => order(a.id) - order(b.id));
    for (const { db, ...q } of this.#questions) {
      const execute = executor(db);
      questions.push({
        ...q,
        // The scores ask one question at a time: note whose queries run.
        execute: execute === undefined ? undefined : (sql: string) => {
          asking = q.id;
          return execute(sql);
        },
        testSuite: testSuite(db).map((t) => ({
          ...t,
          execute: (sql: string) => {
            asking = q.id;
            return t.execute(sql);
          },
        })),
      });
    }
    if (!questions.some((q) => q.execute !== undefined && q.gold !== undefined)) {
      return {
        lines: [
          "--score: no case has reference_sql and a SQLite database (--db FILE or --db-dir), nothing scored",
        ],
        scores: [],
      };
    }
    const results = await leaderboardScores(questions, this.#scores);
    const seconds = Number(((where.timeoutMs ?? 0) / 1000).toFixed(3));
    return {
      lines: [
        ...leaderboardText(results),
        ...(late.size === 0 ? [] : [
          `--score: ${late.size} question(s) had a query that timed out after ${seconds} s (--timeout); a prediction that times out scores 0, as the official evaluators score one past their time limit`,
        ]),
      ],
      scores: results.map((r) => ({
        name: r.name,
        total: Math.round(r.total * 1000) / 1000,
        ours: Math.round(r.ours * 1000) / 1000,
        questions: r.questions,
        no_verdict: r.noVerdict,
        ...(r.variant === undefined ? {} : { variant: r.variant }),
        disagreements: r.disagreements.map((d) => ({ ...d })),
      })),
    };
  }
}
