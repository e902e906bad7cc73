import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { openDatabase } from "../sqlite/database.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import { pagePlan } from "./page_plan.ts";
import { scanPages } from "./_page_scan.ts";
import type { RowidRange } from "./table_data.ts";
import { readSchema } from "./schema.ts";

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

/** The plan of table t, with its ranges listed, or null when nothing can be skipped. */
async function plannedTable(
  a: string,
  b: string,
): Promise<{ identical: boolean; ranges: RowidRange[] | null } | null> {
  const db = await openDatabase(a);
  db.exec(`ATTACH '${b}' AS aft`);
  const sides = { before: readSchema(db, "main"), after: readSchema(db, "aft") };
  db.close();
  const scan = await scanPages(a, b);
  try {
    const t = scan === null ? null : pagePlan(scan, sides)?.table("t") ?? null;
    return t === null ? null : { identical: t.identical, ranges: t.ranges && [...t.ranges] };
  } finally {
    scan?.close();
  }
}

describe("pagePlan()", () => {
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

  it("gives up when only an overflow page changed under an identical leaf", async () => {
    const big = "x".repeat(20000);
    const [a, b] = pair(
      KEYED,
      `${KEYED_FILL}; UPDATE t SET big = '${big}' WHERE id = 10`,
      `UPDATE t SET big = '${big.slice(0, 15000)}y${big.slice(15001)}' WHERE id = 10`,
    );
    assert.equal(await plannedTable(a, b), null);
    const diff = await diffSqliteDatabases(a, b);
    assert.deepEqual(diff.databases[0]?.tables[0]?.rows.changed.map((r) => r.changed_columns), [
      ["big"],
    ]);
  });
});

describe("pagePlan() with other pages changed", () => {
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
      assert.deepEqual(t?.counts, { added: 0, removed: 0, changed });
    });
  }
});

describe("diffSqliteDatabases() with skipped pages", () => {
  const cases: [
    string,
    string,
    string,
    string,
    { added: number; removed: number; changed: number },
  ][] = [
    [
      "finds spread updates, deletes and inserts in a rowid table exactly",
      KEYED,
      KEYED_FILL,
      "UPDATE t SET v = 'u' WHERE id % 97 = 0; DELETE FROM t WHERE id % 301 = 0; " +
      "INSERT INTO t SELECT 5000 + i, 'n', NULL FROM (SELECT 1 AS i UNION SELECT 2);",
      { added: 2, removed: 9, changed: 30 },
    ],
    [
      "cancels a keyless row deleted in one page and inserted again at the end",
      "CREATE TABLE t(v TEXT, w)",
      `${ROWS} INSERT INTO t SELECT 'v' || i, i FROM s`,
      "DELETE FROM t WHERE v = 'v10'; INSERT INTO t VALUES ('v10', 10); UPDATE t SET w = 0 WHERE v = 'v2000';",
      { added: 1, removed: 1, changed: 0 },
    ],
    [
      "pairs a TEXT primary key across pages",
      "CREATE TABLE t(k TEXT PRIMARY KEY, v)",
      `${ROWS} INSERT INTO t SELECT 'k' || i, i FROM s`,
      "DELETE FROM t WHERE k = 'k5'; INSERT INTO t VALUES ('k5', 6); UPDATE t SET v = -1 WHERE k = 'k2999';",
      { added: 0, removed: 0, changed: 2 },
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
