/**
 * The search for a database that tells two queries apart.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { DATABASE_KINDS } from "../databases/registry.ts";
import { rowObjects } from "../row_set.ts";
import { compareRows } from "../compare/rows.ts";
import type { SqliteRow } from "../sqlite/value.ts";
import type { Candidate, CandidateRow } from "./candidate.ts";
import type { GivenDatabase, GivenRows } from "./given.ts";
import { columnPools } from "./pools.ts";
import type { TableChange } from "./render.ts";
import { type Comparison, differs } from "./sandbox.ts";
import type { SearchTable } from "./schema.ts";
import { shrink } from "./shrink.ts";
import { STRATEGIES, type Strategy, type StrategyContext } from "./strategies/mod.ts";
import { targetedCandidates } from "./strategies/targeted.ts";
import { Random } from "./random.ts";
import { type QueryWords, queryWords } from "./_tokens.ts";
import { openSqliteGiven } from "./sqlite_given.ts";
import { queryShape } from "./query_shape.ts";
import { foldAtoms } from "./atoms.ts";

/** The given database is tried as it is when each table has at most this many rows. */
const GIVEN_ROWS = 2000;

/** The share of the budget the targeted candidates may take, before the random strategies. */
const TARGETED_SHARE = 0.5;

/**
 * What {@link findCounterexample} takes.
 *
 * @example
 * ```ts
 * import type { CounterexampleOptions } from "./search.ts";
 * const options: CounterexampleOptions = {
 *   db: "examples/chinook/Chinook_Sqlite.sqlite",
 *   reference: "SELECT Name FROM Genre WHERE GenreId > 20",
 *   candidate: "SELECT Name FROM Genre WHERE GenreId >= 21",
 *   budget: 100,
 * };
 * ```
 */
export interface CounterexampleOptions {
  /**
   * The database the queries run on, only ever read: a SQLite file,
   * `pglite:FILE.sql`, `pglite:DIR`, or a `postgres://` URL.
   */
  readonly db: string;
  /**
   * On a PostgreSQL server: accept a login that could read or write the
   * server's files or run programs there. Default false (refused).
   */
  readonly allowSuperuser?: boolean | undefined;
  /** The correct query. */
  readonly reference: string;
  /** The query under test (the agent's). */
  readonly candidate: string;
  /** Row order matters (the case's `ordered`). Default false. */
  readonly ordered?: boolean | undefined;
  /** Decimal places numbers are compared to (the case's `precision`). Default 2. */
  readonly precision?: number | undefined;
  /** Seed of the random choices: the same seed, the same search. Default 1. */
  readonly seed?: number | undefined;
  /** Most candidate databases tried. Default {@link DEFAULT_BUDGET}. */
  readonly budget?: number | undefined;
  /** Most seconds spent searching (shrinking aside). Default {@link DEFAULT_TIME_LIMIT}. */
  readonly timeLimit?: number | undefined;
}

/**
 * Candidate databases a search tries by default.
 *
 * @example
 * ```ts
 * import { DEFAULT_BUDGET } from "./search.ts";
 * DEFAULT_BUDGET; // 300
 * ```
 */
export const DEFAULT_BUDGET = 300;

/**
 * Seconds a search may take by default.
 *
 * @example
 * ```ts
 * import { DEFAULT_TIME_LIMIT } from "./search.ts";
 * DEFAULT_TIME_LIMIT; // 10
 * ```
 */
export const DEFAULT_TIME_LIMIT = 10;

/**
 * What a search found.
 *
 * @example
 * ```ts
 * import { type Counterexample, findCounterexample } from "./search.ts";
 * const result: Counterexample = await findCounterexample({
 *   db: "examples/chinook/Chinook_Sqlite.sqlite",
 *   reference: "SELECT count(*) AS n FROM Genre",
 *   candidate: "SELECT count(1) AS n FROM Genre",
 *   budget: 20,
 * });
 * result.found; // false
 * ```
 */
export interface Counterexample {
  /** Whether a database on which the queries differ was found. */
  readonly found: boolean;
  /** The script that builds that database from nothing, when found. */
  readonly databaseSql?: string;
  /** The reference query's rows on it. */
  readonly referenceRows?: readonly SqliteRow[];
  /** The candidate query's rows on it. */
  readonly candidateRows?: readonly SqliteRow[];
  /** How it differs from the given database, per table. */
  readonly changes?: readonly TableChange[];
  /** The strategy that found it. */
  readonly strategy?: string;
  /** Candidate databases tried. */
  readonly tried: number;
  readonly seed: number;
  /** Seconds the search took, shrinking included. */
  readonly seconds: number;
}

function checkOptions(options: CounterexampleOptions): void {
  const whole = (name: string, v: number | undefined, min: number): void => {
    if (v !== undefined && (!Number.isInteger(v) || v < min)) {
      throw new UsageError(`${name}: expected a whole number of at least ${min}, got ${v}`);
    }
  };
  whole("--seed", options.seed, 0);
  whole("--budget", options.budget, 1);
  whole("--precision", options.precision, 0);
  if (
    options.timeLimit !== undefined &&
    (!Number.isFinite(options.timeLimit) || options.timeLimit <= 0)
  ) {
    throw new UsageError(`--time-limit: expected seconds above 0, got ${options.timeLimit}`);
  }
}

function mergeWords(a: QueryWords, b: QueryWords): QueryWords {
  return {
    numbers: [...new Set([...a.numbers, ...b.numbers])],
    strings: [...new Set([...a.strings, ...b.strings])],
    names: new Set([...a.names, ...b.names]),
  };
}

function pickStrategy(random: Random, strategies: readonly Strategy[]): Strategy {
  const total = strategies.reduce((s, x) => s + x.weight, 0);
  let roll = random.next() * total;
  for (const s of strategies) {
    roll -= s.weight;
    if (roll < 0) return s;
  }
  return strategies[strategies.length - 1]!;
}

/** The given database's rows as they are, duplicates kept, when every table is small. */
function givenAsIs(real: GivenRows, tables: readonly SearchTable[]): Candidate | null {
  const rows = new Map<string, CandidateRow[]>();
  for (const t of tables) {
    const all = real.all(t, GIVEN_ROWS);
    if (all === null) return null;
    if (all.length > 0) rows.set(t.name, all);
  }
  return rows;
}

/** A candidate's rows as one string, to skip a database already tried. */
function fingerprint(candidate: Candidate): string {
  const parts: string[] = [];
  for (const [table, rows] of candidate) {
    if (rows.length === 0) continue;
    parts.push(table, JSON.stringify(rows, (_k, v) => typeof v === "bigint" ? `${v}n` : v));
  }
  return parts.join("\u0000");
}

/**
 * Looks for a database with the given database's schema on which the
 * candidate query's rows differ from the reference query's, compared as the
 * harness's `reference_rows` check compares them. Candidates are variants of
 * the given rows and small invented databases (the queries' constants and
 * their neighbours, NULLs, duplicates); each is built in memory with the
 * schema (SQLite: the `CREATE TABLE` statements verbatim and foreign keys
 * on; PostgreSQL: a private PGlite with the schema read from the catalog),
 * so the schema's constraints hold. A database found is shrunk and kept
 * only when both queries give the same rows whatever order the engine
 * scans in. The given database is only read. Not finding one is evidence,
 * not proof, of equivalence.
 *
 * @param options the database, the two queries, and the search's bounds
 * @returns what was found
 * @throws {UsageError} for a bad option, a query that writes, or when no
 * database tried could run both queries
 * @throws {SqliteQueryError} for a query that does not compile on the database
 * @example
 * ```ts
 * import { findCounterexample } from "./search.ts";
 * const result = await findCounterexample({
 *   db: "examples/chinook/Chinook_Sqlite.sqlite",
 *   reference: "SELECT count(*) AS n FROM Track WHERE Milliseconds > 300000",
 *   candidate: "SELECT count(*) AS n FROM Track WHERE Milliseconds >= 300000",
 * });
 * result.found; // true: a track of exactly 300000 ms tells them apart
 * ```
 */
export async function findCounterexample(options: CounterexampleOptions): Promise<Counterexample> {
  checkOptions(options);
  const started = performance.now();
  const seed = options.seed ?? 1;
  const budget = options.budget ?? DEFAULT_BUDGET;
  const comparison: Comparison = {
    ordered: options.ordered ?? false,
    precision: options.precision ?? 2,
  };
  const queries = { reference: options.reference, candidate: options.candidate };
  for (
    const [sql, option] of [[queries.reference, "--reference"], [queries.candidate, "--candidate"]]
  ) {
    if (sql!.trim() === "") throw new UsageError(`${option}: the query is empty`);
  }
  const words = mergeWords(queryWords(queries.reference), queryWords(queries.candidate));
  const random = new Random(seed);
  const given = await openGiven(
    options.db,
    [
      { sql: queries.reference, option: "--reference" },
      { sql: queries.candidate, option: "--candidate" },
    ],
    words,
    random,
    {
      allowSuperuser: options.allowSuperuser === true,
      // A statement on the given database, or a trial in the sandbox, may take
      // the whole search's time; past it, it is stopped (PostgreSQL only).
      statementTimeoutMs: (options.timeLimit ?? DEFAULT_TIME_LIMIT) * 1000 + 2000,
    },
  );
  try {
    const { schema } = given;
    const real = given.rows;
    const context: StrategyContext = {
      random,
      schema,
      real,
      pools: columnPools(schema.tables, real, words),
      shape: queryShape([queries.reference, queries.candidate]),
    };
    // Only the strategies that can make something new: with an empty given
    // database, those that rearrange its rows get no budget.
    const strategies = STRATEGIES.filter((s) => s.usable?.(context) ?? true);
    const sandbox = await given.sandbox();
    // The time limit is for the search: opening the database (loading a
    // PostgreSQL script into PGlite) and building the sandbox come first.
    const deadline = performance.now() + (options.timeLimit ?? DEFAULT_TIME_LIMIT) * 1000;
    try {
      // Shrinking tries many databases: each only has to keep the queries apart.
      const quick = async (c: Candidate): Promise<Candidate | null> => {
        const r = await sandbox.run(c, queries);
        return r !== null && differs(r.outcome, comparison) ? r.outcome.database : null;
      };
      // Kept only when the difference does not hang on row order: the rows
      // of each query are the same with the engine's row order changed
      // (SQLite's unordered scans reversed; PostgreSQL's rows loaded in reverse).
      const confirm = async (c: Candidate): Promise<Candidate | null> => {
        const r = await sandbox.run(c, queries, true);
        if (r === null || r.reversed === undefined) return null;
        const { outcome, reversed } = r;
        const stable = compareRows(reversed.referenceRows, outcome.referenceRows, comparison) &&
          compareRows(reversed.candidateRows, outcome.candidateRows, comparison);
        return stable && differs(outcome, comparison) ? outcome.database : null;
      };
      // First the given database as it is (duplicates kept: it may itself
      // tell the queries apart), the empty one, the targeted candidates
      // (built from the queries' comparisons, smallest first), and the
      // whole sample.
      const fixed: { name: string; candidate: Candidate }[] = [];
      const asIs = givenAsIs(real, schema.tables);
      if (asIs !== null && asIs.size > 0) fixed.push({ name: "given", candidate: asIs });
      fixed.push({ name: "empty", candidate: new Map() });
      const atoms = await foldAtoms(context.shape.atoms, sandbox.evaluate?.bind(sandbox));
      fixed.push(
        ...targetedCandidates(
          { ...context, shape: { ...context.shape, atoms } },
          Math.ceil(budget * TARGETED_SHARE),
        ),
      );
      fixed.push({
        name: "real_sample",
        candidate: new Map(schema.tables.map((t) => [t.name, [...real.sample(t.name)]])),
      });
      const seen = new Set<string>();
      let tried = 0;
      let compared = 0;
      let made = 0;
      // A strategy may make a database already tried; those are skipped,
      // and do not count, up to a bound so a search always ends.
      while (tried < budget && made < budget * 4 && performance.now() < deadline) {
        const next = made < fixed.length ? fixed[made]! : undefined;
        const strategy = next === undefined ? pickStrategy(random, strategies) : undefined;
        const candidate = next?.candidate ?? strategy!.generate(context);
        made++;
        const key = fingerprint(candidate);
        if (seen.has(key)) continue;
        seen.add(key);
        tried++;
        const r = await sandbox.run(candidate, queries);
        if (r !== null) compared++;
        if (r === null || !differs(r.outcome, comparison)) continue;
        const confirmed = await confirm(r.outcome.database);
        if (confirmed === null) continue;
        const shrunk = await shrink(confirmed, {
          schema,
          stillDiffers: quick,
          maxTries: 400,
          deadline: Math.max(deadline, performance.now() + 2000),
        });
        // The shrunk database must hold up under reversed scans too; if
        // not, shrink again with that test on every step.
        const small = await confirm(shrunk) ?? await shrink(confirmed, {
          schema,
          stillDiffers: confirm,
          maxTries: 400,
          deadline: Math.max(deadline, performance.now() + 2000),
        });
        const final = (await sandbox.run(small, queries))!.outcome;
        return {
          found: true,
          databaseSql: given.script(final.database),
          referenceRows: rowObjects(final.referenceRows) as SqliteRow[],
          candidateRows: rowObjects(final.candidateRows) as SqliteRow[],
          changes: await given.changes(final.database),
          strategy: strategy?.name ?? next!.name,
          tried,
          seed,
          seconds: (performance.now() - started) / 1000,
        };
      }
      // Not one database ran both queries: that is no evidence of anything.
      if (compared === 0 && tried > 0) {
        throw new UsageError(
          `no database the search built could run both queries (${tried} tried): the candidate or the reference fails, or runs past its share of the time, on every one of them`,
        );
      }
      return { found: false, tried, seed, seconds: (performance.now() - started) / 1000 };
    } finally {
      await sandbox.close();
    }
  } finally {
    await given.close();
  }
}

/** Opens the given database with the kind of search its `--db` value names. */
async function openGiven(
  db: string,
  queries: readonly { readonly sql: string; readonly option: string }[],
  words: QueryWords,
  random: Random,
  options: { readonly allowSuperuser: boolean; readonly statementTimeoutMs: number },
): Promise<GivenDatabase> {
  if (DATABASE_KINDS.find((k) => k.matches(db))?.name === "sqlite") {
    return openSqliteGiven(db, queries, words, random);
  }
  // PGlite's WebAssembly is loaded only for a PostgreSQL search.
  return (await import("./pg_given.ts")).openPgGiven(db, queries, words, random, options);
}
