/**
 * End to end: the Chinook cases with reference SQL on SQLite, on PGlite and
 * on a PostgreSQL server get the same verdicts, case by case; a database
 * that cannot be reached stops the run before any case (exit 2, one line,
 * no password); a reference query that fails is an ERROR for its case.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";
import { NO_SERVER, POSTGRES_URL } from "./postgres_server.ts";

const dir = tempDir("dbagenteval-postgres-cli-");
after(() => dir.cleanup());

const AGENT = "examples/chinook/agent.ts:agent";
const SLOW = { timeout: 300_000 };
const SQLITE = ["examples/chinook/cases.yaml", "examples/chinook/Chinook_Sqlite.sqlite"] as const;
const PGLITE = "pglite:examples/chinook/Chinook_PostgreSql.sql";

interface RunFile {
  readonly cases: readonly { readonly id: string; readonly verdict: string }[];
}

function verdicts(cases: string, db: string, name: string): Record<string, string> {
  const out = dir.file(`${name}.json`);
  const r = runCli(["run", cases, "--agent", AGENT, "--db", db, "--json", out]);
  assert.equal(r.code, 1, `${name}: ${r.stderr}`); // the example fails some cases on purpose
  const run = JSON.parse(fs.readFileSync(out, "utf8")) as RunFile;
  return Object.fromEntries(run.cases.map((c) => [c.id, c.verdict]));
}

describe("run: the Chinook cases on SQLite, PGlite and a PostgreSQL server", () => {
  const onSqlite = verdicts(SQLITE[0], SQLITE[1], "sqlite");

  it("gives some PASS and some FAIL on SQLite (the agent is wrong on purpose)", () => {
    const kinds = new Set(Object.values(onSqlite));
    assert.ok(kinds.has("PASS") && kinds.has("FAIL"), JSON.stringify(onSqlite));
  });

  // PGlite starts and loads Chinook in 5 to 20 s on a busy machine.
  it("gives the same verdicts, case by case, with the reference SQL on PGlite", SLOW, () => {
    assert.deepEqual(verdicts("examples/chinook/cases_postgres.yaml", PGLITE, "pglite"), onSqlite);
  });

  it(
    "gives the same verdicts, case by case, on a PostgreSQL server",
    { ...SLOW, skip: NO_SERVER },
    () => {
      assert.deepEqual(
        verdicts("examples/chinook/cases_postgres.yaml", POSTGRES_URL!, "server"),
        onSqlite,
      );
    },
  );
});

describe("run --db: a database that cannot be used stops the run before any case", () => {
  const cases: [string, () => string, RegExp][] = [
    [
      "an unreachable server",
      () => "postgres://me:secret@127.0.0.1:1/chinook",
      /^error: Cannot connect to PostgreSQL postgres:\/\/me@127\.0\.0\.1:1\/chinook: connection refused/,
    ],
    [
      "a missing PGlite script",
      () => "pglite:nope.sql",
      /^error: --db pglite:nope\.sql: "nope\.sql" does not exist/,
    ],
  ];
  if (POSTGRES_URL !== undefined) {
    const url = new URL(POSTGRES_URL);
    cases.push(
      [
        "bad credentials",
        () => {
          const u = new URL(url.href);
          u.password = "secret";
          return u.href;
        },
        /authentication failed for user/,
      ],
      [
        "a missing database",
        () => {
          const u = new URL(url.href);
          u.pathname = "/nope";
          return u.href;
        },
        /database "nope" does not exist/,
      ],
    );
  }
  for (const [name, db, message] of cases) {
    it(`exits 2 for ${name}, with one line that hides the password`, () => {
      const r = runCli([
        "run",
        "examples/chinook/cases_postgres.yaml",
        "--agent",
        AGENT,
        "--db",
        db(),
      ]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, "", "no case ran");
      const lines = r.stderr.trim().split("\n");
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0]!, message);
      assert.ok(!r.stderr.includes("secret"), r.stderr);
      if (POSTGRES_URL !== undefined) {
        const password = new URL(POSTGRES_URL).password;
        assert.ok(password === "" || !r.stderr.includes(password), r.stderr);
      }
    });
  }
});

describe("run --db postgres://: a reference query that fails", { skip: NO_SERVER }, () => {
  it("is an ERROR for that case only, naming the database without the password", () => {
    const cases = dir.file("broken.yaml");
    fs.writeFileSync(
      cases,
      [
        "- id: broken",
        "  question: How many genres are there?",
        "  reference_sql: SELECT COUNT(*) FROM nope",
        "- id: fine",
        "  question: How many genres are there?",
        "  reference_sql: SELECT COUNT(*) FROM genre",
      ].join("\n"),
    );
    const out = dir.file("broken.json");
    const r = runCli(["run", cases, "--agent", AGENT, "--db", POSTGRES_URL!, "--json", out]);
    assert.equal(r.code, 1, r.stderr);
    const run = JSON.parse(fs.readFileSync(out, "utf8")) as {
      cases: { id: string; verdict: string; error: string | null }[];
    };
    const [broken, fine] = run.cases;
    assert.equal(broken?.verdict, "ERROR");
    assert.match(broken?.error ?? "", /relation "nope" does not exist \(SQLSTATE 42P01\)/);
    assert.ok(!(broken?.error ?? "").includes(new URL(POSTGRES_URL!).password));
    assert.equal(fine?.verdict, "PASS");
  });
});
