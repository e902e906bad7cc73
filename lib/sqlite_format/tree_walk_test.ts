import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { SqliteDamageError } from "../errors.ts";
import { PageSource } from "./page_source.ts";
import { PageOwners } from "./page_owners.ts";
import { CELL, END, TreeWalk } from "./tree_walk.ts";
import { LeafReader, RUN_BYTES } from "./leaf_reader.ts";
import { CellStream } from "./cell_stream.ts";
import { TABLE_LEAF } from "./btree_page.ts";

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

/** A source whose reads of single pages are counted. */
function counted(file: string): { src: PageSource; read: number[] } {
  const src = PageSource.open(file);
  const read: number[] = [];
  const plain = src.read.bind(src);
  src.read = (n, into, at, ahead) => {
    read.push(n);
    plain(n, into, at, ahead);
  };
  return { src, read };
}

describe("TreeWalk", () => {
  it("gives every leaf of a deep table in key order, reading interior pages only", () => {
    const file = bigTable("deep.db", 20_000);
    const { src, read } = counted(file);
    try {
      const walk = new TreeWalk(src, ROOT, "table", null, "none");
      const leaves: number[] = [];
      for (let p = walk.next(); p !== END; p = walk.next()) leaves.push(p);
      // Every table leaf but page 1 (sqlite_schema's) is the table's.
      const bytes = fs.readFileSync(file);
      const all: number[] = [];
      for (let p = 2; p * 512 <= bytes.length; p++) {
        if (bytes[(p - 1) * 512] === TABLE_LEAF) all.push(p);
      }
      assert.deepEqual([...leaves].sort((a, b) => a - b), all);
      assert.ok(leaves.length > 500, `${leaves.length} leaves`);
      assert.equal(walk.height, 2);
      // The leftmost leaf (to learn the depth) and interior pages, no other leaf.
      const leafReads = read.filter((p) => all.includes(p));
      assert.deepEqual(leafReads, [leaves[0]]);
    } finally {
      src.close();
    }
  });

  it("claims every page once, and finds a page an interior page lists twice", () => {
    const file = bigTable("twice.db", 5_000);
    const src = PageSource.open(file);
    const owners = new PageOwners(src, () => "table t");
    const walk = new TreeWalk(src, ROOT, "table", owners, "claim");
    let n = 0;
    while (walk.next() !== END) n++;
    src.close();
    assert.ok(n > 100);
    // The root's second child made the same as its first.
    const bytes = fs.readFileSync(file);
    const root = bytes.subarray(512, 1024);
    const cell = (i: number) => root.readUInt16BE(12 + 2 * i);
    root.copy(root, cell(1), cell(0), cell(0) + 4);
    const bad = dir.file("twice-bad.db");
    fs.writeFileSync(bad, bytes);
    const src2 = PageSource.open(bad);
    try {
      const owners2 = new PageOwners(src2, () => "table t");
      const walk2 = new TreeWalk(src2, ROOT, "table", owners2, "claim");
      assert.throws(
        () => {
          while (walk2.next() !== END);
        },
        (e: unknown) =>
          e instanceof SqliteDamageError &&
          /reached twice in the b-tree of table t/.test(e.message),
      );
    } finally {
      src2.close();
    }
  });

  it("refuses a root that is no table b-tree page, or not in the file", () => {
    const file = makeDb(
      dir.file("index.db"),
      "CREATE TABLE t(a); CREATE INDEX i ON t(a); INSERT INTO t VALUES (1);",
    );
    const src = PageSource.open(file);
    try {
      // Page 3 is the index's root.
      assert.throws(() => new TreeWalk(src, 3, "table", null, "none"), SqliteDamageError);
      assert.throws(
        () => new TreeWalk(src, src.pages + 1, "table", null, "none"),
        SqliteDamageError,
      );
    } finally {
      src.close();
    }
  });

  it("gives an index tree's interior cells between its subtrees", () => {
    const file = makeDb(
      dir.file("wr.db"),
      `PRAGMA page_size = 512; CREATE TABLE w(k TEXT PRIMARY KEY) WITHOUT ROWID;
       WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 3000)
       INSERT INTO w SELECT printf('key %06d', i) FROM c;`,
    );
    const src = PageSource.open(file);
    try {
      const walk = new TreeWalk(src, ROOT, "index", null, "none");
      let cells = 0;
      let leaves = 0;
      let last = END;
      for (let p = walk.next(); p !== END; p = walk.next()) {
        if (p === CELL) {
          assert.notEqual(last, CELL, "a cell between two subtrees");
          cells++;
        } else leaves++;
        last = p;
      }
      assert.ok(cells > 50 && leaves > cells, `${cells} cells, ${leaves} leaves`);
      assert.notEqual(last, CELL);
    } finally {
      src.close();
    }
  });
});

describe("LeafReader", () => {
  it("takes leaves from the walk as it goes, a few runs ahead at most", async () => {
    // Memory stays flat whatever the table's size: a table of 500k leaves
    // is never held as a list of them.
    const file = bigTable("lazy.db", 250_000);
    const src = PageSource.open(file);
    try {
      const walk = new TreeWalk(src, ROOT, "table", null, "none");
      const reader = new LeafReader(walk);
      let taken = 0;
      let ahead = 0;
      for (;;) {
        let item = reader.take();
        if (item instanceof Promise) item = await item;
        if (item === null) break;
        taken++;
        ahead = Math.max(ahead, walk.leaves - taken);
        reader.release(item);
      }
      const perRun = RUN_BYTES / 512;
      assert.equal(taken, walk.leaves);
      assert.ok(taken > 4 * perRun, `${taken} leaves`);
      assert.ok(ahead <= 4 * perRun + 1, `${ahead} leaves queued ahead`);
      await reader.settle();
    } finally {
      src.close();
    }
  });
});

describe("CellStream", () => {
  it("gives a deep table's cells in key order, the ones of the leaves a range meets", async () => {
    const file = bigTable("ranges.db", 20_000);
    const src = PageSource.open(file);
    try {
      const ranges = {
        length: 2,
        lo: (i: number) => [300, 45_000][i]!,
        hi: (i: number) => [330, 45_003][i]!,
      };
      const cells = new CellStream(src, ROOT, "table", null, "none", ranges);
      const ids: number[] = [];
      for (;;) {
        await cells.ensure(1);
        if (!cells.locate(0)) break;
        ids.push(cells.page!.rowid(cells.index));
        cells.skip(1);
      }
      await cells.close();
      for (let i = 1; i < ids.length; i++) assert.ok(ids[i]! > ids[i - 1]!);
      for (const id of [300, 303, 330, 45_003]) assert.ok(ids.includes(id), `${id}`);
      // Only the leaves around the two ranges: a few dozen rows, not 20,000.
      assert.ok(ids.length < 200, `${ids.length} rows`);
    } finally {
      src.close();
    }
  });
  it("gathers spilled payloads into one buffer with payloadOnce, each right", async () => {
    // 3 KB values on 512-byte pages: every cell spills into an overflow chain.
    const file = makeDb(
      dir.file("spilled.db"),
      `PRAGMA page_size = 512; CREATE TABLE t(id INTEGER PRIMARY KEY, b BLOB);
       WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20)
       INSERT INTO t SELECT i, zeroblob(3000 + i) FROM c;`,
    );
    const src = PageSource.open(file);
    try {
      const cells = new CellStream(src, ROOT, "table", null, "none", null);
      const seen = new Set<ArrayBufferLike>();
      let rows = 0;
      for (;; rows++) {
        await cells.ensure(1);
        if (!cells.locate(0)) break;
        const once = cells.payloadOnce(0);
        seen.add(once.buffer);
        // The same bytes as a payload of its own.
        assert.deepEqual(once, cells.payload(0));
        cells.skip(1);
      }
      await cells.close();
      assert.equal(rows, 20);
      // Grown for the largest so far, then reused: not one array a cell.
      assert.ok(seen.size < 4, `${seen.size} buffers for ${rows} cells`);
    } finally {
      src.close();
    }
  });
});
