import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { cellRows, cellRowsFit } from "./_cell_rows.ts";
import { identicalSchemas } from "./_identical_files.ts";
import { RowidRanges } from "./_rowid_ranges.ts";
import { scanTrees } from "./_table_scan.ts";

const dir = tempDir();
after(() => dir.cleanup());

// 20,000 rows of about 60 bytes: some 300 leaves.
const file = makeDb(
  dir.file("t.db"),
  "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT); " +
    "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 20000) " +
    "INSERT INTO t SELECT i, printf('%.50c', 'v') FROM s;",
);

/** Whether cellRows() reads the rows in `ranges` of t (the file diffed with itself). */
async function reads(ranges: RowidRanges): Promise<boolean> {
  const sides = identicalSchemas(file, file, false)!;
  const t = sides.before.tables.get("t")!;
  const scan = (await scanTrees(file, file, { before: [t.rootPage], after: [t.rootPage] }))!;
  try {
    return cellRows(scan, t, sides.after.tables.get("t")!, ranges) !== null;
  } finally {
    scan.close();
  }
}

describe("cellRows()", () => {
  // name, ranges as [lo, hi] pairs, whether the rows are read
  const cases: [string, [number, number][], boolean][] = [
    ["reads a few rows", [[5, 9], [15000, 15010]], true],
    ["reads rows spread over a few leaves", [[1, 1], [5000, 5000], [19999, 20000]], true],
    [
      "leaves more ranges than it reads cells to the engine, without a walk",
      Array.from({ length: 20_001 }, (_, i): [number, number] => [2 * i + 1, 2 * i + 1]),
      false,
    ],
    ["leaves a walk of more leaves than it reads to the engine", [[1, 20000]], false],
  ];
  for (const [name, list, expected] of cases) {
    it(name, async () => {
      const ranges = new RowidRanges();
      for (const [lo, hi] of list) ranges.push(lo, hi);
      assert.equal(await reads(ranges), expected);
    });
  }
});

describe("cellRowsFit()", () => {
  const shapes = makeDb(
    dir.file("shapes.db"),
    `CREATE TABLE alias(id INTEGER PRIMARY KEY, v);
     CREATE TABLE keyless(a, b);
     CREATE TABLE intkey(id INT PRIMARY KEY, v);
     CREATE TABLE wr(k INTEGER PRIMARY KEY, v) WITHOUT ROWID;
     CREATE TABLE gen(id INTEGER PRIMARY KEY, a, b AS (a + 1));`,
  );
  // table, paired by rowid (--rowid), whether its rows may be read from its cells
  const cases: [string, boolean, boolean][] = [
    ["alias", false, true],
    ["alias", true, true],
    ["keyless", true, false],
    ["intkey", false, false],
    ["intkey", true, false],
    ["wr", false, false],
    ["gen", false, false],
  ];
  for (const [name, pairByRowid, expected] of cases) {
    it(`says ${expected} for ${name}${pairByRowid ? " paired by rowid" : ""}`, () => {
      const t = identicalSchemas(shapes, shapes, pairByRowid)!.before.tables.get(name)!;
      assert.equal(cellRowsFit(t), expected);
    });
  }
});
