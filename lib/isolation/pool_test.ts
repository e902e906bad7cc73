import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { PoolJobError, SqliteOpenError, SqliteQueryError } from "../errors.ts";
import type { QueryReply } from "../sqlite/pool_service.ts";
import { WorkerPool } from "./pool.ts";

const CHINOOK = "examples/chinook/Chinook_Sqlite.sqlite";
const RUNAWAY =
  "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
// One step of SQLite's machine that runs a few seconds: the progress
// handler is not called inside it, so it cannot be interrupted.
const ONE_LONG_STEP =
  "SELECT instr(printf('%.*c', 1000000, 'a'), printf('%.*c', 8000, 'a') || 'b')";

function query(
  pool: WorkerPool,
  sql: string,
  more: { timeoutMs?: number; signal?: AbortSignal } = {},
) {
  return pool.run({
    service: "sqlite",
    op: "query",
    args: { path: CHINOOK, sql },
    key: CHINOOK,
    ...more,
  }) as Promise<QueryReply>;
}

describe("WorkerPool", () => {
  // A second of grace: on a loaded machine a worker may take a moment to
  // answer even when SQLite stopped at once.
  const pool = new WorkerPool({ size: 2, graceMs: 1000 });
  // Both workers up before the first test: a thread's start (type-checked
  // under deno test) is not what these tests time.
  before(() => pool.warm(2, "sqlite"));
  after(() => pool.close());

  it("runs a statement in a worker and answers with the columns and values", async () => {
    const reply = await query(pool, "SELECT GenreId AS id, Name FROM Genre WHERE GenreId <= 2");
    assert.deepEqual(reply, { columns: ["id", "Name"], values: [1, "Rock", 2, "Jazz"] });
  });

  it("interrupts a statement at its deadline, and the worker takes the next job", async () => {
    const before = pool.stats().started;
    await assert.rejects(
      query(pool, RUNAWAY, { timeoutMs: 200 }),
      (e) => e instanceof SqliteQueryError && e.code === 9 && e.message === "deadline",
    );
    assert.deepEqual((await query(pool, "SELECT 1 AS one")).values, [1]);
    assert.equal(pool.stats().abandoned, 0);
    assert.ok(pool.stats().started <= Math.max(before, 1) + 1);
  });

  it("stops a running statement when its signal aborts", async () => {
    const stop = new AbortController();
    const running = query(pool, RUNAWAY, { signal: stop.signal });
    setTimeout(() => stop.abort(new Error("the case timed out")), 100);
    // Stopped in the worker ("cancelled"), or at once when its worker was still starting.
    await assert.rejects(
      running,
      (e) =>
        (e instanceof SqliteQueryError && e.message === "cancelled") ||
        (e instanceof Error && e.message === "the case timed out"),
    );
  });

  it("runs two slow statements at once on a pool of two", async () => {
    const both = Promise.allSettled([
      query(pool, RUNAWAY, { timeoutMs: 400 }),
      query(pool, RUNAWAY, { timeoutMs: 400 }),
    ]);
    // Both are running before either ends (a worker may take a moment to start).
    let most = 0;
    const watch = setInterval(() => most = Math.max(most, pool.stats().busy), 10);
    const ends = await both;
    clearInterval(watch);
    assert.equal(most, 2);
    for (const r of ends) assert.equal(r.status, "rejected");
  });

  it("fails a job that waits for a worker when its signal aborts, without running it", async () => {
    const busy = [
      query(pool, RUNAWAY, { timeoutMs: 300 }),
      query(pool, RUNAWAY, { timeoutMs: 300 }),
    ];
    while (pool.stats().busy < 2) await new Promise((r) => setTimeout(r, 10));
    const stop = new AbortController();
    const waiting = query(pool, "SELECT 1", { signal: stop.signal });
    assert.equal(pool.stats().queued, 1);
    stop.abort(new Error("not wanted"));
    await assert.rejects(waiting, /not wanted/);
    assert.equal(pool.stats().queued, 0);
    await Promise.allSettled(busy);
  });

  it("gives up a worker that cannot be interrupted in time, and replaces it", async () => {
    const { abandoned } = pool.stats();
    await assert.rejects(
      query(pool, ONE_LONG_STEP, { timeoutMs: 100 }),
      (e) => e instanceof PoolJobError && e.reason === "deadline",
    );
    assert.equal(pool.stats().abandoned, abandoned + 1);
    assert.deepEqual((await query(pool, "SELECT 2 AS two")).values, [2]);
  });

  it("keeps the class and fields of a service's error", async () => {
    await assert.rejects(
      pool.run({ service: "sqlite", op: "query", args: { path: "no/such.db", sql: "SELECT 1" } }),
      (e) => e instanceof SqliteOpenError && e.path === "no/such.db" && e.reason === "missing",
    );
  });

  it("fails a statement whose temporary files pass the cap, with the cap named", async () => {
    const small = new WorkerPool({
      size: 1,
      limits: { resultBytes: 2 ** 25, memoryBytes: 2 ** 28, tempBytes: 2 ** 20 },
    });
    try {
      // DISTINCT over ~20 MB of rows fills a temporary table past SQLite's
      // page cache: it spills to a temporary file (temp_store=FILE).
      const sort =
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) " +
        "SELECT count(*) FROM (SELECT DISTINCT x || printf('%.*c', 100, 'z') FROM c)";
      await assert.rejects(
        query(small, sort),
        (e) =>
          e instanceof SqliteQueryError && /temporary files passed the 1 MB limit/.test(e.message),
      );
    } finally {
      await small.close();
    }
  });

  it("fails every job after close()", async () => {
    const closing = new WorkerPool({ size: 1 });
    await query(closing, "SELECT 1");
    await closing.close();
    await assert.rejects(
      query(closing, "SELECT 1"),
      (e) => e instanceof PoolJobError && e.reason === "closed",
    );
    assert.equal(closing.stats().workers, 0);
  });
});
