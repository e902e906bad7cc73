import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { scanPages } from "./_page_scan.ts";
import { TreeLeaves } from "./_tree_leaves.ts";
import { Cells, type LeafList, LeafReader, RUN } from "./_leaf_cells.ts";
import { FormatError, TABLE_LEAF } from "./_btree_format.ts";

const dir = tempDir();
after(() => dir.cleanup());

/** A 512-byte-page table of `n` rows: about 2,000 leaves under two levels of interior pages. */
function bigTable(name: string, n: number): string {
  return makeDb(
    dir.file(name),
    `PRAGMA page_size = 512; CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);
     WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${n})
     INSERT INTO t SELECT i * 3, printf('value %06d', i) FROM c;`,
  );
}

/** The root page of table `t` (page 2: the first table created). */
const ROOT = 2;

async function scanOf(file: string) {
  const scan = await scanPages(file, file);
  assert.ok(scan !== null);
  return scan;
}

describe("TreeLeaves", () => {
  it("gives every leaf of a deep table in key order, reading interior pages only", async () => {
    const file = bigTable("deep.db", 20_000);
    const scan = await scanOf(file);
    try {
      const walk = new TreeLeaves(scan.before, scan.pageSize, ROOT, () => false);
      const reader = new LeafReader(
        { fd: scan.before.fd, leaves: walk },
        scan.pageSize,
        scan.usable,
      );
      const cells = new Cells(reader);
      let rows = 0;
      let last = -Infinity;
      while (cells.has(0)) {
        const id = cells.rowid(0);
        assert.ok(id > last, `rowid ${id} after ${last}`);
        last = id;
        rows++;
        cells.skip(1);
      }
      assert.equal(rows, 20_000);
      // Every leaf but page 1 (sqlite_schema's) is the table's.
      const leaves = [...scan.before.types].filter((t, p) => p > 1 && t === TABLE_LEAF).length;
      assert.equal(walk.count, leaves);
      assert.ok(walk.count > 500, `${walk.count} leaves`);
    } finally {
      scan.close();
    }
  });

  it("leaves out the leaves it is told to skip", async () => {
    const file = bigTable("skip.db", 5_000);
    const scan = await scanOf(file);
    try {
      const all: number[] = [];
      const every = new TreeLeaves(scan.before, scan.pageSize, ROOT, () => false);
      for (let p = every.next(); p !== 0; p = every.next()) all.push(p);
      const odd = new TreeLeaves(scan.before, scan.pageSize, ROOT, (p) => p % 2 === 0);
      const some: number[] = [];
      for (let p = odd.next(); p !== 0; p = odd.next()) some.push(p);
      assert.deepEqual(some, all.filter((p) => p % 2 === 1));
      assert.equal(odd.next(), 0);
    } finally {
      scan.close();
    }
  });

  it("throws FormatError on a root that is no table b-tree page", async () => {
    const file = makeDb(
      dir.file("index.db"),
      "CREATE TABLE t(a); CREATE INDEX i ON t(a); INSERT INTO t VALUES (1);",
    );
    const scan = await scanOf(file);
    try {
      // Page 3 is the index's root.
      const walk = new TreeLeaves(scan.before, scan.pageSize, 3, () => false);
      assert.throws(() => walk.next(), FormatError);
      const outside = new TreeLeaves(
        scan.before,
        scan.pageSize,
        scan.before.pages + 1,
        () => false,
      );
      assert.throws(() => outside.next(), FormatError);
    } finally {
      scan.close();
    }
  });
});

describe("LeafReader", () => {
  it("takes leaves from its list as it goes, never more than a run ahead", async () => {
    // Memory stays flat whatever the table's size: the reader queues at
    // most RUN leaves, so a table of 500k changed leaves a side is never
    // held as a list of them.
    const file = bigTable("lazy.db", 20_000);
    const scan = await scanOf(file);
    try {
      const walk = new TreeLeaves(scan.before, scan.pageSize, ROOT, (p) => p % 5 === 0);
      let taken = 0;
      const counting: LeafList = {
        next: () => {
          const p = walk.next();
          if (p !== 0) taken++;
          return p;
        },
      };
      const reader = new LeafReader(
        { fd: scan.before.fd, leaves: counting },
        scan.pageSize,
        scan.usable,
      );
      let decoded = 0;
      let ahead = 0;
      while (reader.next() !== null) {
        decoded++;
        ahead = Math.max(ahead, taken - decoded);
      }
      assert.equal(decoded, walk.count);
      assert.ok(decoded > 10 * RUN, `${decoded} leaves`);
      assert.ok(ahead <= RUN, `${ahead} leaves queued ahead`);
    } finally {
      scan.close();
    }
  });

  it("decodes leaves between skipped ones from one read of the pages around them", async () => {
    const file = bigTable("runs.db", 5_000);
    const scan = await scanOf(file);
    try {
      const odd = (p: number): boolean => p % 2 === 1;
      const walk = new TreeLeaves(scan.before, scan.pageSize, ROOT, (p) => !odd(p));
      const reader = new LeafReader(
        { fd: scan.before.fd, leaves: walk },
        scan.pageSize,
        scan.usable,
      );
      const ids: number[] = [];
      const cells = new Cells(reader);
      while (cells.has(0)) {
        ids.push(cells.rowid(0));
        cells.skip(1);
      }
      // As many rows as the odd leaves hold, read page by page here.
      let expected = 0;
      const page = new Uint8Array(scan.pageSize);
      for (let p = 2; p <= scan.before.pages; p++) {
        if (scan.before.types[p] !== TABLE_LEAF || !odd(p)) continue;
        fs.readSync(scan.before.fd, page, 0, scan.pageSize, (p - 1) * scan.pageSize);
        expected += (page[3]! << 8) | page[4]!;
      }
      assert.ok(expected > 1000);
      assert.equal(ids.length, expected);
      for (let i = 1; i < ids.length; i++) assert.ok(ids[i]! > ids[i - 1]!);
      assert.ok(ids.every((id) => id % 3 === 0));
    } finally {
      scan.close();
    }
  });
});
