import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { NO_SERVER, POSTGRES_SUPERUSER_URL, POSTGRES_URL } from "../../tests/postgres_server.ts";
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

describe("openPostgresDatabase(): a login that could touch the server's machine", {
  skip: NO_SERVER,
}, () => {
  it("refuses the superuser with one line naming it and the flag that allows it", async () => {
    await assert.rejects(openPostgresDatabase(POSTGRES_SUPERUSER_URL!), (e: unknown) => {
      assert.ok(e instanceof UsageError);
      assert.match(
        e.message,
        /^Refusing PostgreSQL postgres:\/\/\S+: the user "\S+" is a superuser, so the SQL run there .* could read and write files and run programs on the database server; .* pass --allow-superuser to allow it$/,
      );
      assert.ok(!e.message.includes(new URL(POSTGRES_SUPERUSER_URL!).password), e.message);
      return true;
    });
  });

  it("opens the superuser when allowSuperuser says so", async () => {
    const db = await openPostgresDatabase(POSTGRES_SUPERUSER_URL!, {
      allowSuperuser: true,
    });
    try {
      assert.deepEqual([...await db.execute("SELECT count(*) AS n FROM genre")], [{ n: 25n }]);
    } finally {
      await db.close();
    }
  });

  it("opens a plain role, whose COPY to a file or a program the server refuses", async () => {
    const db = await openPostgresDatabase(POSTGRES_URL!);
    try {
      for (
        const sql of [
          "COPY (SELECT 1) TO '/tmp/dbagenteval-must-not-exist'",
          "COPY (SELECT 1) TO PROGRAM 'true'",
          "DO $$ BEGIN EXECUTE 'COPY (SELECT 1) TO PROGRAM ''true'''; END $$",
          "SELECT pg_read_file('/etc/hostname')",
        ]
      ) {
        await assert.rejects(db.execute(sql), /permission denied|must be superuser/, sql);
      }
    } finally {
      await db.close();
    }
  });
});

describe("openPostgresDatabase(): no statement's session state reaches the next", {
  skip: NO_SERVER,
}, () => {
  let db: ReferenceDatabase;
  // One connection, so every statement runs on the session the one before used.
  before(async () => {
    db = await openPostgresDatabase(POSTGRES_URL!, { statementTimeoutMs: 500, connections: 1 });
  });
  after(() => db?.close());

  const one = async (sql: string): Promise<unknown> => (await db.execute(sql))[0];
  const cases: [string, string, string, unknown][] = [
    [
      "a prepared statement",
      "PREPARE p AS SELECT 1",
      "SELECT count(*)::int AS n FROM pg_prepared_statements",
      { n: 0 },
    ],
    [
      "an advisory lock",
      "SELECT pg_advisory_lock(7)",
      "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'",
      { n: 0 },
    ],
    [
      "a setting made with set_config(..., false)",
      "SELECT set_config('search_path', 'nowhere', false)",
      "SELECT current_setting('search_path') AS s",
      { s: '"$user", public' },
    ],
    [
      "a COMMIT that ends the read-only transaction early",
      "COMMIT",
      "SELECT current_setting('transaction_read_only') AS s",
      { s: "on" },
    ],
    [
      "the statement timeout, changed inside a DO block",
      "DO $$ BEGIN PERFORM set_config('statement_timeout', '0', false); END $$",
      "SELECT current_setting('statement_timeout') AS s",
      { s: "500ms" },
    ],
  ];
  for (const [name, first, check, expected] of cases) {
    it(`undoes ${name}`, async () => {
      await db.execute(first).catch(() => {});
      assert.deepEqual(await one(check), expected);
    });
  }

  it("gives a statement that ends its own connection one line, and the next one a new connection", async () => {
    await assert.rejects(
      db.execute("SELECT pg_terminate_backend(pg_backend_pid())"),
      (e: Error) => {
        assert.match(e.message, /connection .*(lost|closed).*the next statement opens a new one/);
        assert.ok(!e.message.includes("\n"), e.message);
        return true;
      },
    );
    assert.deepEqual(await one("SELECT count(*) AS n FROM genre"), { n: 25n });
  });

  it("runs again a statement whose session another statement ended or cancelled", async () => {
    const two = await openPostgresDatabase(POSTGRES_URL!, { connections: 2 });
    try {
      for (const [stop, n] of [["pg_cancel_backend", 7], ["pg_terminate_backend", 8]] as const) {
        const sql = `SELECT pg_sleep(0.3), ${n} AS n`;
        const waiting = two.execute(sql);
        // Give it the time to be running, then stop its session from the other one.
        await new Promise((r) => setTimeout(r, 100));
        await two.execute(
          `SELECT count(${stop}(pid)) FROM pg_stat_activity WHERE query = '${sql}'`,
        );
        assert.deepEqual((await waiting).map((r) => r["n"]), [n]);
      }
    } finally {
      await two.close();
    }
  });

  it("outlives statements that end its other sessions, again and again", async () => {
    // postgres.js's own query at a connection's start (the array types),
    // killed this way, ended the process with its unhandled rejection (the
    // hostile-SQL matrix caught it, now and then); no session runs it now.
    const three = await openPostgresDatabase(POSTGRES_URL!, { connections: 3 });
    try {
      for (let round = 0; round < 5; round++) {
        const sql = `SELECT ${round} AS n`;
        const [, a, b] = await Promise.all([
          three.execute(
            `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'dbagenteval' AND usename = current_user AND pid <> pg_backend_pid() AND query <> '${sql}'`,
          ),
          three.execute(sql).catch((e: Error) => e.message),
          three.execute(sql).catch((e: Error) => e.message),
        ]);
        for (const got of [a, b]) {
          assert.ok(typeof got === "string" || got[0]?.["n"] === round, String(got));
        }
      }
      assert.deepEqual([...await three.execute("SELECT ARRAY[1, 2] AS a")], [{ a: [1, 2] }]);
    } finally {
      await three.close();
    }
  });

  it("refuses COPY ... TO STDOUT with one line, and goes on", async () => {
    await assert.rejects(db.execute("COPY genre TO STDOUT"), /COPY \.\.\. TO STDOUT sends no rows/);
    assert.deepEqual(await one("SELECT count(*) AS n FROM genre"), { n: 25n });
  });

  it("stops a runaway at the statement timeout", async () => {
    await assert.rejects(
      db.execute(
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
      ),
      /statement timeout \(SQLSTATE 57014\)/,
    );
  });
});

describe("openPostgresDatabase(): an answer past the result limit", { skip: NO_SERVER }, () => {
  const cases: [string, string][] = [
    [
      "rows without end",
      "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r",
    ],
    ["one huge value", "SELECT repeat('x', 20000000)"],
  ];
  for (const [name, sql] of cases) {
    it(`stops ${name} with one line, and the next statement runs`, async () => {
      const db = await openPostgresDatabase(POSTGRES_URL!, {
        connections: 1,
        resultLimitBytes: 4 * 1024 * 1024,
      });
      try {
        await assert.rejects(
          db.execute(sql),
          /: the result is larger than 4 MB; it was not read \(--max-result-mb raises the limit\)$/,
        );
        assert.deepEqual([...await db.execute("SELECT count(*) AS n FROM genre")], [{ n: 25n }]);
      } finally {
        await db.close();
      }
    });
  }
});

describe("openPostgresDatabase(): URLs it cannot use", () => {
  const cases: [string, string, RegExp][] = [
    [
      "a port out of range",
      "postgres://me:secret@localhost:99999/db",
      /^Cannot connect to PostgreSQL postgres:\/\/me:\*\*\*@localhost:99999\/db: port "99999" is not a port \(1 to 65535\); check the URL$/,
    ],
    [
      "text that is not a URL",
      "postgres://me:secret@local host/db",
      /^Cannot connect to PostgreSQL postgres:\/\/me:\*\*\*@local host\/db: it is not a valid URL; /,
    ],
    [
      // It was "the server does not accept TLS (sslmode)", from a server that was never asked.
      "an sslmode that is none",
      "postgres://me:secret@127.0.0.1:1/db?sslmode=bogus",
      /^Cannot connect to PostgreSQL postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/db\?sslmode=bogus: sslmode "bogus" is not one of disable, allow, prefer, require, verify-ca, verify-full; check the URL$/,
    ],
  ];
  for (const [name, url, message] of cases) {
    it(`refuses ${name} with one line that hides the password`, async () => {
      await assert.rejects(openPostgresDatabase(url), (e: unknown) => {
        assert.ok(e instanceof UsageError);
        assert.match(e.message, message);
        assert.ok(!e.message.includes("secret"), e.message);
        return true;
      });
    });
  }

  it("keeps its own statement timeout over one the URL's options set", {
    skip: NO_SERVER,
  }, async () => {
    const url = `${POSTGRES_URL!}?options=-cstatement_timeout%3D1`;
    const db = await openPostgresDatabase(url, { statementTimeoutMs: 5_000 });
    try {
      assert.deepEqual([...await db.execute("SELECT current_setting('statement_timeout') AS s")], [
        { s: "5s" },
      ]);
    } finally {
      await db.close();
    }
  });
});
