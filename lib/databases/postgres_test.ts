import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { NO_SERVER, POSTGRES_URL } from "../../tests/postgres_server.ts";
import { compareRows } from "../compare/rows.ts";
import { UsageError } from "../errors.ts";
import type { ReferenceDatabase } from "./database.ts";
import { openPostgresDatabase } from "./postgres.ts";
import { valueCases } from "./_value_cases_test_util.ts";

describe("openPostgresDatabase() on a server", { skip: NO_SERVER }, () => {
  let db: ReferenceDatabase;
  before(async () => {
    db = await openPostgresDatabase(POSTGRES_URL!, { statementTimeoutMs: 500 });
  });
  after(() => db?.close());

  it("names the database without its password", () => {
    assert.ok(db.name.startsWith("postgres://"));
    assert.ok(!db.name.includes(new URL(POSTGRES_URL!).password || "\u0000"), db.name);
    assert.equal(db.dialect, "postgres");
  });

  for (const [name, sql, agentRows, equal] of valueCases) {
    it(`compares ${name}`, async () => {
      const rows = await db.execute(sql);
      assert.equal(
        compareRows(agentRows, rows),
        equal,
        JSON.stringify(rows, (_k, v) => typeof v === "bigint" ? `${v}n` : v),
      );
    });
  }

  it("keeps two columns of the same name, with their column list", async () => {
    const rows = await db.execute("SELECT 'Rock' AS name, 'AC/DC' AS name");
    assert.deepEqual([...rows], [{ name: "Rock", "name (2)": "AC/DC" }]);
    assert.deepEqual(rows.columns, ["name", "name"]);
  });

  const refused: [string, string, RegExp][] = [
    [
      "a write",
      "DELETE FROM genre",
      /cannot execute DELETE in a read-only transaction \(SQLSTATE 25006\)/,
    ],
    [
      "a COMMIT followed by a write",
      "SELECT 1; COMMIT; DELETE FROM genre",
      /cannot insert multiple commands/,
    ],
    [
      "a statement past the statement timeout",
      "SELECT pg_sleep(5)",
      /statement timeout \(SQLSTATE 57014\)/,
    ],
    ["an unknown table", "SELECT * FROM nope", /relation "nope" does not exist \(SQLSTATE 42P01\)/],
  ];
  for (const [name, sql, message] of refused) {
    it(`refuses ${name} with one line naming the database, and changes nothing`, async () => {
      await assert.rejects(db.execute(sql), (e: Error) => {
        assert.match(e.message, message);
        assert.ok(e.message.startsWith(`${db.name}: `), e.message);
        assert.ok(!e.message.includes("\n"));
        return true;
      });
      assert.deepEqual([...await db.execute("SELECT count(*) AS n FROM genre")], [{ n: 25n }]);
    });
  }
});

describe("openPostgresDatabase() refuses what it cannot reach", () => {
  // A port nothing listens on: the kernel refuses at once, no server needed.
  const cases: [string, () => string, RegExp][] = [
    [
      "an unreachable server",
      () => "postgres://me:secret@127.0.0.1:1/db",
      /^Cannot connect to PostgreSQL postgres:\/\/me@127\.0\.0\.1:1\/db: connection refused; is the server running and listening on 127\.0\.0\.1:1\?$/,
    ],
  ];
  if (POSTGRES_URL !== undefined) {
    cases.push(
      [
        "a wrong password",
        () => {
          const u = new URL(POSTGRES_URL!);
          u.password = "wrong-secret";
          return u.href;
        },
        /^Cannot connect to PostgreSQL postgres:\/\/\S+: authentication failed for user "\S+"; check the user name and password/,
      ],
      [
        "a missing database",
        () => {
          const u = new URL(POSTGRES_URL!);
          u.pathname = "/no_such_db";
          return u.href;
        },
        /^Cannot connect to PostgreSQL postgres:\/\/\S+\/no_such_db: database "no_such_db" does not exist/,
      ],
    );
  }
  for (const [name, url, message] of cases) {
    it(`refuses ${name} with a UsageError that hides the password`, async () => {
      await assert.rejects(openPostgresDatabase(url()), (e: unknown) => {
        assert.ok(e instanceof UsageError);
        assert.match(e.message, message);
        assert.ok(!e.message.includes("secret"), e.message);
        return true;
      });
    });
  }
});

describe("openPostgresDatabase() URL forms", { skip: NO_SERVER }, () => {
  const url = new URL(POSTGRES_URL ?? "postgres://x@localhost/x");
  const forms: [string, string, Record<string, string>][] = [
    ["a postgresql:// URL", POSTGRES_URL?.replace(/^postgres:/, "postgresql:") ?? "", {}],
    [
      "a URL that leaves everything but the database to PGHOST, PGPORT, PGUSER and PGPASSWORD",
      `postgres:///${url.pathname.slice(1)}`,
      {
        PGHOST: url.hostname,
        PGPORT: url.port,
        PGUSER: decodeURIComponent(url.username),
        PGPASSWORD: decodeURIComponent(url.password),
      },
    ],
  ];
  for (const [name, value, env] of forms) {
    it(`connects with ${name}, named without the password`, async () => {
      const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
      Object.assign(process.env, env);
      try {
        const db = await openPostgresDatabase(value);
        try {
          assert.deepEqual([...await db.execute("SELECT count(*) AS n FROM genre")], [{ n: 25n }]);
          assert.equal(
            db.name,
            `postgres://${
              decodeURIComponent(url.username)
            }@${url.hostname}:${url.port}${url.pathname}`,
          );
        } finally {
          await db.close();
        }
      } finally {
        for (const [k, v] of Object.entries(saved)) {
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
        }
      }
    });
  }
});
