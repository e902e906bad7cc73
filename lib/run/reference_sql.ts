/**
 * Where `run` runs SQL: the --db database (or an --execute function) and
 * the --db-dir folder of databases named by the cases.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import type { TestCase } from "../eval/case.ts";
import { caseLine } from "../eval/cases.ts";
import { type CaseSource, HAS_REFERENCE_SQL, NAMES_DB } from "../eval/case_source.ts";
import type { Executor } from "../eval/evaluate.ts";
import { DatabaseDir } from "../databases/db_dir.ts";
import { openReferenceDatabase } from "../databases/registry.ts";
import type { ReferenceDatabase } from "../databases/database.ts";
import { loadFunction } from "./load_module.ts";
import type { ResolvedRunOptions as RunOptions } from "./run_setup.ts";

/** How the reference SQL (and an agent's SQL-only answer) runs. */
export interface ReferenceSql {
  readonly execute?: Executor;
  readonly database?: ReferenceDatabase;
  /** With --db-dir: each case's own database. */
  readonly databases?: DatabaseDir;
}

/**
 * What the databases of a run need to know of its cases; the cases are
 * read from the file only when a check needs them.
 */
export interface ExecutorCases {
  /** The selected cases that name their database (db:). */
  readonly named: () => readonly TestCase[];
  /** The first selected case with reference_sql and no db:. */
  readonly lost: () => TestCase | undefined;
  /** Whether a selected case has reference_sql. */
  readonly referenceSql: boolean;
}

/**
 * What the databases of a run need to know of the cases at `positions`.
 *
 * @param source the cases file
 * @param positions the selected cases' positions in it, ascending
 * @returns the facts, the cases read on demand
 */
export function executorCases(source: CaseSource, positions: ArrayLike<number>): ExecutorCases {
  return {
    named: () => source.cases(source.having(positions, NAMES_DB)),
    lost: () => source.cases(source.having(positions, HAS_REFERENCE_SQL, NAMES_DB).slice(0, 1))[0],
    referenceSql: source.having(positions, HAS_REFERENCE_SQL).length > 0,
  };
}

/** Where a case is, for messages: `cases.yaml:12 (case x)`. */
function caseWhere(file: string, testCase: TestCase): string {
  const line = caseLine(testCase);
  return `${file}${line === undefined ? "" : `:${line}`} (case ${testCase.id})`;
}

/**
 * The --db-dir folder, with every selected case's database found before
 * any case runs: an unknown name is one line listing the close ones.
 */
function loadDatabaseDir(
  options: RunOptions,
  file: string,
  cases: ExecutorCases,
  timeout: number | undefined,
): DatabaseDir | undefined {
  const named = cases.named();
  if (options.dbDir === undefined) {
    const first = named[0];
    if (first !== undefined) {
      throw new UsageError(
        `${
          caseWhere(file, first)
        } names its database (db: ${first.db}); pass --db-dir DIR, the folder that holds it`,
      );
    }
    return undefined;
  }
  const dir = new DatabaseDir(options.dbDir, {
    strictQuotes: options.strictQuotes === true,
    statementTimeoutMs: timeout,
  });
  for (const c of named) {
    try {
      dir.path(c.db!);
    } catch (e) {
      if (e instanceof UsageError) throw new UsageError(`${caseWhere(file, c)}: ${e.message}`);
      throw e;
    }
  }
  if (options.db === undefined && options.execute === undefined) {
    const lost = cases.lost();
    if (lost !== undefined) {
      throw new UsageError(
        `${
          caseWhere(file, lost)
        } has reference_sql and no db:; give it db: NAME (a database in --db-dir), or pass --db FILE for the cases without one`,
      );
    }
  }
  return dir;
}

/**
 * The databases of a run: --db (or --execute) for the cases without their
 * own, and --db-dir for those that name one.
 *
 * @param options the run's options
 * @param file the cases file, for messages
 * @param cases what the selected cases need
 * @param timeout the case timeout, for each statement
 * @returns how SQL runs, or undefined when no case needs it
 * @throws {UsageError} for an unknown database name, or a case with no database
 */
export async function loadExecutor(
  options: RunOptions,
  file: string,
  cases: ExecutorCases,
  timeout: number | undefined,
): Promise<ReferenceSql | undefined> {
  const databases = loadDatabaseDir(options, file, cases, timeout);
  const rest = await loadDefaultExecutor(options, cases, timeout, databases !== undefined);
  return databases === undefined ? rest : { ...rest, databases };
}

async function loadDefaultExecutor(
  options: RunOptions,
  cases: ExecutorCases,
  timeout: number | undefined,
  hasDir: boolean,
): Promise<ReferenceSql | undefined> {
  if (options.db !== undefined) {
    // A missing file, an unreachable server or bad credentials stop the run here, before any case.
    const database = await openReferenceDatabase(options.db, {
      statementTimeoutMs: timeout,
      connections: options.concurrency,
      strictQuotes: options.strictQuotes === true,
      allowSuperuser: options.allowSuperuser === true,
      // On PostgreSQL and PGlite: the same limit as SQLite's engines in the pool.
      ...(options.maxResultMb !== undefined
        ? { resultLimitBytes: options.maxResultMb * 2 ** 20 }
        : {}),
    });
    // The SQLite executor itself (it carries its path, which the SQLite rules read).
    return { execute: database.execute, database };
  }
  if (options.execute !== undefined) {
    return { execute: await loadFunction("--execute", options.execute) as Executor };
  }
  if (!hasDir && cases.referenceSql) {
    throw new UsageError(
      "some cases have reference_sql; pass --execute file:function, or --db FILE for a SQLite database (or --db postgres://... or --db pglite:FILE.sql for PostgreSQL)",
    );
  }
  return undefined;
}
