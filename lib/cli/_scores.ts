/**
 * `run --score`: the leaderboards' scores of a run's questions beside our
 * verdict (lib/compare), printed after the run's summary with every
 * question where they disagree.
 *
 * @module
 */
import { basename } from "node:path";
import { UsageError } from "../errors.ts";
import type { TestCase } from "../eval/case.ts";
import type { CaseResult } from "../eval/suite.ts";
import type { RunFileScore } from "../eval/run_file.ts";
import { DatabaseDir } from "../databases/db_dir.ts";
import { type Database, openDatabase } from "../sqlite/database.ts";
import { leaderboardScores, leaderboardText, type ScoredQuestion } from "../compare/leaderboard.ts";
import type { Score } from "../compare/score.ts";
import { SCORES, scoresNamed } from "../compare/scores.ts";
import { spiderScore } from "../compare/score_spider.ts";
import { type StoredExecutor, storedExecutor, type StoredRows } from "../compare/stored.ts";
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
}

/** Collects what the scores need from each finished case, then scores them all. */
export class RunScores {
  readonly #scores: readonly Score[];
  readonly #cases: ReadonlyMap<string, TestCase>;
  readonly #questions: (Omit<ScoredQuestion, "execute"> & { readonly db: string | undefined })[] =
    [];

  /**
   * @param scores the scores asked for
   * @param cases the run's cases
   */
  constructor(scores: readonly Score[], cases: readonly TestCase[]) {
    this.#scores = scores;
    this.#cases = new Map(cases.map((c) => [c.id, c]));
  }

  /** @param r a finished case */
  add(r: CaseResult): void {
    const c = this.#cases.get(r.id);
    const sql = r.scorecard.trace?.lastOf("generate")?.output;
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
    const open = new Map<string, Database>();
    const executor = async (db: string | undefined): Promise<StoredExecutor | undefined> => {
      const path = db !== undefined && dir !== undefined
        ? dir.path(db)
        : where.db !== undefined && !/^(postgres(ql)?:|pglite:)/.test(where.db)
        ? where.db
        : undefined;
      if (path === undefined) return undefined;
      let d = open.get(path);
      if (d === undefined) {
        d = await openDatabase(path, { strictQuotes: where.strictQuotes });
        open.set(path, d);
      }
      return storedExecutor(d);
    };
    // A test suite can hold dozens of files a database: they are opened as
    // their questions are scored, a few at a time.
    const suites = new SuiteFiles(where.strictQuotes);
    const testSuite = (db: string | undefined): TestSuiteDatabase[] =>
      db === undefined || dir === undefined || !this.#scores.some((s) => s.testSuites === true)
        ? []
        : dir.testSuite(db).map((file) => ({
          name: basename(file),
          execute: (sql: string) => suites.execute(file, sql),
        }));
    try {
      const questions: ScoredQuestion[] = [];
      // In the cases' order, whatever order they finished in, so that the
      // disagreements are listed the same way on every run.
      const position = new Map([...this.#cases.keys()].map((id, i) => [id, i]));
      this.#questions.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
      for (const { db, ...q } of this.#questions) {
        questions.push({ ...q, execute: await executor(db), testSuite: testSuite(db) });
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
      return {
        lines: leaderboardText(results),
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
    } finally {
      open.forEach((d) => d.close());
      suites.close();
    }
  }
}

/** The files of test suites, opened on use, the last few kept open. */
class SuiteFiles {
  static readonly KEEP = 16;
  readonly #strictQuotes: boolean | undefined;
  readonly #open = new Map<string, Promise<Database>>();

  constructor(strictQuotes: boolean | undefined) {
    this.#strictQuotes = strictQuotes;
  }

  async execute(file: string, sql: string): Promise<StoredRows> {
    let db = this.#open.get(file);
    if (db === undefined) {
      db = openDatabase(file, { strictQuotes: this.#strictQuotes });
      if (this.#open.size >= SuiteFiles.KEEP) {
        const [oldest, first] = this.#open.entries().next().value!;
        this.#open.delete(oldest);
        void first.then((d) => d.close(), () => {});
      }
    } else {
      this.#open.delete(file);
    }
    this.#open.set(file, db);
    return storedExecutor(await db)(sql);
  }

  close(): void {
    for (const db of this.#open.values()) void db.then((d) => d.close(), () => {});
    this.#open.clear();
  }
}
