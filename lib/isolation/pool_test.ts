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

/** Until nothing runs or waits in the pool (a job of an earlier test may still be answering). */
async function idle(pool: WorkerPool): Promise<void> {
  while (pool.stats().busy > 0 || pool.stats().queued > 0) {
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Whether a promise has settled by now (after the callbacks already queued). */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(() => done = true, () => done = true);
  await new Promise((r) => setTimeout(r, 0));
  return done;
}

// No assertion here depends on how long a thing takes: on a machine with
// ten times more threads than cores a worker may wait seconds for a core.
// A statement that must overlap another runs until it is cancelled, so
// "at once" is an outcome (one answered while the other still ran), not a
// sample of the pool's state at some moment.
describe("WorkerPool", () => {
  // Ten seconds of grace: on a loaded machine a worker may take a while to
  // answer even when SQLite stopped at once (the test that gives a worker
  // up has a pool of its own, with a short grace).
  const pool = new WorkerPool({ size: 2, graceMs: 10_000 });
  // Both workers up before the first test: a thread's start (type-checked
  // under deno test) is not what these tests time.
  before(() => pool.warm(2, "sqlite"));
  after(() => pool.close());

  it("runs a statement in a worker and answers with the columns and values", async () => {
    const reply = await query(pool, "SELECT GenreId AS id, Name FROM Genre WHERE GenreId <= 2");
    assert.deepEqual(reply, { columns: ["id", "Name"], values: [1, "Rock", 2, "Jazz"] });
  });

  it("interrupts a statement at its deadline, and the worker takes the next job", async () => {
    await idle(pool);
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
    await pool.warm(2, "sqlite");
    await idle(pool);
    const stop = new AbortController();
    // The first runs until it is cancelled; the second ends at its deadline
    // while the first still runs: they ran at once.
    const first = query(pool, RUNAWAY, { signal: stop.signal });
    const second = query(pool, RUNAWAY, { timeoutMs: 300 });
    try {
      assert.equal(pool.stats().busy, 2, "each has a worker of its own");
      await assert.rejects(
        second,
        (e) => e instanceof SqliteQueryError && e.code === 9 && e.message === "deadline",
      );
      assert.equal(await settled(first), false, "the first still runs");
      assert.equal(pool.stats().busy, 1);
    } finally {
      stop.abort(new Error("done"));
      await Promise.allSettled([first, second]);
    }
    await assert.rejects(
      first,
      (e) =>
        (e instanceof SqliteQueryError && e.message === "cancelled") ||
        (e instanceof Error && e.message === "done"),
    );
    assert.equal(pool.stats().abandoned, 0);
  });

  it("fails a job that waits for a worker when its signal aborts, without running it", async () => {
    await pool.warm(2, "sqlite");
    await idle(pool);
    const stopBusy = new AbortController();
    const busy = [
      query(pool, RUNAWAY, { signal: stopBusy.signal }),
      query(pool, RUNAWAY, { signal: stopBusy.signal }),
    ];
    try {
      assert.equal(pool.stats().busy, 2);
      const stop = new AbortController();
      const waiting = query(pool, "SELECT 1", { signal: stop.signal });
      assert.equal(pool.stats().queued, 1);
      stop.abort(new Error("not wanted"));
      await assert.rejects(waiting, /not wanted/);
      assert.equal(pool.stats().queued, 0);
      assert.equal(pool.stats().busy, 2, "the two slow ones still run");
    } finally {
      stopBusy.abort(new Error("done"));
      await Promise.allSettled(busy);
    }
  });

  it("answers quick statements sent behind one another on one worker, each its own", async () => {
    const one = new WorkerPool({ size: 1 });
    try {
      await one.warm(1, "sqlite");
      const replies = await Promise.all(
        Array.from({ length: 40 }, (_, i) => query(one, `SELECT ${i} AS i, ${i} * 2 AS twice`)),
      );
      replies.forEach((r, i) => assert.deepEqual(r.values, [i, i * 2]));
      assert.equal(one.stats().started, 1);
    } finally {
      await one.close();
    }
  });

  it("moves a job sent behind a runaway to another worker", async () => {
    // One worker up: the quick job is sent behind the runaway, which has only just started.
    const two = new WorkerPool({ size: 2, graceMs: 10_000 });
    const stop = new AbortController();
    try {
      await two.warm(1, "sqlite");
      const runaway = query(two, RUNAWAY, { signal: stop.signal });
      const quick = query(two, "SELECT 7 AS seven");
      assert.deepEqual((await quick).values, [7]);
      assert.equal(await settled(runaway), false, "the runaway still runs");
      assert.equal(two.stats().started, 2);
      stop.abort(new Error("done"));
      await Promise.allSettled([runaway]);
    } finally {
      stop.abort(new Error("done"));
      await two.close();
    }
  });

  it("cancels a job waiting behind another on a worker, without running it", async () => {
    const one = new WorkerPool({ size: 1, graceMs: 10_000 });
    const stopBusy = new AbortController();
    try {
      await one.warm(1, "sqlite");
      const busy = query(one, RUNAWAY, { signal: stopBusy.signal });
      const stop = new AbortController();
      const waiting = query(one, "SELECT 1", { signal: stop.signal });
      assert.equal(one.stats().queued, 1);
      stop.abort(new Error("not wanted"));
      await assert.rejects(waiting, /not wanted/);
      assert.equal(one.stats().queued, 0);
      assert.equal(await settled(busy), false, "the runaway still runs");
      stopBusy.abort(new Error("done"));
      await Promise.allSettled([busy]);
      assert.deepEqual((await query(one, "SELECT 2 AS two")).values, [2]);
      assert.equal(one.stats().abandoned, 0);
    } finally {
      stopBusy.abort(new Error("done"));
      await one.close();
    }
  });

  it("runs a job that waited behind a worker it gave up on the worker that replaces it", async () => {
    const short = new WorkerPool({ size: 1, graceMs: 200 });
    try {
      await query(short, "SELECT 1");
      const stuck = query(short, ONE_LONG_STEP, { timeoutMs: 100 });
      const behind = query(short, "SELECT 3 AS three");
      await assert.rejects(stuck, (e) => e instanceof PoolJobError && e.reason === "deadline");
      assert.deepEqual((await behind).values, [3]);
      assert.equal(short.stats().abandoned, 1);
      assert.equal(short.stats().workers, 1);
    } finally {
      await short.close();
    }
  });

  it("gives up a worker that cannot be interrupted in time, and replaces it", async () => {
    // A grace of its own, short: the step runs seconds past it, on any machine.
    const short = new WorkerPool({ size: 1, graceMs: 200 });
    try {
      // Its worker up with the database open, so the job goes straight to the step.
      await query(short, "SELECT 1");
      await assert.rejects(
        query(short, ONE_LONG_STEP, { timeoutMs: 100 }),
        (e) => e instanceof PoolJobError && e.reason === "deadline",
      );
      assert.equal(short.stats().abandoned, 1);
      assert.deepEqual((await query(short, "SELECT 2 AS two")).values, [2]);
      assert.equal(short.stats().workers, 1);
    } finally {
      await short.close();
    }
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
