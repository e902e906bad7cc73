import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { makeDb, snapshotDir, tempDir } from "../../tests/fixtures.ts";
import { openMemoryDatabase } from "../sqlite/database.ts";
import { compareRows } from "../compare/rows.ts";
import { findCounterexample } from "./search.ts";
import { needs } from "../../tests/system_packages.ts";

const dir = tempDir();
after(() => dir.cleanup());

const SHOP = `
CREATE TABLE customers (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  tenant TEXT NOT NULL,
  email TEXT UNIQUE
);
CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers(id),
  status TEXT NOT NULL CHECK (status IN ('new', 'paid', 'shipped')),
  amount INTEGER NOT NULL CHECK (amount >= 0),
  note TEXT
);
INSERT INTO customers VALUES (1, 'Ann', 'acme', 'ann@x'), (2, 'Bob', 'acme', 'bob@x'), (3, 'Cy', 'acme', NULL);
INSERT INTO orders VALUES (1, 1, 'paid', 10, 'a'), (2, 1, 'paid', 30, NULL), (3, 2, 'new', 45, 'b'), (4, 2, 'paid', 60, 'c');
`;
const db = makeDb(dir.file("shop.db"), SHOP);

// [name, reference, candidate, a difference exists]
const cases: [string, string, string, boolean][] = [
  [
    ">= for >",
    "SELECT id FROM orders WHERE amount > 30",
    "SELECT id FROM orders WHERE amount >= 30",
    true,
  ],
  [
    "a filter whose value is the same in every row today",
    "SELECT count(*) AS n FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.tenant = 'acme'",
    "SELECT count(*) AS n FROM orders",
    true,
  ],
  [
    "a dropped DISTINCT",
    "SELECT DISTINCT status FROM orders WHERE amount < 50",
    "SELECT status FROM orders WHERE amount < 50 AND status = 'new' OR amount < 20",
    true,
  ],
  [
    "INNER where LEFT was needed",
    "SELECT c.name, count(o.id) AS n FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE c.id < 3 GROUP BY c.name",
    "SELECT c.name, count(o.id) AS n FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name",
    true,
  ],
  [
    "NULL in a nullable column",
    "SELECT count(note) AS n FROM orders WHERE id <> 2",
    "SELECT count(*) AS n FROM orders WHERE note IS NOT NULL OR id = 3",
    true,
  ],
  [
    "BETWEEN and two comparisons",
    "SELECT id FROM orders WHERE amount BETWEEN 10 AND 45",
    "SELECT id FROM orders WHERE amount >= 10 AND amount <= 45",
    false,
  ],
  [
    "IN and OR",
    "SELECT id FROM orders WHERE status IN ('new', 'shipped')",
    "SELECT id FROM orders WHERE status = 'new' OR status = 'shipped'",
    false,
  ],
  [
    "COUNT(*) and COUNT(1)",
    "SELECT count(*) AS n FROM orders",
    "SELECT count(1) AS n FROM orders",
    false,
  ],
  [
    "DISTINCT and GROUP BY",
    "SELECT DISTINCT customer_id FROM orders",
    "SELECT customer_id FROM orders GROUP BY customer_id",
    false,
  ],
];

describe("findCounterexample()", () => {
  for (const [name, reference, candidate, expected] of cases) {
    it(`${expected ? "finds" : "finds no"} counterexample for ${name}`, async () => {
      const before = snapshotDir(dir.path);
      const r = await findCounterexample({ db, reference, candidate, budget: 400 });
      assert.deepEqual(snapshotDir(dir.path), before, "the input database changed");
      assert.equal(r.found, expected, JSON.stringify(r));
      if (!r.found) return;
      // The script rebuilds the database from nothing, constraints on, and
      // both queries still differ on it.
      const fresh = await openMemoryDatabase();
      try {
        fresh.exec(r.databaseSql!);
        assert.deepEqual(fresh.query("PRAGMA foreign_key_check"), []);
        const ref = fresh.query(reference);
        const cand = fresh.query(candidate);
        assert.equal(compareRows(cand, ref), false);
        assert.equal(compareRows(ref, r.referenceRows!), true);
        assert.equal(compareRows(cand, r.candidateRows!), true);
      } finally {
        fresh.close();
      }
    });
  }

  it("gives the same result for the same seed", async () => {
    const options = {
      db,
      reference: cases[0]![1],
      candidate: cases[0]![2],
      seed: 7,
    };
    const a = await findCounterexample(options);
    const b = await findCounterexample(options);
    assert.equal(a.databaseSql, b.databaseSql);
    assert.equal(a.tried, b.tried);
  });

  it("shrinks what it shows to a handful of rows", async () => {
    const r = await findCounterexample({ db, reference: cases[0]![1], candidate: cases[0]![2] });
    const inserts = r.databaseSql!.split("\n").filter((l) => l.startsWith("INSERT"));
    assert.ok(inserts.length <= 3, r.databaseSql);
  });

  it("writes a script the sqlite3 shell runs to the same difference", {
    skip: needs("sqlite3"),
  }, async () => {
    const [, reference, candidate] = cases[1]!;
    const r = await findCounterexample({ db, reference, candidate });
    const shell = (sql: string): string =>
      spawnSync("sqlite3", ["-json", ":memory:"], {
        input: `${r.databaseSql}\n${sql};\n`,
        encoding: "utf8",
      })
        .stdout;
    const ref = JSON.parse(shell(reference) || "[]");
    const cand = JSON.parse(shell(candidate) || "[]");
    assert.equal(compareRows(cand, ref), false, `${JSON.stringify(ref)} ${JSON.stringify(cand)}`);
  });

  it("reads through a view into a WITHOUT ROWID table with a deferred foreign key", async () => {
    const file = makeDb(
      dir.file("views.db"),
      `CREATE TABLE region (code TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;
       CREATE TABLE shop (id INTEGER PRIMARY KEY,
         region TEXT NOT NULL REFERENCES region (code) DEFERRABLE INITIALLY DEFERRED,
         size INTEGER CHECK (size > 0));
       CREATE VIEW big_shops AS SELECT s.id, r.name FROM shop s JOIN region r ON r.code = s.region
         WHERE s.size >= 100;
       INSERT INTO region VALUES ('N', 'North'), ('S', 'South');
       INSERT INTO shop VALUES (1, 'N', 50), (2, 'S', 150), (3, 'S', 300);`,
    );
    const reference = "SELECT count(*) AS n FROM big_shops";
    const r = await findCounterexample({
      db: file,
      reference,
      candidate: "SELECT count(*) AS n FROM shop WHERE size > 100",
    });
    assert.equal(r.found, true);
    assert.match(r.databaseSql!, /\nCREATE VIEW big_shops AS /);
    const fresh = await openMemoryDatabase();
    try {
      fresh.exec(r.databaseSql!);
      assert.deepEqual(fresh.query("PRAGMA foreign_key_check"), []);
      assert.deepEqual(fresh.query("SELECT count(*) > 0 AS yes FROM shop WHERE size = 100"), [{
        yes: 1,
      }]);
    } finally {
      fresh.close();
    }
    const same = await findCounterexample({
      db: file,
      reference,
      candidate:
        "SELECT count(*) AS n FROM shop s JOIN region r ON s.region = r.code WHERE 100 <= s.size",
    });
    assert.equal(same.found, false);
  });

  it("refuses a PostgreSQL --db that cannot be opened with a line that says so", async () => {
    const cases: [string, RegExp][] = [
      ["pglite:no-such.sql", /^--db pglite:no-such\.sql: "no-such\.sql" does not exist/],
      // A port nothing listens on: refused at once, no server needed.
      ["postgres://me:secret@127.0.0.1:1/db", /^Cannot connect to PostgreSQL postgres:\/\/me@/],
    ];
    for (const [value, message] of cases) {
      await assert.rejects(
        findCounterexample({ db: value, reference: "SELECT 1", candidate: "SELECT 2" }),
        (e: Error) => message.test(e.message) && !e.message.includes("secret"),
      );
    }
  });

  it("searches a schema with a foreign key SQLite cannot enforce, foreign keys off", async () => {
    // Spider's voter_1: VOTES.state refers to AREA_CODE_STATE.state, which is
    // not unique, so every INSERT into VOTES fails while foreign keys are on.
    const file = makeDb(
      dir.file("voter.db"),
      `CREATE TABLE AREA_CODE_STATE (area_code INTEGER NOT NULL PRIMARY KEY, state VARCHAR(2) NOT NULL);
       CREATE TABLE VOTES (vote_id INTEGER NOT NULL PRIMARY KEY, state VARCHAR(2) NOT NULL,
         FOREIGN KEY (state) REFERENCES AREA_CODE_STATE (state));
       INSERT INTO AREA_CODE_STATE VALUES (201, 'NJ');`,
    );
    const r = await findCounterexample({
      db: file,
      reference: "SELECT count(*) AS n FROM VOTES WHERE vote_id > 10",
      candidate: "SELECT count(*) AS n FROM VOTES WHERE vote_id >= 10",
    });
    assert.equal(r.found, true);
    assert.match(
      r.databaseSql!,
      /^-- foreign keys off: VOTES\(state\) -> AREA_CODE_STATE\(state\) refers to neither .*\nPRAGMA foreign_keys = OFF;/,
    );
    const check = await openMemoryDatabase();
    try {
      check.exec(r.databaseSql!);
      const n = (sql: string) => Number(check.query(sql)[0]!["n"]);
      assert.notEqual(
        n("SELECT count(*) AS n FROM VOTES WHERE vote_id > 10"),
        n("SELECT count(*) AS n FROM VOTES WHERE vote_id >= 10"),
      );
    } finally {
      check.close();
    }
  });

  const bad: [string, string, RegExp][] = [
    ["a write", "DELETE FROM orders", /writes to the database/],
    ["an unknown table", "SELECT * FROM nope", /no such table: nope/],
    ["an empty query", "  ", /the query is empty/],
  ];
  for (const [name, sql, message] of bad) {
    it(`refuses ${name}`, async () => {
      await assert.rejects(
        findCounterexample({ db, reference: sql, candidate: "SELECT 1" }),
        message,
      );
    });
  }
});
