/**
 * Where PostgreSQL candidates are tried: a private in-memory PGlite (started
 * from the template, never the user's database or server) holding the
 * schema. Each candidate is loaded, both queries run and everything is
 * rolled back, in one call into the engine: every row is inserted through a
 * helper function that catches the error of a row the schema refuses (NOT
 * NULL, CHECK, UNIQUE, PRIMARY KEY, FOREIGN KEY, a value the type cannot
 * hold), so what is kept is, by construction, a database the schema allows.
 * Deferrable constraints are checked at once (`SET CONSTRAINTS ALL
 * IMMEDIATE`). Rows are compared as the harness compares PostgreSQL rows
 * (the same parsers: BIGINT exact, NUMERIC and dates as their text).
 *
 * The engine runs in a PGlite host process (lib/databases/pglite_process.ts):
 * a candidate on which a query never ends (`pg_sleep`, a cross join) is
 * stopped at the call's deadline by killing it, and the search stops with
 * one line saying so, instead of running until killed.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { HostStopped, type PgliteHost, startPgliteHost } from "../databases/pglite_process.ts";
import { PGLITE_GROWTH_BYTES, PGLITE_TEMP_FILE_BYTES } from "../databases/pglite.ts";
import { DEFAULT_RESULT_LIMIT_BYTES } from "../databases/result_limit.ts";
import type { Candidate, CandidateRow } from "./candidate.ts";
import type { QueryPair, TrialResult, TrialSandbox } from "./given.ts";
import type { Outcome } from "./sandbox.ts";
import { pgLiteral, pgText } from "./pg_sql.ts";
import type { SearchSchema, SearchTable } from "./schema.ts";
import { ident } from "../sqlite/sql_text.ts";

interface Results {
  rows: unknown[][];
  fields: { name: string }[];
}

/** The sandbox's engine: a PGlite host, each call with a deadline. */
class Engine {
  readonly host: PgliteHost;
  timeoutMs: number;

  constructor(host: PgliteHost, timeoutMs: number) {
    this.host = host;
    this.timeoutMs = timeoutMs;
  }

  static async start(timeoutMs: number, beside: PgliteHost | undefined): Promise<Engine> {
    const host = await startPgliteHost({ kind: "empty" }, {
      tempFileBytes: PGLITE_TEMP_FILE_BYTES,
      memoryBytes: PGLITE_GROWTH_BYTES,
      resultBytes: DEFAULT_RESULT_LIMIT_BYTES,
    }, { beside });
    return new Engine(host, timeoutMs);
  }

  /**
   * Runs a script.
   *
   * @throws {UsageError} when it did not finish by its deadline (the engine is gone then)
   * @throws Error with the statement's failure
   */
  async exec(sql: string): Promise<Results[]> {
    try {
      const reply = await this.host.request("exec", sql, this.timeoutMs);
      return (reply["results"] as { columns: string[]; rows: unknown[][] }[]).map((r) => ({
        rows: r.rows,
        fields: r.columns.map((name) => ({ name })),
      }));
    } catch (e) {
      if (!(e instanceof HostStopped)) throw e;
      throw new UsageError(
        `the queries did not run to the end on a database of a few rows the search built ` +
          `(${e.message}); the search stopped`,
        { cause: e },
      );
    }
  }

  close(): Promise<void> {
    return this.host.close();
  }
}

/** The schema of the helper, a name no user query names. */
const HELPER = "dbagenteval_counterexample";

/**
 * An INSERT of one row.
 *
 * @param table the table
 * @param sqlName its name in SQL
 * @param row the values
 * @returns the statement
 */
export function insertSql(table: SearchTable, sqlName: string, row: CandidateRow): string {
  return `INSERT INTO ${sqlName} (${table.columns.map((c) => ident(c.name)).join(", ")}) VALUES (${
    table.columns.map((c, i) => pgLiteral(row[i] ?? null, c)).join(", ")
  })`;
}

/** A private PGlite with the schema, for trying candidates. */
export class PgSandbox implements TrialSandbox {
  readonly #db: Engine;
  readonly #schema: SearchSchema;
  readonly #sqlName: ReadonlyMap<string, string>;

  private constructor(db: Engine, schema: SearchSchema, sqlName: ReadonlyMap<string, string>) {
    this.#db = db;
    this.#schema = schema;
    this.#sqlName = sqlName;
  }

  /**
   * Starts PGlite and builds the schema in it.
   *
   * @param schema the tables and views
   * @param ddl every statement that builds the schema, in order
   * @param sqlName each table's name in SQL
   * @param options `timeoutMs`, each call's deadline (a load and both queries: past it the search
   *   stops); `beside`, a PGlite engine whose host process the sandbox's may share
   * @returns the sandbox; close it
   * @throws {UsageError} when PGlite cannot build the schema (a type or function it lacks)
   */
  static async create(
    schema: SearchSchema,
    ddl: readonly string[],
    sqlName: ReadonlyMap<string, string>,
    options: { readonly timeoutMs: number; readonly beside?: PgliteHost | undefined },
  ): Promise<PgSandbox> {
    const db = await engine(options.timeoutMs, options.beside);
    try {
      for (const statement of ddl) {
        try {
          await db.exec(statement);
        } catch (e) {
          if (e instanceof UsageError) throw e;
          throw new UsageError(
            `the schema cannot be rebuilt in PGlite, where the search tries its databases: ${
              (e instanceof Error ? e.message : String(e)).split("\n")[0]
            } (in: ${statement.split("\n")[0]!.slice(0, 80)})`,
            { cause: e },
          );
        }
      }
      return new PgSandbox(db, schema, sqlName);
    } catch (e) {
      await release(db);
      throw e;
    }
  }

  /** One load, both queries, undone; the rows of each table in the order given, or reversed. */
  async #once(
    candidate: Candidate,
    queries: QueryPair,
    reverse: boolean,
  ): Promise<Outcome | null> {
    const attempts: { table: string; row: CandidateRow }[] = [];
    const calls: string[] = [];
    for (const t of this.#schema.tables) {
      const rows = candidate.get(t.name);
      if (rows === undefined) continue;
      const ordered = reverse ? [...rows].reverse() : rows;
      for (const row of ordered) {
        attempts.push({ table: t.name, row });
        calls.push(`${HELPER}.try(${pgText(insertSql(t, this.#sqlName.get(t.name)!, row))})`);
      }
    }
    // A query's own line comment cannot swallow what follows it.
    const script = `BEGIN; SET CONSTRAINTS ALL IMMEDIATE;
SELECT ARRAY[${calls.join(", ")}]::boolean[] AS ok;
${queries.reference}
;
${queries.candidate}
;
ROLLBACK`;
    let results: Results[];
    try {
      results = await this.#db.exec(script);
    } catch (e) {
      // A query that does not end stops the search; one that fails on this database does not.
      if (e instanceof UsageError) throw e;
      return null;
    }
    // BEGIN, SET, the inserts, the two queries (an empty statement gives no result), ROLLBACK.
    if (results.length !== 6) return null;
    const ok = (results[2]!.rows[0]?.[0] ?? []) as boolean[];
    const kept = new Map<string, CandidateRow[]>();
    attempts.forEach((a, i) => {
      if (ok[i] !== true) return;
      const list = kept.get(a.table) ?? [];
      list.push(a.row);
      kept.set(a.table, list);
    });
    if (reverse) { for (const list of kept.values()) list.reverse(); }
    const rowSet = (r: Results) => ({ columns: r.fields.map((f) => f.name), rows: r.rows });
    return {
      database: kept,
      referenceRows: rowSet(results[3]!),
      candidateRows: rowSet(results[4]!),
    };
  }

  /** {@inheritDoc TrialSandbox.run} */
  async run(
    candidate: Candidate,
    queries: QueryPair,
    stableAlso = false,
  ): Promise<TrialResult | null> {
    const outcome = await this.#once(candidate, queries, false);
    if (outcome === null || !stableAlso) return outcome === null ? null : { outcome };
    // PostgreSQL has no switch for reversed scans: the rows go in the other
    // way round, which reverses what a sequential scan meets first.
    // Only the rows kept, so both runs load the same database.
    const reversed = await this.#once(outcome.database, queries, true);
    return reversed === null ? null : { outcome, reversed };
  }

  /** {@inheritDoc TrialSandbox.close} */
  async close(): Promise<void> {
    await release(this.#db);
  }
}

/**
 * One engine kept between searches while {@link keepEngine} says so (`run
 * --counterexamples` searches case after case): emptied, it starts the next
 * search in milliseconds instead of a second. Off by default: an open
 * PGlite host is a process the run must end.
 */
let idle: Engine | undefined;
let keep = false;

/**
 * Keeps the sandbox's engine between searches, or stops and closes it.
 *
 * @param on true to keep it; false closes the idle one
 */
export async function keepEngine(on: boolean): Promise<void> {
  keep = on;
  if (!on && idle !== undefined) {
    const db = idle;
    idle = undefined;
    await db.close().catch(() => {});
  }
}

async function engine(timeoutMs: number, beside: PgliteHost | undefined): Promise<Engine> {
  const kept = idle;
  idle = undefined;
  if (kept !== undefined && kept.host.alive) {
    kept.timeoutMs = timeoutMs;
    return kept;
  }
  await kept?.close();
  const db = await Engine.start(timeoutMs, beside);
  try {
    await db.exec(
      `CREATE SCHEMA ${HELPER};
       CREATE FUNCTION ${HELPER}.try(statement text) RETURNS boolean LANGUAGE plpgsql AS $$
       BEGIN EXECUTE statement; RETURN true;
       EXCEPTION WHEN OTHERS THEN RETURN false; END $$;`,
    );
  } catch (e) {
    await db.close();
    throw e;
  }
  return db;
}

/** Empties an engine (every schema but the helper's) and keeps it, or closes it. */
async function release(db: Engine): Promise<void> {
  try {
    if (!keep || idle !== undefined || !db.host.alive || db.host.bloated) {
      throw new Error("not kept");
    }
    await db.exec("ROLLBACK").catch(() => {});
    // What one search's queries left in the session (a PREPARE) is not the next one's.
    await db.exec("DISCARD ALL");
    await db.exec(
      `DO $$ DECLARE s text; BEGIN
         FOR s IN SELECT nspname FROM pg_namespace WHERE nspname NOT IN
           ('pg_catalog', 'information_schema', 'pg_toast', '${HELPER}') AND nspname NOT LIKE 'pg\_%'
         LOOP EXECUTE format('DROP SCHEMA %I CASCADE', s); END LOOP;
       END $$; CREATE SCHEMA public;`,
    );
    idle = db;
  } catch {
    await db.close().catch(() => {});
  }
}
