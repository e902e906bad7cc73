/**
 * Real SQL nobody here wrote, from public text-to-SQL and TPC query sets (see
 * rules/testdata/README.md for their sources and licences): how much of it
 * the rules can read, whether they read it as the database does, and whether
 * ReadOnly, AllowedTables and AllowedColumns on SQLite agree with SQLite's
 * own authorizer.
 *
 * Model predictions are raw: some are not SQL at all. Each share below is
 * of the queries the database's own grammar accepts: SQLite's for sqlite
 * (a syntax error from `sqlite3_prepare` on the test schema), PostgreSQL's
 * for postgres (libpg-query), and for mysql, which has no server here, the
 * queries not marked `invalid` (reviewed one by one, the reason noted).
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { makeDb, tempDir } from "../tests/fixtures.ts";
import { Trace } from "../lib/eval/trace.ts";
import type { CheckResult } from "../lib/eval/check.ts";
import { sqliteAccess } from "../lib/sqlite/authorizer.ts";
import { AllowedColumns, AllowedTables, ReadOnly } from "./mod.ts";
import { parseSqlModel } from "./_parse.ts";
import { loadPgQuery, pgParse } from "./_pg_query.ts";

interface Query {
  readonly corpus: string;
  readonly dialect: "sqlite" | "postgres" | "mysql";
  readonly sql: string;
  readonly source: string;
  readonly invalid?: string;
}

const data = (name: string) =>
  fs.readFileSync(new URL(`./testdata/${name}`, import.meta.url), "utf8");
const textToSql: Query[] = data("realsql.jsonl").trim().split("\n").map((l) => JSON.parse(l));
const postgresReads: Query[] = data("postgres_reads.sql").split(/^;$/m).flatMap((chunk) => {
  const head = /^-- (\w+) \| (.+)$/m.exec(chunk);
  if (head === null) return [];
  const sql = chunk.slice(head.index + head[0].length).trim();
  return [{ corpus: head[1]!, dialect: "postgres" as const, sql, source: head[2]! }];
});

const dir = tempDir("dbagenteval-real-sql-");
after(() => dir.cleanup());
const SCHEMA = data("realsql_schema.sql");
const database = makeDb(dir.file("realsql.db"), SCHEMA);
// An independent SQLite (node:sqlite's native build) is the oracle.
const oracle = new DatabaseSync(":memory:");
oracle.exec(SCHEMA);
/** node:sqlite's setAuthorizer (Node 24+, Deno, Bun), missing from @types/node 22. */
type AuthorizerCallback = (code: number, a: string | null, b: string | null) => number;
const setAuthorizer = (callback: AuthorizerCallback | null): void =>
  (oracle as unknown as { setAuthorizer(c: AuthorizerCallback | null): void }).setAuthorizer(
    callback,
  );

/** Thousands of queries: more than Bun's default 5 s per test on a busy machine. */
const SLOW = { timeout: 300_000 };

const SYNTAX = /^near ".*": syntax error|^unrecognized token|^incomplete input/;

/** Whether the database's own grammar accepts the query. */
async function grammarAccepts(q: Query): Promise<boolean> {
  if (q.dialect === "postgres") {
    try {
      pgParse(await loadPgQuery(), q.sql);
      return true;
    } catch {
      return false;
    }
  }
  if (q.dialect === "mysql") return q.invalid === undefined;
  try {
    oracle.prepare(q.sql);
    return true;
  } catch (e) {
    return !SYNTAX.test((e as Error).message);
  }
}

function status(r: CheckResult | readonly CheckResult[]): string {
  return (Array.isArray(r) ? r : [r as CheckResult]).map((x) => x.status).join();
}

interface Share {
  readonly valid: number;
  readonly unreadable: string[];
  readonly notReadOnly: string[];
}

/**
 * Runs ReadOnly on every valid query of a set: it must read each (else it
 * fails it as unreadable) and pass it (all are reads), unless the text holds
 * several statements, which ReadOnly refuses by design.
 */
async function measure(queries: readonly Query[]): Promise<Share> {
  let valid = 0;
  const unreadable: string[] = [];
  const notReadOnly: string[] = [];
  for (const q of queries) {
    if (!(await grammarAccepts(q))) continue;
    valid++;
    const r = await new ReadOnly({ dialect: q.dialect }).run(Trace.simple("q", { sql: q.sql }));
    const detail = (r as CheckResult).detail;
    if (/^cannot (parse|read)/.test(detail)) unreadable.push(`${q.source}: ${detail}`);
    else if (status(r) !== "PASS" && !/ statements; ReadOnly wants one$/.test(detail)) {
      notReadOnly.push(`${q.source}: ${detail}`);
    }
  }
  return { valid, unreadable, notReadOnly };
}

const figures: string[] = [];
after(() => console.log(`\nreal SQL, unreadable among valid queries:\n${figures.join("\n")}`));

// [what, dialect, corpus filter, the most unreadable allowed]
const sets: [string, Query["dialect"], (q: Query) => boolean, number][] = [
  ["Spider and BIRD text-to-SQL", "sqlite", () => true, 0.005],
  ["BIRD text-to-SQL", "mysql", () => true, 0.005],
  ["BIRD text-to-SQL and TPC-H", "postgres", (q) => q.corpus !== "pg_regress_style", 0.005],
  [
    "PostgreSQL regression-test style reads",
    "postgres",
    (q) => q.corpus === "pg_regress_style",
    0.02,
  ],
];

describe("real SQL", () => {
  it("the corpus has text-to-SQL queries in each dialect, TPC-H's 22 and regression-style reads", () => {
    for (const d of ["sqlite", "mysql", "postgres"]) {
      assert.ok(textToSql.filter((q) => q.dialect === d).length > 900, d);
    }
    assert.equal(postgresReads.filter((q) => q.corpus === "tpch").length, 22);
    assert.ok(postgresReads.filter((q) => q.corpus === "pg_regress_style").length >= 60);
  });

  it(
    "PostgreSQL's parser accepts every TPC-H and regression-style query (they are valid)",
    SLOW,
    async () => {
      const wasm = await loadPgQuery();
      for (const q of postgresReads) assert.doesNotThrow(() => pgParse(wasm, q.sql), q.source);
    },
  );

  for (const [what, dialect, filter, limit] of sets) {
    it(
      `reads all but ${
        limit * 100
      }% of the valid ${what} queries (${dialect}), and ReadOnly passes each it reads`,
      SLOW,
      async () => {
        const queries = [...textToSql, ...postgresReads].filter((q) =>
          q.dialect === dialect && filter(q)
        );
        const share = await measure(queries);
        const ratio = share.unreadable.length / share.valid;
        figures.push(
          `  ${dialect} ${what}: ${share.unreadable.length} of ${share.valid} ` +
            `(${(ratio * 100).toFixed(2)}%; ${
              queries.length - share.valid
            } not valid SQL left out)`,
        );
        assert.ok(share.valid > 0);
        assert.ok(ratio <= limit, share.unreadable.join("\n"));
        assert.deepEqual(share.notReadOnly, []);
      },
    );
  }
});

/** What the oracle's authorizer reports while compiling a query. */
function authorize(sql: string): { tables: string[]; columns: string[]; reads: boolean } | null {
  const tables = new Set<string>();
  const columns = new Set<string>();
  let reads = true;
  // SQLITE_READ 20, SQLITE_SELECT 21, SQLITE_FUNCTION 31, SQLITE_RECURSIVE 33
  setAuthorizer((code, a, b) => {
    if (code === 20) {
      if (a) tables.add(a);
      if (b) columns.add(b);
    } else if (code !== 21 && code !== 31 && code !== 33) {
      reads = false;
    }
    return 0;
  });
  try {
    oracle.prepare(sql);
  } catch {
    return null;
  } finally {
    setAuthorizer(null);
  }
  return { tables: [...tables], columns: [...columns], reads };
}

describe("SQLite rules with the database known agree with SQLite's authorizer", () => {
  it("on every corpus query both SQLites can compile", SLOW, async () => {
    let compared = 0;
    const disagreements: string[] = [];
    for (const q of textToSql.filter((q) => q.dialect === "sqlite")) {
      const truth = authorize(q.sql);
      const access = await sqliteAccess(database, q.sql);
      // node:sqlite compiles the first statement only; ReadOnly refuses several anyway.
      if (truth === null || !access.ok || access.statements.length !== 1) continue;
      compared++;
      const trace = Trace.simple("q", { sql: q.sql });
      const star = /\*/.test(q.sql) && (await parseSqlModel(q.sql, "sqlite").catch(() => null))
        ?.statements.some((s) => s.columns.some((c) => c.name === "*"));
      const checks: [string, CheckResult | readonly CheckResult[], string][] = [
        ["ReadOnly", await new ReadOnly({ database }).run(trace), truth.reads ? "PASS" : "FAIL"],
        [
          "AllowedTables(its tables)",
          await new AllowedTables(truth.tables, { database }).run(trace),
          "PASS",
        ],
        [
          "AllowedColumns(its columns)",
          await new AllowedColumns(truth.columns, { database }).run(trace),
          star ? "FAIL" : "PASS",
        ],
      ];
      if (truth.tables.length > 0) {
        const fewer = truth.tables.slice(1);
        checks.push([
          "AllowedTables(one fewer)",
          await new AllowedTables(fewer, { database }).run(trace),
          "FAIL",
        ]);
      }
      if (truth.columns.length > 0) {
        const fewer = truth.columns.slice(1);
        checks.push([
          "AllowedColumns(one fewer)",
          await new AllowedColumns(fewer, { database }).run(trace),
          "FAIL",
        ]);
      }
      for (const [name, result, expected] of checks) {
        if (status(result) !== expected) {
          disagreements.push(
            `${q.source}: ${name} gave ${JSON.stringify(result)}, authorizer says ${expected}`,
          );
        }
      }
    }
    figures.push(`  sqlite: the rules agree with SQLite's authorizer on ${compared} queries`);
    assert.ok(compared > 1000, `only ${compared} queries compared`);
    assert.deepEqual(disagreements, []);
  });
});
