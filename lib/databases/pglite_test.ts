import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import process from "node:process";
import { snapshotDir, tempDir } from "../../tests/fixtures.ts";
import { compareRows } from "../compare/rows.ts";
import { NotRunError, UsageError } from "../errors.ts";
import { openPgliteDatabase, type PgliteDatabase } from "./pglite.ts";
import { valueCases } from "./_value_cases_test_util.ts";
import { pgliteStart } from "./_pglite_start.ts";

const dir = tempDir("dbagenteval-pglite-");
after(() => dir.cleanup());
const SCRIPT = `CREATE TABLE genre (genre_id INT PRIMARY KEY, name TEXT);
INSERT INTO genre SELECT g, 'genre ' || g FROM generate_series(1, 25) AS g;`;
const script = dir.file("genres.sql");
fs.writeFileSync(script, SCRIPT);

describe("openPgliteDatabase() on a .sql script", () => {
  let db: PgliteDatabase;
  before(async () => {
    db = await openPgliteDatabase(script);
  }, { timeout: 300_000 });
  after(() => db?.close());

  it("starts one PostgreSQL engine, from the empty database it carries, without running initdb", () => {
    // The WebAssembly instances its host's start made: initdb was a second
    // PGlite engine and a third module beside the first (twice the memory).
    assert.equal(db.engines, 1);
  });

  for (const [name, sql, agentRows, equal] of valueCases) {
    it(`compares ${name}`, async () => {
      assert.equal(compareRows(agentRows, await db.execute(sql)), equal);
    });
  }

  it("keeps two columns of the same name", async () => {
    const rows = await db.execute("SELECT 'Rock' AS name, 'AC/DC' AS name");
    assert.deepEqual(rows.columns, ["name", "name"]);
  });

  const refused: [string, string, RegExp][] = [
    ["a write", "DELETE FROM genre", /cannot execute DELETE in a read-only transaction/],
    ["two statements", "SELECT 1; DELETE FROM genre", /cannot insert multiple commands/],
    ["an unknown table", "SELECT * FROM nope", /relation "nope" does not exist \(SQLSTATE 42P01\)/],
  ];
  for (const [name, sql, message] of refused) {
    it(`refuses ${name}, naming the database, and changes nothing`, async () => {
      await assert.rejects(db.execute(sql), (e: Error) => {
        assert.match(e.message, message);
        assert.ok(e.message.startsWith(`pglite:${script}: `), e.message);
        return true;
      });
      assert.deepEqual([...await db.execute("SELECT count(*) AS n FROM genre")], [{ n: 25n }]);
    });
  }
});

describe("openPgliteDatabase() on a PGlite data directory", () => {
  // Two PGlite starts: 5 to 20 s on a busy machine.
  it(
    "reads it and leaves every file's bytes and mtime as they were",
    { timeout: 300_000 },
    async () => {
      const data = dir.file("data");
      const { PGlite } = await import("@electric-sql/pglite");
      // From the empty database the code carries: initdb took most of this test's time.
      const made = new PGlite({ dataDir: data, ...await pgliteStart(true) });
      await made.exec(SCRIPT);
      await made.close();
      const before = snapshotDir(data);
      const db = await openPgliteDatabase(data);
      try {
        assert.deepEqual([...await db.execute("SELECT max(name) AS m FROM genre")], [{
          m: "genre 9",
        }]);
      } finally {
        await db.close();
      }
      assert.deepEqual(snapshotDir(data), before);
    },
  );
});

describe("openPgliteDatabase() refuses bad input before any case", () => {
  const meta = dir.file("meta.sql");
  fs.writeFileSync(meta, "CREATE DATABASE chinook;\n\\c chinook;\nCREATE TABLE t (x INT);\n");
  const cases: [string, string, RegExp][] = [
    [
      "a missing file",
      dir.file("nope.sql"),
      /does not exist; give a \.sql script or a PGlite data directory$/,
    ],
    [
      "a folder that is not PGlite's",
      dir.path,
      /is not a PGlite data directory \(it has no PG_VERSION file\)$/,
    ],
    [
      "a psql meta-command",
      meta,
      /line 2 is a psql meta-command \("\\\\c chinook;"\), which PGlite cannot run/,
    ],
  ];
  for (const [name, spec, message] of cases) {
    it(`refuses ${name}`, async () => {
      await assert.rejects(openPgliteDatabase(spec), (e: unknown) => {
        assert.ok(e instanceof UsageError);
        assert.match(e.message, message);
        return true;
      });
    });
  }
});

describe("openPgliteDatabase(): SQL nobody here wrote", () => {
  let db: PgliteDatabase;
  before(async () => {
    db = await openPgliteDatabase(script, { statementTimeoutMs: 1_000 });
  }, { timeout: 300_000 });
  after(() => db?.close());

  const genres = async () => [...await db.execute("SELECT count(*) AS n FROM genre")];

  const cases: [string, string, RegExp][] = [
    [
      "a DO block that runs COPY ... TO PROGRAM",
      "DO $$ BEGIN EXECUTE 'COPY (SELECT 1) TO PROGRAM ''touch /tmp/x'''; END $$",
      /could not execute command "touch \/tmp\/x": PGlite runs no programs/,
    ],
    ["a value past PostgreSQL's heap", "SELECT repeat('x', 600000000)", /out of memory/],
    [
      "a cross join that runs past its deadline",
      "SELECT count(*) FROM genre a, genre b, genre c, genre d, genre e, genre f, genre g",
      /the statement did not finish within 1 s; PGlite was started again for the next one$/,
    ],
  ];
  for (const [name, sql, message] of cases) {
    it(`gives ${name} one line, and the next statement its answer`, {
      timeout: 120_000,
    }, async () => {
      await assert.rejects(db.execute(sql), (e: Error) => {
        assert.match(e.message, message);
        assert.ok(!e.message.includes("\n"), e.message);
        return true;
      });
      assert.deepEqual(await genres(), [{ n: 25n }]);
    });
  }

  it("starts a new engine after a statement that left PostgreSQL's heap much larger", {
    timeout: 120_000,
  }, async () => {
    const own = await openPgliteDatabase(script, { statementTimeoutMs: 60_000 });
    try {
      const before = await own.engine();
      // 150 MB built in the heap (within its cap) for an answer of one number.
      assert.deepEqual([...await own.execute("SELECT length(repeat('x', 150000000)) AS n")], [{
        n: 150000000,
      }]);
      assert.notEqual(await own.engine(), before);
      assert.deepEqual([...await own.execute("SELECT count(*) AS n FROM genre")], [{ n: 25n }]);
    } finally {
      await own.close();
    }
  });

  it("undoes what a statement left in the session (a PREPARE, an advisory lock, a setting)", async () => {
    await db.execute("PREPARE p AS SELECT 1");
    await db.execute("SELECT pg_advisory_lock(7)");
    await db.execute("SELECT set_config('DateStyle', 'SQL, DMY', false)");
    await assert.rejects(db.execute("EXECUTE p"), /prepared statement "p" does not exist/);
    assert.deepEqual([
      ...await db.execute(
        "SELECT count(*)::int AS locks, current_setting('DateStyle') AS style FROM pg_locks WHERE locktype = 'advisory'",
      ),
    ], [{ locks: 0, style: "ISO, YMD" }]);
  });

  it("does not run a statement that waited past its own deadline behind a runaway", {
    timeout: 120_000,
  }, async () => {
    const runaway = db.execute(
      "SELECT count(*) FROM genre a, genre b, genre c, genre d, genre e, genre f, genre g",
    );
    const waiting = db.execute("SELECT 1 AS n");
    await assert.rejects(runaway, /did not finish within 1 s/);
    await assert.rejects(waiting, (e: Error) => {
      // Not the SQL's failure: the harness's (lib/eval makes its case an ERROR).
      assert.ok(e instanceof NotRunError, String(e));
      assert.match(e.message, /waited for the one before it past its own deadline/);
      return true;
    });
    assert.deepEqual(await genres(), [{ n: 25n }]);
  });

  it("stops a statement when its case is over (its signal aborts), not at its deadline", {
    timeout: 120_000,
  }, async () => {
    const stop = new AbortController();
    const cross = db.execute(
      "SELECT count(*) FROM genre a, genre b, genre c, genre d, genre e, genre f, genre g",
      { signal: stop.signal },
    );
    setTimeout(() => stop.abort(), 200);
    // It ran to its deadline (1 s), and the next case waited for it there.
    await assert.rejects(cross, /stopped with its case|until its case was over; it did not run/);
    assert.deepEqual(await genres(), [{ n: 25n }]);
  });

  it("tells a statement still waiting for its turn at once when its case is over, and skips it", {
    timeout: 120_000,
  }, async () => {
    const runaway = db.execute(
      "SELECT count(*) FROM genre a, genre b, genre c, genre d, genre e, genre f, genre g",
    );
    let runawayOver = false;
    runaway.catch(() => {}).finally(() => runawayOver = true);
    const stop = new AbortController();
    const waiting = db.execute("SELECT 1 AS n", { signal: stop.signal });
    setTimeout(() => stop.abort(), 100);
    await assert.rejects(waiting, (e: Error) => {
      assert.ok(e instanceof NotRunError, String(e));
      assert.match(
        e.message,
        /waited for the one before it until its case was over; it did not run/,
      );
      // Told before the runaway ahead of it ends (at its deadline), not after.
      assert.equal(runawayOver, false);
      return true;
    });
    await assert.rejects(runaway, /did not finish within 1 s/);
    assert.deepEqual(await genres(), [{ n: 25n }]);
  });

  it("does not run, after the start that follows a runaway, a statement that was waiting for it", {
    timeout: 120_000,
  }, async () => {
    const cross =
      "SELECT count(*) FROM genre a, genre b, genre c, genre d, genre e, genre f, genre g";
    const first = db.execute(cross);
    // Sent 200 ms later: 200 ms of its deadline are left when the first is
    // killed, and gone by the time a new PGlite is up (a second or more).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = db.execute(cross);
    await assert.rejects(first, /did not finish within 1 s/);
    const restarted = db.engine();
    // It used to run for what it had left, be killed, and cost the next statement another start.
    await assert.rejects(second, (e: Error) => {
      assert.ok(e instanceof NotRunError, String(e));
      assert.match(e.message, /waited for PGlite to start again past its own deadline/);
      return true;
    });
    assert.equal(await db.engine(), await restarted);
    assert.deepEqual(await genres(), [{ n: 25n }]);
  });
});

describe("openPgliteDatabase() temporary folders", () => {
  it("removes those of a killed run when it opens, and its own when it closes", {
    timeout: 120_000,
  }, async () => {
    const tmp = dir.file("tmp");
    fs.mkdirSync(tmp);
    // A process id no process has: one more than the largest there can be.
    const dead = `dbagenteval-pglite-4194305-abcdef`;
    fs.mkdirSync(`${tmp}/${dead}/data`, { recursive: true });
    const saved = process.env["TMPDIR"];
    process.env["TMPDIR"] = tmp;
    try {
      const db = await openPgliteDatabase(script);
      const open = fs.readdirSync(tmp);
      assert.equal(open.length, 1, open.join(", "));
      assert.match(open[0]!, new RegExp(`^dbagenteval-pglite-${process.pid}-`));
      await db.close();
      assert.deepEqual(fs.readdirSync(tmp), []);
    } finally {
      if (saved === undefined) delete process.env["TMPDIR"];
      else process.env["TMPDIR"] = saved;
    }
  });
});
