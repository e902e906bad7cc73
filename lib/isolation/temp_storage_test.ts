import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import {
  makeTempDir,
  reserveTempBytes,
  setTempCap,
  sweepLeftovers,
  tempBytesInUse,
} from "./temp_storage.ts";

describe("temporary storage", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "h33-temp-test-"));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("sweepLeftovers() removes the folders of a process that is gone, and keeps a live one's", () => {
    // A pid no process has: past the kernel's default pid_max.
    const dead = path.join(dir, "dbagenteval-agent-db-4194999-Ab12Cd");
    const live = path.join(dir, `dbagenteval-agent-db-${process.pid}-Ef34Gh`);
    const other = path.join(dir, "someone-else-4194999-Ab12Cd");
    for (const d of [dead, live, other]) {
      fs.mkdirSync(d);
      fs.writeFileSync(path.join(d, "copy.db"), "x");
    }
    assert.deepEqual(sweepLeftovers(dir), [dead]);
    assert.equal(fs.existsSync(dead), false);
    assert.equal(fs.existsSync(live), true);
    assert.equal(fs.existsSync(other), true);
  });

  it("makeTempDir() names its folder by the process and removes it on dispose()", () => {
    const t = makeTempDir("test");
    assert.match(path.basename(t.path), new RegExp(`^dbagenteval-test-${process.pid}-`));
    t.dispose();
    assert.equal(fs.existsSync(t.path), false);
  });

  it("reserveTempBytes() refuses what would pass the cap, and takes nothing then", () => {
    setTempCap(1000);
    const before = tempBytesInUse();
    assert.equal(reserveTempBytes(600), true);
    assert.equal(reserveTempBytes(600), false);
    assert.equal(tempBytesInUse(), before + 600);
    reserveTempBytes(-600);
    assert.equal(tempBytesInUse(), before);
    setTempCap(2 ** 31);
  });
});
