import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { tempDir } from "../../tests/fixtures.ts";
import { walFrames, walWarning } from "./wal_frames.ts";

const dir = tempDir("dbagenteval-wal-frames-");
after(() => dir.cleanup());

/**
 * A database whose -wal was checkpointed and then restarted: the first
 * frames are of the new cycle (new salts), the rest left from the old one.
 * The files are copied while the connection is open (closing it would
 * checkpoint and delete the -wal).
 */
function restartedWal(name: string): { db: string; wal: string } {
  const work = dir.file(`${name}-work.db`);
  const db = new DatabaseSync(work);
  db.exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0");
  db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, v)");
  for (let i = 0; i < 20; i++) db.exec(`INSERT INTO t(v) VALUES (randomblob(3000))`);
  db.exec("PRAGMA wal_checkpoint(PASSIVE)");
  db.exec("INSERT INTO t(v) VALUES ('after the restart')");
  const out = dir.file(`${name}.db`);
  fs.copyFileSync(work, out);
  fs.copyFileSync(`${work}-wal`, `${out}-wal`);
  db.close();
  return { db: out, wal: `${out}-wal` };
}

describe("walFrames()", () => {
  it("walFrames() does not call a restarted -wal damaged: old frames have another salt", () => {
    const { db } = restartedWal("restarted");
    const wal = walFrames(db);
    assert.ok(wal !== null);
    assert.ok(wal.frames > wal.used, `${wal.frames} frames, ${wal.used} used`);
    assert.ok(wal.used >= 1);
    assert.equal(wal.firstBad, null);
    assert.equal(walWarning(db), undefined);
    // SQLite agrees: the row written after the restart is there.
    const check = new DatabaseSync(db, { readOnly: true });
    const [row] = check.prepare("SELECT count(*) AS n FROM t").all();
    check.close();
    assert.equal(row?.["n"], 21);
  });

  it("walFrames() warns of a checksum failure under the current salt", () => {
    const { db, wal } = restartedWal("damaged");
    const bytes = fs.readFileSync(wal);
    const pageSize = new DataView(bytes.buffer, bytes.byteOffset).getUint32(8);
    bytes[32 + 24 + 100]! ^= 0xff; // the first frame's page
    fs.writeFileSync(wal, bytes);
    const frames = walFrames(db);
    assert.equal(frames?.firstBad, 1);
    assert.equal(frames?.used, 0);
    assert.ok(pageSize >= 512);
    assert.match(walWarning(db) ?? "", /frame 1 does not match its checksum/);
  });
});
