import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import { rowidResidue } from "./_residue.ts";
import { claimTrees, openPageSide, type PageSide } from "./_page_sides.ts";
import type { RowidRange } from "./table_data.ts";

const dir = tempDir();
after(() => dir.cleanup());
let n = 0;

/** A before file of 3000 rows over many leaves, and an after copy changed by `sql`. */
function pair(schema: string, fill: string, sql: string): [string, string] {
  n++;
  const a = makeDb(dir.file(`p${n}a.db`), `${schema}; ${fill}`);
  const b = dir.file(`p${n}b.db`);
  fs.copyFileSync(a, b);
  const db = new DatabaseSync(b);
  db.exec(sql);
  db.close();
  return [a, b];
}

const ROWS = "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 3000)";
const KEYED = "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT, big TEXT)";
const KEYED_FILL = `${ROWS} INSERT INTO t SELECT i, 'v' || i, NULL FROM s`;

/**
 * What the comparison of table t's pages leaves the engine: its rowid
 * ranges, or null when the whole table must be compared.
 */
async function plannedTable(
  a: string,
  b: string,
): Promise<{ identical: boolean; ranges: RowidRange[] | null } | null> {
  const sides: PageSide[] = [openPageSide(a, null, false), openPageSide(b, null, false)];
  try {
    for (const s of sides) claimTrees(s, true);
    const [x, y] = sides.map((s) => ({
      src: s.src,
      owners: s.owners,
      root: s.schema!.tables.get("t")!.rootPage,
    }));
    const t = await rowidResidue(x!, y!);
    return t.ranges === null ? null : { identical: t.identical, ranges: [...t.ranges] };
  } finally {
    for (const s of sides) s.src.close();
  }
}

describe("rowidResidue()", () => {
  it("marks a byte-identical table as identical", async () => {
    const [a, b] = pair(KEYED, KEYED_FILL, "SELECT 1");
    assert.deepEqual(await plannedTable(a, b), { identical: true, ranges: [] });
  });

  it("narrows an in-place update to the rowid range of its leaf", async () => {
    const [a, b] = pair(KEYED, KEYED_FILL, "UPDATE t SET v = 'x' WHERE id = 1500");
    const plan = await plannedTable(a, b);
    assert.equal(plan?.identical, false);
    assert.equal(plan?.ranges?.length, 1);
    const [lo, hi] = plan!.ranges![0]!;
    assert.ok(lo <= 1500n && hi >= 1500n && hi - lo < 500n, `range ${lo}..${hi}`);
  });

  it("finds the row when only an overflow page changed under an identical leaf", async () => {
    const big = "x".repeat(20000);
    const [a, b] = pair(
      KEYED,
      `${KEYED_FILL}; UPDATE t SET big = '${big}' WHERE id = 10`,
      `UPDATE t SET big = '${big.slice(0, 15000)}y${big.slice(15001)}' WHERE id = 10`,
    );
    const plan = await plannedTable(a, b);
    assert.equal(plan?.identical, false);
    assert.deepEqual(plan?.ranges, [[10n, 10n]]);
    const diff = await diffSqliteDatabases(a, b);
    assert.deepEqual(diff.databases[0]?.tables[0]?.rows.changed.map((r) => r.changed_columns), [
      ["big"],
    ]);
  });
});

describe("rowidResidue() with other pages changed", () => {
  const OTHER = "CREATE TABLE o(id INTEGER PRIMARY KEY, v TEXT)";
  const OTHER_FILL = `${ROWS} INSERT INTO o SELECT i, 'o' || i FROM s`;
  const UPDATE_O = "UPDATE o SET v = 'x' WHERE id = 5";
  // name, schema, fill, change, t's plan (identical, or null: compared whole), t's changed rows
  const cases: [string, string, string, string, boolean | null, number][] = [
    [
      "still marks t identical when only another table changed",
      `${OTHER}; ${KEYED}`,
      `${OTHER_FILL}; ${KEYED_FILL}`,
      UPDATE_O,
      true,
      0,
    ],
    [
      "still plans t when a view added to a multi-page sqlite_schema changed its pages",
      `${OTHER}; ${KEYED}; ${
        Array.from({ length: 60 }, (_, i) => `CREATE VIEW v${i} AS SELECT '${"x".repeat(100)}'`)
          .join("; ")
      }`,
      `${OTHER_FILL}; ${KEYED_FILL}`,
      `CREATE VIEW w AS SELECT 1; ${UPDATE_O}`,
      true,
      0,
    ],
    [
      "compares t whole when its rowids are beyond 2^53",
      `${OTHER}; ${KEYED}`,
      `${OTHER_FILL}; ${ROWS} INSERT INTO t SELECT 9007199254740993 + i, 'v' || i, NULL FROM s`,
      "UPDATE t SET v = 'x' WHERE id = 9007199254740993 + 1500",
      null,
      1,
    ],
  ];
  for (const [name, schema, fill, change, identical, changed] of cases) {
    it(name, async () => {
      const [a, b] = pair(schema, fill, change);
      const plan = await plannedTable(a, b);
      assert.equal(plan === null ? null : plan.identical, identical);
      const diff = await diffSqliteDatabases(a, b);
      const t = diff.databases[0]?.tables.find((x) => x.name === "t");
      assert.deepEqual(t?.counts, { added: 0, removed: 0, changed, changed_cells: changed });
    });
  }
});

describe("diffSqliteDatabases() with skipped pages", () => {
  const cases: [
    string,
    string,
    string,
    string,
    { added: number; removed: number; changed: number; changed_cells: number },
  ][] = [
    [
      "finds spread updates, deletes and inserts in a rowid table exactly",
      KEYED,
      KEYED_FILL,
      "UPDATE t SET v = 'u' WHERE id % 97 = 0; DELETE FROM t WHERE id % 301 = 0; " +
      "INSERT INTO t SELECT 5000 + i, 'n', NULL FROM (SELECT 1 AS i UNION SELECT 2);",
      { added: 2, removed: 9, changed: 30, changed_cells: 30 },
    ],
    [
      "cancels a keyless row deleted in one page and inserted again at the end",
      "CREATE TABLE t(v TEXT, w)",
      `${ROWS} INSERT INTO t SELECT 'v' || i, i FROM s`,
      "DELETE FROM t WHERE v = 'v10'; INSERT INTO t VALUES ('v10', 10); UPDATE t SET w = 0 WHERE v = 'v2000';",
      { added: 1, removed: 1, changed: 0, changed_cells: 0 },
    ],
    [
      "pairs a TEXT primary key across pages",
      "CREATE TABLE t(k TEXT PRIMARY KEY, v)",
      `${ROWS} INSERT INTO t SELECT 'k' || i, i FROM s`,
      "DELETE FROM t WHERE k = 'k5'; INSERT INTO t VALUES ('k5', 6); UPDATE t SET v = -1 WHERE k = 'k2999';",
      { added: 0, removed: 0, changed: 2, changed_cells: 2 },
    ],
  ];
  for (const [name, schema, fill, change, counts] of cases) {
    it(name, async () => {
      const [a, b] = pair(schema, fill, change);
      const diff = await diffSqliteDatabases(a, b);
      assert.deepEqual(diff.databases[0]?.tables[0]?.counts, counts);
    });
  }
});

/** The integer key of the first cell of a WITHOUT ROWID table's root page (an interior page). */
function firstDividerKey(file: string, table: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = ?").get(
    table,
  ) as { rootpage: number };
  db.close();
  const bytes = fs.readFileSync(file);
  const size = bytes.readUInt16BE(16);
  const page = bytes.subarray((rootpage - 1) * size, rootpage * size);
  assert.equal(page[0], 0x02, "the root is an index b-tree interior page");
  // Cell: 4-byte child page, payload-size varint (one byte here), then the
  // record: header size, serial types, then the first column (the key).
  const cell = page.readUInt16BE(12);
  const record = cell + 5;
  const type = page[record + 1]!;
  const width = [0, 1, 2, 3, 4, 6, 8][type]!;
  assert.ok(type >= 1 && type <= 6, "an integer key");
  return page.readIntBE(record + page[record]!, width);
}

describe("diffSqliteDatabases() on a WITHOUT ROWID table", () => {
  it("finds a change to a row that lives on an interior page (index b-trees keep rows there)", async () => {
    const [a] = pair(
      "CREATE TABLE w(k INTEGER PRIMARY KEY, v TEXT) WITHOUT ROWID",
      `${ROWS.replace("3000", "20000")} INSERT INTO w SELECT i, printf('value %d', i) FROM s`,
      "SELECT 1",
    );
    const key = firstDividerKey(a, "w");
    const b = dir.file(`divider${++n}.db`);
    fs.copyFileSync(a, b);
    const db = new DatabaseSync(b);
    db.prepare("UPDATE w SET v = 'edited' WHERE k = ?").run(key);
    db.close();
    const diff = await diffSqliteDatabases(a, b, {});
    const w = diff.databases[0]!.tables.find((t) => t.name === "w")!;
    assert.deepEqual(w.counts, { added: 0, removed: 0, changed: 1, changed_cells: 1 });
    assert.equal(w.rows.changed[0]!.key["k"], key);
  });
});
