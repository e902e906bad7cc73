/**
 * The hostile-SQL matrix's table: the statements a weak model really
 * writes and a hostile agent could write, each with what every path must
 * say about it, and the canaries, cases with known answers that run after
 * them in the same run and must keep their verdicts. One table for every
 * engine: a statement gives its SQL per dialect (`sqlite`, `postgres`; an
 * engine with no text for a statement skips it), and matrix_test.ts (SQLite)
 * and pg_matrix_test.ts (PGlite, a PostgreSQL server) run each through
 * every path (predictions, BIRD predictions, an agent's SQL, reference SQL,
 * `validate --db`, `counterexample`).
 *
 * Kept cheap: every runaway is cut by a short `--timeout`, every huge value
 * fails at the engine's limit at once.
 *
 * @module
 */

/**
 * The dialects the table gives SQL in: `sqlite` (matrix_test.ts), and
 * `postgres`, which pg_matrix_test.ts runs on PGlite and on a server.
 */
export type Engine = "sqlite" | "postgres";

/** Where pg_matrix_test.ts runs the `postgres` SQL. */
export type PgTarget = "pglite" | "server";

/** One hostile statement. */
export interface HostileStatement {
  /** The case id it runs as (letters, digits, `_`). */
  readonly id: string;
  /** Its text on each engine. */
  readonly sql: Partial<Record<Engine, string>>;
  /**
   * What a failure of it says (as the agent's SQL: the execute stage's
   * error; as reference SQL: the case's ERROR), or null when it runs and
   * returns rows (the case then FAILs on its rows).
   */
  readonly says: RegExp | null;
  /** Also on the FAIL line, when it returns rows (a long value shown cut). */
  readonly shows?: RegExp;
  /** What it says on PGlite or a server instead of `says`, where the two differ. */
  readonly saysOn?: Partial<Record<PgTarget, RegExp | null>>;
  /** It runs until its deadline (PGlite is killed then, and started again). */
  readonly runaway?: true;
}

/**
 * In the `postgres` SQL: a folder the test makes, writable by anyone (the
 * server's own account too), that must stay empty: where a COPY to a file
 * or a program would write.
 */
export const TARGETS = "%TARGETS%";

/** The fixture's tables, on every engine: `city` (100 rows), `t` (3 rows). */
export const FIXTURE_SQL =
  `CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
INSERT INTO city SELECT i, CASE WHEN i % 10 = 0 THEN 'Paris ' || i ELSE 'Town ' || i END,
  CASE WHEN i % 2 = 0 THEN 'FR' ELSE 'DE' END FROM n;
CREATE TABLE t (x INTEGER);
INSERT INTO t VALUES (1), (2), (3);
`;

/** As the agent's SQL, or as reference SQL (the case's time runs out with it). */
const RUNAWAY =
  /did not finish within \d+(\.\d+)? s|timed out after \d+(\.\d+)? s: the reference SQL did not finish/;
const REFUSED = /is refused: the SQL may only read the case's database/;
/** On PostgreSQL: a read-only transaction's refusal. */
const READ_ONLY = /in a read-only transaction/;
/** A PostgreSQL runaway: cut by its deadline, or (PGlite) waiting behind another past its own. */
const PG_RUNAWAY = new RegExp(
  `${RUNAWAY.source}|did not finish within|waited for the one before it|statement timeout`,
);

/**
 * A PGlite runaway that keeps what it makes (a recursive CTE's rows, whose
 * temporary files PGlite holds in memory): stopped at its deadline or, on a
 * fast machine under Bun, for its memory first (docs/postgres.md).
 */
const PGLITE_HOARDING = new RegExp(`${PG_RUNAWAY.source}|used more than \\d+ MB of memory`);

/** The hostile statements, in the order they run (before the canaries). */
export const HOSTILE: readonly HostileStatement[] = [
  // First: it takes the worker the run has warmed, so that the 32 MB of rows
  // it builds before its size is the answer do not wait for a thread's start
  // on a loaded machine (the runaways, last, start threads of their own).
  {
    id: "recursive_rows",
    sql: {
      sqlite:
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x, printf('%.*c', 1000000, 'y') AS pad FROM c",
    },
    says: /the result is larger than \d+ MB \((at least )?\d+ rows/,
  },
  { id: "zeroblob_1e9", sql: { sqlite: "SELECT zeroblob(1e9)" }, says: /larger than \d+ MB/ },
  { id: "zeroblob_5e8", sql: { sqlite: "SELECT zeroblob(5e8)" }, says: /larger than \d+ MB/ },
  {
    id: "printf_3e8",
    sql: { sqlite: "SELECT printf('%.*c', 3e8, 'x')" },
    says: /larger than \d+ MB/,
  },
  {
    id: "blob_10mb",
    sql: { sqlite: "SELECT zeroblob(10000000) AS b" },
    says: null,
    shows: /\(10000000 bytes, sha256 [0-9a-f]{12}/,
  },
  { id: "temp_table", sql: { sqlite: "CREATE TEMP TABLE t AS SELECT 99 AS x" }, says: REFUSED },
  { id: "temp_view", sql: { sqlite: "CREATE TEMP VIEW t AS SELECT 99 AS x" }, says: REFUSED },
  { id: "case_sensitive_like", sql: { sqlite: "PRAGMA case_sensitive_like = 1" }, says: null },
  { id: "attach_passwd", sql: { sqlite: "ATTACH '/etc/passwd' AS p" }, says: REFUSED },
  { id: "attach_kvvfs", sql: { sqlite: "ATTACH 'file:x?vfs=kvvfs' AS k" }, says: REFUSED },
  { id: "begin", sql: { sqlite: "BEGIN" }, says: REFUSED },
  // The runaways last: each holds a worker until the deadline, and the
  // statements before them need none of their own but the run's first.
  {
    id: "cross_join",
    sql: {
      sqlite: "SELECT count(*) FROM city a, city b, city c, city d, city e",
      postgres: "SELECT count(*) FROM city a, city b, city c, city d, city e",
    },
    says: RUNAWAY,
    saysOn: { pglite: PG_RUNAWAY, server: PG_RUNAWAY },
    runaway: true,
  },
  {
    id: "recursive_count",
    sql: {
      sqlite:
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c",
      postgres:
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c",
    },
    says: RUNAWAY,
    saysOn: { pglite: PGLITE_HOARDING, server: PG_RUNAWAY },
    runaway: true,
  },
  {
    id: "one_long_step",
    // One step of SQLite's machine (a needle search in a long text) that
    // no progress handler sees: its worker is given up at the deadline.
    sql: {
      sqlite: "SELECT instr(printf('%.*c', 1000000, 'a'), printf('%.*c', 20000, 'a') || 'b') AS i",
    },
    says: RUNAWAY,
  },
  // PostgreSQL's own: what a read-only transaction does not stop, and what
  // outlives a rollback (PGlite runs as its superuser; the server as a plain role).
  {
    id: "pg_rows_without_end",
    sql: {
      postgres:
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x, repeat('y', 100000) AS pad FROM c",
    },
    says: new RegExp(
      `the result is larger than \\d+ MB|more than \\d+ MB of memory|${PG_RUNAWAY.source}`,
    ),
    runaway: true,
  },
  { id: "pg_sleep", sql: { postgres: "SELECT pg_sleep(60)" }, says: PG_RUNAWAY, runaway: true },
  {
    id: "pg_huge_value",
    sql: { postgres: "SELECT repeat('x', 600000000)" },
    says: new RegExp(`out of memory|the result is larger than \\d+ MB|${PG_RUNAWAY.source}`),
  },
  {
    id: "pg_copy_file",
    sql: { postgres: `COPY (SELECT 'pwned') TO '${TARGETS}/copy.txt'` },
    says: null,
    saysOn: {
      server: /must be superuser or have privileges of the pg_write_server_files role/,
      pglite: /could not open file ".*copy\.txt" for writing: No such file or directory/,
    },
  },
  {
    id: "pg_copy_program",
    sql: { postgres: `COPY (SELECT 1) TO PROGRAM 'touch ${TARGETS}/program.txt'` },
    says: null,
    saysOn: {
      server: /must be superuser or have privileges of the pg_execute_server_program role/,
      pglite: /PGlite runs no programs/,
    },
  },
  {
    id: "pg_do_program",
    sql: {
      postgres:
        `DO $$ BEGIN EXECUTE 'COPY (SELECT 1) TO PROGRAM ''touch ${TARGETS}/do.txt'''; END $$`,
    },
    says: null,
    saysOn: {
      server: /must be superuser or have privileges of the pg_execute_server_program role/,
      pglite: /PGlite runs no programs/,
    },
  },
  {
    id: "pg_read_file",
    sql: { postgres: "SELECT pg_read_file('/etc/hostname')" },
    says: null,
    saysOn: {
      server: /permission denied for function pg_read_file/,
      pglite: /could not open file "\/etc\/hostname"/,
    },
  },
  {
    id: "pg_lo_import",
    sql: { postgres: "SELECT lo_import('/etc/hostname')" },
    says: null,
    saysOn: { server: /permission denied for function lo_import/, pglite: READ_ONLY },
  },
  {
    id: "pg_terminate_self",
    sql: { postgres: "SELECT pg_terminate_backend(pg_backend_pid())" },
    says: null,
    saysOn: { server: /the connection to the server was lost/, pglite: null },
  },
  {
    // Ends the role's other sessions: what ran on them runs again on new ones.
    id: "pg_terminate_others",
    sql: {
      postgres:
        "SELECT 100 + count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE usename = current_user AND pid <> pg_backend_pid()",
    },
    says: null,
  },
  {
    id: "pg_copy_stdout",
    sql: { postgres: "COPY city TO STDOUT" },
    says: null,
    saysOn: { server: /COPY \.\.\. TO STDOUT sends no rows/, pglite: null },
  },
  { id: "pg_prepare", sql: { postgres: "PREPARE p AS SELECT 1" }, says: null },
  { id: "pg_advisory_lock", sql: { postgres: "SELECT pg_advisory_lock(1)" }, says: null },
  {
    // Would hide `city` from every later case if it outlived its statement.
    id: "pg_search_path",
    sql: { postgres: "SELECT set_config('search_path', 'pg_catalog', false)" },
    says: null,
  },
  {
    id: "pg_temp_table",
    sql: { postgres: "CREATE TEMP TABLE t AS SELECT 99 AS x" },
    says: READ_ONLY,
  },
  { id: "pg_delete", sql: { postgres: "DELETE FROM t" }, says: READ_ONLY },
  { id: "pg_commit", sql: { postgres: "COMMIT" }, says: null },
];

/** A case whose answer is known, run after the hostile statements. */
export interface Canary {
  readonly id: string;
  readonly question: string;
  /** The reference SQL (and, for a PASS, the agent's SQL too). */
  readonly reference: Partial<Record<Engine, string>>;
  /** The agent's SQL when it is not the reference's. */
  readonly agent?: Partial<Record<Engine, string>>;
  readonly verdict: "PASS" | "FAIL";
}

/**
 * The canaries: each would change its verdict if a hostile statement had
 * changed the engine for later cases (a TEMP table `t` shadowing the real
 * one, `case_sensitive_like` on, a database attached, a transaction left
 * open).
 */
export const CANARIES: readonly Canary[] = [
  {
    id: "canary_t",
    question: "How many rows are in t?",
    reference: { sqlite: "SELECT count(*) AS n FROM t", postgres: "SELECT count(*) AS n FROM t" },
    verdict: "PASS",
  },
  {
    id: "canary_like",
    question: "How many cities are called Paris something?",
    reference: {
      sqlite: "SELECT count(*) AS n FROM city WHERE name LIKE 'paris%'",
      // PostgreSQL's LIKE minds case; ILIKE is SQLite's LIKE.
      postgres: "SELECT count(*) AS n FROM city WHERE name ILIKE 'paris%'",
    },
    verdict: "PASS",
  },
  {
    id: "canary_wrong",
    question: "How many German towns?",
    reference: {
      sqlite: "SELECT count(*) AS n FROM city WHERE country = 'DE'",
      postgres: "SELECT count(*) AS n FROM city WHERE country = 'DE'",
    },
    agent: {
      sqlite: "SELECT count(*) AS n FROM city WHERE country = 'FR' AND id < 50",
      postgres: "SELECT count(*) AS n FROM city WHERE country = 'FR' AND id < 50",
    },
    verdict: "FAIL",
  },
  {
    id: "canary_sum",
    question: "What is the sum of t?",
    reference: { sqlite: "SELECT sum(x) AS s FROM t", postgres: "SELECT sum(x) AS s FROM t" },
    verdict: "PASS",
  },
];

/** The known rows of the canaries' reference SQL (the fixture's answers). */
export const CANARY_ROWS: Readonly<Record<string, readonly Record<string, number>[]>> = {
  canary_t: [{ n: 3 }],
  canary_like: [{ n: 10 }],
  canary_wrong: [{ n: 50 }],
  canary_sum: [{ s: 6 }],
};
