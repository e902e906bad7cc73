import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { snapshotDir, tempDir } from "../../tests/fixtures.ts";
import { NO_SERVER, POSTGRES_URL } from "../../tests/postgres_server.ts";
import { compareRows } from "../compare/rows.ts";
import { pgliteParsers } from "../databases/pg_types.ts";
import { openReferenceDatabase } from "../databases/registry.ts";
import { findCounterexample } from "./search.ts";
import { keepPgEngines } from "./pg_given.ts";
import { CounterexampleCheck } from "./check.ts";
import { defineCase } from "../eval/cases.ts";
import { Trace } from "../eval/trace.ts";

const dir = tempDir();
const SHOP = fs.readFileSync(
  new URL("../../tests/data/shop_postgres.sql", import.meta.url),
  "utf8",
);
const file = dir.file("shop.sql");
fs.writeFileSync(file, SHOP);
const db = `pglite:${file}`;
const before_ = snapshotDir(dir.path);

// One PGlite to replay the scripts in, emptied before each.
let replay: PGlite;
before(async () => {
  // One given database and one sandbox engine for every search of the file.
  await keepPgEngines(true);
  replay = new PGlite();
  await replay.waitReady;
});
after(async () => {
  await keepPgEngines(false);
  await replay?.close();
  dir.cleanup();
});

async function rowsOn(sql: string) {
  const r = await replay.query<unknown[]>(sql, [], {
    rowMode: "array",
    parsers: pgliteParsers(),
  });
  return { columns: r.fields.map((f) => f.name), rows: r.rows };
}

// [name, reference, candidate, ordered]: the same rows on the given database, not on every one.
const nearMisses: [string, string, string, boolean][] = [
  [
    "integer division for a comparison",
    "SELECT id FROM orders WHERE qty / 2 > 1",
    "SELECT id FROM orders WHERE qty > 2",
    false,
  ],
  [
    "LIKE for ILIKE",
    "SELECT id FROM customers WHERE name ILIKE 'a%'",
    "SELECT id FROM customers WHERE name LIKE 'a%'",
    false,
  ],
  [
    "DISTINCT ON the latest for the largest",
    "SELECT DISTINCT ON (customer_id) customer_id, price FROM orders ORDER BY customer_id, placed DESC",
    "SELECT customer_id, max(price) AS price FROM orders GROUP BY customer_id",
    false,
  ],
  [
    "NULLS FIRST for PostgreSQL's NULLS LAST",
    "SELECT id FROM orders ORDER BY note, id LIMIT 2",
    "SELECT id FROM orders ORDER BY note NULLS FIRST, id LIMIT 2",
    true,
  ],
  [
    ">= for > at a HAVING count",
    "SELECT customer_id FROM orders GROUP BY customer_id HAVING count(*) > 1",
    "SELECT customer_id FROM orders GROUP BY customer_id HAVING count(*) >= 1",
    false,
  ],
  [
    "a LIMIT larger than the table",
    "SELECT id FROM orders ORDER BY id",
    "SELECT id FROM orders ORDER BY id LIMIT 6",
    true,
  ],
  [
    "floor() on a numeric with fractions",
    "SELECT id FROM orders WHERE price > 3",
    "SELECT id FROM orders WHERE floor(price) >= 3",
    false,
  ],
  [
    "the last day of a leap February",
    "SELECT id FROM orders WHERE placed < '2024-03-01'",
    "SELECT id FROM orders WHERE placed <= '2024-02-28'",
    false,
  ],
  [
    "a boolean flag for the one customer who has it today",
    "SELECT id FROM customers WHERE vip",
    "SELECT id FROM customers WHERE id = 1",
    false,
  ],
];

// Equivalent under PostgreSQL's types: no database tells them apart.
const equivalents: [string, string, string][] = [
  ["count(1) for count(*)", "SELECT count(*) AS n FROM orders", "SELECT count(1) AS n FROM orders"],
  [
    "BETWEEN for two comparisons",
    "SELECT id FROM orders WHERE qty BETWEEN 2 AND 7",
    "SELECT id FROM orders WHERE qty >= 2 AND qty <= 7",
  ],
  [
    "integer division written as a bound",
    "SELECT id FROM orders WHERE qty / 2 > 1",
    "SELECT id FROM orders WHERE qty >= 4",
  ],
  [
    ">= 3.01 for > 3 on numeric(8, 2)",
    "SELECT id FROM orders WHERE price > 3",
    "SELECT id FROM orders WHERE price >= 3.01",
  ],
  [
    "the day before on a date",
    "SELECT id FROM orders WHERE placed >= '2024-02-01'",
    "SELECT id FROM orders WHERE placed > '2024-01-31'",
  ],
  [
    "> 1 for >= 2 at a HAVING count",
    "SELECT customer_id FROM orders GROUP BY customer_id HAVING count(*) > 1",
    "SELECT customer_id FROM orders GROUP BY customer_id HAVING count(*) >= 2",
  ],
  [
    "GROUP BY for DISTINCT",
    "SELECT DISTINCT customer_id FROM orders",
    "SELECT customer_id FROM orders GROUP BY customer_id",
  ],
];

describe("findCounterexample() on PostgreSQL (PGlite)", () => {
  for (const [name, reference, candidate, ordered] of nearMisses) {
    it(`refutes ${name}, with a script psql replays`, async () => {
      const r = await findCounterexample({ db, reference, candidate, ordered });
      assert.equal(r.found, true, `${name}: tried ${r.tried}`);
      assert.ok(r.strategy !== undefined && r.strategy !== "");
      assert.doesNotMatch(r.databaseSql!, /PRAGMA/);
      assert.match(r.databaseSql!, /^CREATE TABLE "customers" \(/m);
      if (/^CREATE TABLE "orders"/m.test(r.databaseSql!)) {
        assert.match(r.databaseSql!, /CHECK \(\(qty >= 0\)\)/);
        assert.match(r.databaseSql!, /FOREIGN KEY \(customer_id\) REFERENCES customers\(id\)/);
      }
      await replay.exec("DROP SCHEMA public CASCADE; CREATE SCHEMA public;");
      await replay.exec(r.databaseSql!);
      const ref = await rowsOn(reference);
      const cand = await rowsOn(candidate);
      assert.equal(compareRows(cand, ref, { ordered }), false, r.databaseSql);
      assert.equal(compareRows(r.referenceRows!, ref, { ordered }), true);
      assert.equal(compareRows(r.candidateRows!, cand, { ordered }), true);
    });
  }

  for (const [name, reference, candidate] of equivalents) {
    it(`makes no claim for ${name}`, async () => {
      const r = await findCounterexample({ db, reference, candidate, budget: 80 });
      assert.equal(r.found, false, r.databaseSql);
      assert.ok(r.tried > 1);
    });
  }

  it("tries the given rows first, duplicates kept", async () => {
    const r = await findCounterexample({
      db,
      reference: "SELECT count(*) AS n FROM orders WHERE placed > '2024-01-31'",
      candidate: "SELECT count(*) AS n FROM orders WHERE placed > '2024-02-01'",
    });
    assert.equal(r.found, true);
    assert.equal(r.strategy, "given");
  });

  const refused: [string, string, RegExp][] = [
    ["a write", "DELETE FROM orders", /--reference: the query writes to the database/],
    ["an unknown table", "SELECT * FROM nope", /--reference: .*relation "nope" does not exist/],
    ["an empty query", "  ", /--reference: the query is empty/],
  ];
  for (const [name, sql, message] of refused) {
    it(`refuses ${name} in one line`, async () => {
      await assert.rejects(
        findCounterexample({ db, reference: sql, candidate: "SELECT 1" }),
        (e) => {
          assert.match((e as Error).message, message);
          assert.ok(!(e as Error).message.includes("\n"));
          return true;
        },
      );
    });
  }

  it("fails a case of the harness (run --counterexamples) right only on this data", async () => {
    const check = new CounterexampleCheck({ db });
    const reference = "SELECT id FROM customers WHERE name ILIKE 'a%'";
    const sql = "SELECT id FROM customers WHERE name LIKE 'a%'";
    const testCase = defineCase({ question: "Customers named A...?", reference_sql: reference });
    const trace = Trace.simple("Customers named A...?", { sql, rows: [{ id: 1 }] });
    const [finding] = await check.run(trace, testCase, { referenceRows: [{ id: 1 }] });
    assert.equal(finding?.status, "FAIL", finding?.detail);
    assert.match(finding!.counterexample!.database_sql, /^CREATE TABLE "customers"/);
  });

  it("stops with one line when PGlite cannot rebuild the schema (a domain)", async () => {
    const other = tempDir();
    after(() => other.cleanup());
    const domain = other.file("domain.sql");
    fs.writeFileSync(
      domain,
      `CREATE DOMAIN positive AS integer CHECK (VALUE > 0);
       CREATE TABLE t (id integer PRIMARY KEY, n positive);
       INSERT INTO t VALUES (1, 5);`,
    );
    await assert.rejects(
      findCounterexample({
        db: `pglite:${domain}`,
        reference: "SELECT id FROM t WHERE n > 1",
        candidate: "SELECT id FROM t WHERE n >= 1",
      }),
      (e) => {
        assert.match(
          (e as Error).message,
          /^the schema cannot be rebuilt in PGlite, where the search tries its databases: type "positive" does not exist/,
        );
        assert.ok(!(e as Error).message.includes("\n"));
        return true;
      },
    );
  });

  it("stops with one line when a query does not end on the databases it builds", {
    timeout: 120_000,
  }, async () => {
    const started = performance.now();
    await assert.rejects(
      findCounterexample({
        db,
        reference: "SELECT count(*) AS n FROM customers",
        candidate: "SELECT count(*) AS n FROM customers WHERE pg_sleep(30) IS NOT NULL",
        timeLimit: 1,
      }),
      (e) => {
        assert.match(
          (e as Error).message,
          // Under Bun, PGlite's host grows while pg_sleep waits (Bun collects
          // its garbage later than Deno) and its memory cap may stop the
          // statement before its deadline: one clear line either way.
          typeof (globalThis as { Bun?: unknown }).Bun === "undefined"
            ? /^the queries did not run to the end on a database of a few rows the search built \(the statement did not finish within 3 s\); the search stopped$/
            : /^the queries did not run to the end on a database of a few rows the search built \(the statement (did not finish within 3 s|used more than 384 MB of memory)\); the search stopped$/,
        );
        return true;
      },
    );
    assert.ok(performance.now() - started < 60_000);
    // The given database, whose engine shared the killed process, answers the next search.
    const next = await findCounterexample({
      db,
      reference: "SELECT id FROM customers WHERE id > 1",
      candidate: "SELECT id FROM customers WHERE id >= 1",
    });
    assert.equal(next.found, true);
  });

  it("never touches the given file", () => {
    assert.deepEqual(snapshotDir(dir.path), before_);
  });
});

describe("findCounterexample() on a PostgreSQL server", { skip: NO_SERVER }, () => {
  it("refutes a near miss on the server's Chinook and changes nothing there", async () => {
    // Rows written (even rolled back) and schemas made, as the server counts them.
    const server = await openReferenceDatabase(POSTGRES_URL!);
    const footprint = async () =>
      JSON.stringify(
        [
          ...await server.execute(
            `SELECT (SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::text
               FROM pg_stat_user_tables) AS writes,
             (SELECT count(*)::int FROM pg_namespace) AS schemas`,
          ),
        ],
      );
    const before = await footprint();
    const r = await findCounterexample({
      db: POSTGRES_URL!,
      reference: "SELECT count(*) AS n FROM track WHERE milliseconds > 300000",
      candidate: "SELECT count(*) AS n FROM track WHERE milliseconds >= 300000",
    });
    assert.equal(r.found, true);
    assert.match(r.databaseSql!, /^CREATE TABLE "track" \(/m);
    const same = await findCounterexample({
      db: POSTGRES_URL!,
      reference: "SELECT count(*) AS n FROM genre",
      candidate: "SELECT count(1) AS n FROM genre",
      budget: 50,
    });
    assert.equal(same.found, false);
    try {
      assert.equal(await footprint(), before);
    } finally {
      await server.close();
    }
  });
});
