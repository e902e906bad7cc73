import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { calmClock, calmClockCounts, SPIN_READS } from "./_pglite_clock.ts";
import { PgliteEngine } from "./_pglite_engine.ts";

/** The time the clock wrote at `out`, in milliseconds. */
function written(memory: WebAssembly.Memory, out: number): number {
  return Number(new BigUint64Array(memory.buffer, out, 1)[0]!) / 1e6;
}

describe("calmClock()", () => {
  it("writes the wall clock for clock 0 and the monotonic one for the others, in nanoseconds", () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 4 });
    const clock = calmClock(memory);
    assert.equal(clock(0, 0n, 8), 0);
    assert.ok(Math.abs(written(memory, 8) - Date.now()) < 50, `${written(memory, 8)}`);
    for (const id of [1, 2, 3]) {
      assert.equal(clock(id, 0n, 16), 0);
      assert.ok(Math.abs(written(memory, 16) - performance.now()) < 50);
    }
    // WASI's EINVAL, nothing written.
    assert.equal(clock(4, 0n, 24), 28);
    assert.equal(new BigUint64Array(memory.buffer, 24, 1)[0], 0n);
  });

  it("writes into the memory's new buffer after it grows", () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 4 });
    const clock = calmClock(memory);
    clock(1, 0n, 8);
    memory.grow(1);
    assert.equal(clock(1, 0n, 65536 + 8), 0);
    assert.ok(Math.abs(written(memory, 65536 + 8) - performance.now()) < 50);
  });

  it("pauses a busy wait: reads in a tight loop pause once there were many in a row", () => {
    const clock = calmClock(new WebAssembly.Memory({ initial: 1 }));
    const before = calmClockCounts();
    for (let i = 0; i < SPIN_READS; i++) clock(1, 0n, 8);
    // A read that came late (a collection in the loop) takes a tenth off the count.
    for (let i = 0; i < 10 * SPIN_READS && calmClockCounts().pauses - before.pauses < 50; i++) {
      clock(1, 0n, 8);
    }
    assert.equal(calmClockCounts().pauses - before.pauses, 50);
  });

  it("keeps pausing a busy wait that one late read interrupts", () => {
    const clock = calmClock(new WebAssembly.Memory({ initial: 1 }));
    const start = calmClockCounts().pauses;
    for (let i = 0; i < 10 * SPIN_READS && calmClockCounts().pauses === start; i++) clock(1, 0n, 8);
    // A collection, or the process waiting for a core, between two reads.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3);
    const before = calmClockCounts();
    let sinceLate = 0;
    while (calmClockCounts().pauses - before.pauses < 50 && sinceLate < 10 * SPIN_READS) {
      clock(1, 0n, 8);
      sinceLate++;
    }
    // A tenth of the count back (and a tenth more for each late read of the
    // loop itself), not all of it: the wait's 10,000 quick reads again.
    assert.ok(sinceLate < SPIN_READS / 2, `${sinceLate} reads before 50 pauses`);
  });

  it("does not pause reads with work between them", async () => {
    const clock = calmClock(new WebAssembly.Memory({ initial: 1 }));
    const before = calmClockCounts();
    for (let i = 0; i < 20; i++) {
      clock(1, 0n, 8);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    assert.equal(calmClockCounts().pauses, before.pauses);
  });
});

describe("PgliteEngine and pg_sleep", () => {
  it("waits out pg_sleep with a few thousand clock reads, not millions", {
    timeout: 60_000,
  }, async () => {
    const engine = await PgliteEngine.open({ kind: "empty" }, 65536);
    try {
      const before = calmClockCounts().reads;
      const { rows } = await engine.query("SELECT pg_sleep(1)");
      assert.deepEqual(rows, [[""]]);
      const reads = calmClockCounts().reads - before;
      // Emscripten's clock was read 1,500,000-5,000,000 times a second, each
      // read a new BigInt: Bun's heap grew by hundreds of MB in seconds.
      assert.ok(reads > 0 && reads < 60_000, `${reads} reads`);
    } finally {
      await engine.close();
    }
  });
});
