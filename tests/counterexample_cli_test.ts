import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, snapshotDir, tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";

const dir = tempDir();
after(() => dir.cleanup());
const db = makeDb(
  dir.file("shop.db"),
  `CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT NOT NULL, amount INTEGER NOT NULL);
   INSERT INTO orders VALUES (1, 'paid', 10), (2, 'paid', 40), (3, 'new', 45);`,
);

describe("dbagenteval counterexample", () => {
  it("exits 1 and prints the database, both results and how it differs when the queries differ", () => {
    const before = snapshotDir(dir.path);
    const r = runCli([
      "counterexample",
      "--db",
      db,
      "--reference",
      "SELECT id FROM orders WHERE amount > 20",
      "--candidate",
      "SELECT id FROM orders WHERE amount >= 20",
    ]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stdout,
      /^the queries differ on this database \(found by (boundary|witness|mutated_subset|invented|joined|sized|real_subset) after \d+ databases/,
    );
    assert.match(r.stdout, /CREATE TABLE orders \(id INTEGER PRIMARY KEY/);
    assert.match(
      r.stdout,
      /INSERT INTO "orders" \("id", "status", "amount"\) VALUES \(\d+, '[^']*', 20\);/,
    );
    assert.match(r.stdout, /reference rows \(0 row\(s\)\)/);
    assert.match(r.stdout, /candidate rows \(1 row\(s\)\)/);
    assert.match(r.stdout, /how it differs from .*shop\.db:\n {2}orders: 1 row\(s\)/);
    assert.deepEqual(snapshotDir(dir.path), before);
  });

  it("counts one database tried as one database, not databases", () => {
    // The given rows already tell these apart: the first database tried.
    const found = runCli([
      "counterexample",
      "--db",
      db,
      "--reference",
      "SELECT id FROM orders WHERE amount > 20",
      "--candidate",
      "SELECT id FROM orders WHERE amount > 40",
    ]);
    assert.equal(found.code, 1, found.stderr);
    assert.match(
      found.stdout,
      /^the queries differ on this database \(found by given after 1 database,/,
    );
    const none = runCli([
      "counterexample",
      "--db",
      db,
      "--reference",
      "SELECT count(*) FROM orders",
      "--candidate",
      "SELECT count(1) FROM orders",
      "--budget",
      "1",
    ]);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /^no difference found in 1 database \(seed 1,/);
  });

  it("searches a PostgreSQL database (PGlite) and prints a script psql replays", () => {
    const sql = dir.file("shop.sql");
    fs.writeFileSync(
      sql,
      `CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, amount integer NOT NULL);
       INSERT INTO orders VALUES (1, 'paid', 10), (2, 'paid', 40), (3, 'new', 45);`,
    );
    const before = snapshotDir(dir.path);
    const r = runCli([
      "counterexample",
      "--db",
      `pglite:${sql}`,
      "--reference",
      "SELECT id FROM orders WHERE amount / 20 > 1",
      "--candidate",
      "SELECT id FROM orders WHERE amount * 1.0 / 20 > 1",
    ]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stdout,
      /^the queries differ on this database \(found by \w+ after \d+ databases/,
    );
    assert.match(r.stdout, /CREATE TABLE "orders" \(\n {2}"id" integer NOT NULL,/);
    assert.match(r.stdout, /how it differs from pglite:.*shop\.sql:\n {2}orders: \d row\(s\)/);
    assert.deepEqual(snapshotDir(dir.path), before);
  });

  it("exits 0 and says it is evidence, not proof, when none is found", () => {
    const r = runCli([
      "counterexample",
      "--db",
      db,
      "--reference",
      "SELECT count(*) AS n FROM orders",
      "--candidate",
      "SELECT count(1) AS n FROM orders",
      "--budget",
      "50",
      "--seed",
      "3",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^no difference found in 50 databases \(seed 3, [\d.]+ s\); evidence, not proof/,
    );
  });

  it("prints the JSON alone with --json -", () => {
    const r = runCli([
      "counterexample",
      "--db",
      db,
      "--reference",
      "SELECT DISTINCT status FROM orders",
      "--candidate",
      "SELECT status FROM orders WHERE id <> 2",
      "--json",
      "-",
    ]);
    assert.equal(r.code, 1, r.stderr);
    const json = JSON.parse(r.stdout);
    for (
      const key of [
        "found",
        "database_sql",
        "reference_rows",
        "candidate_rows",
        "tried",
        "seed",
        "seconds",
      ]
    ) {
      assert.ok(key in json, key);
    }
    assert.equal(json.found, true);
    assert.ok(Array.isArray(json.reference_rows) && typeof json.reference_rows[0] === "object");
    assert.match(json.database_sql, /^PRAGMA foreign_keys = ON;\nCREATE TABLE orders/);
  });

  it("writes the JSON to a file with --json FILE and prints the text", () => {
    const out = dir.file("ce.json");
    const r = runCli([
      "counterexample",
      "--db",
      db,
      "--reference",
      "SELECT count(*) AS n FROM orders",
      "--candidate",
      "SELECT count(1) AS n FROM orders",
      "--budget",
      "20",
      "--json",
      out,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^no difference found in 20 databases/);
    const json = JSON.parse(fs.readFileSync(out, "utf8"));
    assert.deepEqual([json.found, json.tried, json.seed], [false, 20, 1]);
  });

  it("compares row order only with --ordered", () => {
    const args = [
      "counterexample",
      "--db",
      db,
      "--reference",
      "SELECT id FROM orders ORDER BY id",
      "--candidate",
      "SELECT id FROM orders ORDER BY id DESC",
      "--budget",
      "50",
    ];
    assert.equal(runCli(args).code, 0);
    const ordered = runCli([...args, "--ordered"]);
    assert.equal(ordered.code, 1, ordered.stderr);
  });

  it("run --counterexamples fails the Chinook case right only by coincidence at generate", () => {
    const r = runCli([
      "run",
      "examples/chinook/cases.yaml",
      "--agent",
      "examples/chinook/agent.ts:agent",
      "--db",
      "examples/chinook/Chinook_Sqlite.sqlite",
      "--tags",
      "customers",
      "--counterexamples",
    ]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stdout,
      /FAIL {2}customers-in-india\n {6}generate \/ counterexample: right only on this data/,
    );
    assert.match(r.stdout, /PASS {2}my-customers\n/);
    // No --json, --md or --html to keep the database's script: it is printed.
    assert.match(
      r.stdout,
      /; the script that builds it is kept by --json \(counterexample\.database_sql\), --md and --html\n/,
    );
    assert.match(
      r.stdout,
      /\ncounterexample databases \(--json, --md or --html keeps them\):\n-- customers-in-india\n(CREATE TABLE|PRAGMA)/,
    );
  });

  it("run --counterexamples without --db is a usage error", () => {
    const r = runCli([
      "run",
      "examples/chinook/cases.yaml",
      "--agent",
      "examples/chinook/agent.ts:agent",
      "--execute",
      "examples/chinook/agent.ts:agent",
      "--counterexamples",
    ]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /--counterexamples searches the database the reference SQL runs on: pass --db/,
    );
  });

  const bad: [string, string[], RegExp][] = [
    [
      "a query that writes",
      ["--reference", "DELETE FROM orders", "--candidate", "SELECT 1"],
      /writes to the database/,
    ],
    [
      "a query that fails",
      ["--reference", "SELECT nope FROM orders", "--candidate", "SELECT 1"],
      /no such column: nope/,
    ],
    [
      "a bad budget",
      ["--reference", "SELECT 1", "--candidate", "SELECT 1", "--budget", "0"],
      /at least 1/,
    ],
    [
      "a missing file",
      ["--reference", "SELECT 1", "--candidate", "SELECT 1", "--db", "missing.db"],
      /missing\.db/,
    ],
  ];
  for (const [name, args, message] of bad) {
    it(`exits 2 with one line for ${name}`, () => {
      const r = runCli(["counterexample", "--db", db, ...args]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    });
  }
});
