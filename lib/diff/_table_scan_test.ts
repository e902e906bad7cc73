import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { Buffer } from "node:buffer";
import { DatabaseSync } from "node:sqlite";
import { firstLeaf, makeDb, tempDir } from "../../tests/fixtures.ts";
import { openDatabase } from "../sqlite/database.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import { pagePlan, type TablePages } from "./page_plan.ts";
import { scanPages } from "./_page_scan.ts";
import { scanTrees } from "./_table_scan.ts";
import { readSchema, type SideSchema } from "./schema.ts";
import type { TableDiff } from "./types.ts";

const dir = tempDir();
after(() => dir.cleanup());
let n = 0;

/** A before file from `fill`, and a copy changed by `change` (SQL, or made from the before file). */
function pair(fill: string, change: string | ((before: string) => string)): [string, string] {
  n++;
  const a = makeDb(dir.file(`s${n}a.db`), fill);
  const b = dir.file(`s${n}b.db`);
  fs.copyFileSync(a, b);
  const db = new DatabaseSync(b);
  db.exec(typeof change === "string" ? change : change(a));
  db.close();
  return [a, b];
}

/**
 * The after file rewritten with another page size: no page can be compared,
 * so its diff is made without skipping anything.
 */
function unskippable(file: string): string {
  const out = `${file}.8k.db`;
  const db = new DatabaseSync(file);
  db.exec(`PRAGMA page_size = 8192; VACUUM INTO '${out}'`);
  db.close();
  return out;
}

async function schemas(a: string, b: string, tables: string[] | null) {
  const db = await openDatabase(a);
  try {
    db.exec(`ATTACH '${b}' AS aft`);
    return { before: readSchema(db, "main", { tables }), after: readSchema(db, "aft", { tables }) };
  } finally {
    db.close();
  }
}

const roots = (side: SideSchema): number[] => [...side.tables.values()].map((t) => t.rootPage);

/** Each named table's plan from the targeted scan (the scan must not give up). */
async function targetedPlans(a: string, b: string, tables: string[]) {
  const sides = await schemas(a, b, tables);
  const scan = await scanTrees(a, b, { before: roots(sides.before), after: roots(sides.after) });
  assert.notEqual(scan, null, "the targeted scan gave up");
  try {
    assert.notEqual(scan!.scope, null);
    const plan = pagePlan(scan!, sides);
    return new Map<string, TablePages | null>(tables.map((t) => [t, plan?.table(t) ?? null]));
  } finally {
    scan!.close();
  }
}

/** The named tables' diffs, as plain objects. */
async function tableDiffs(
  a: string,
  b: string,
  tables: string[],
): Promise<readonly TableDiff[]> {
  const diff = await diffSqliteDatabases(a, b, { tables });
  return structuredClone(diff.databases[0]?.tables ?? []);
}

const ROWS = (k: number) =>
  `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${k})`;
/** 3000 small rows and, every 300 ids, a 20000-byte text (overflow pages). */
const T = "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT, big TEXT); " +
  `${ROWS(3000)} INSERT INTO t SELECT i, 'v' || i, ` +
  "CASE WHEN i % 300 = 0 THEN printf('%.20000c', 'a') END FROM s;";
/** A WITHOUT ROWID table with 20000-byte values every 100 keys. */
const W = "CREATE TABLE w(k TEXT PRIMARY KEY, n INT, big TEXT) WITHOUT ROWID; " +
  `${ROWS(1000)} INSERT INTO w SELECT printf('k%05d', i), i, ` +
  "CASE WHEN i % 100 = 0 THEN printf('%.20000c', 'a') END FROM s;";
/** A WITHOUT ROWID table whose 3000-byte keys spill from interior pages too. */
const L = "CREATE TABLE l(k TEXT PRIMARY KEY, n INT) WITHOUT ROWID; " +
  `${ROWS(300)} INSERT INTO l SELECT printf('%05d', i) || printf('%.3000c', 'x'), 1000 + i FROM s;`;
const O = "CREATE TABLE o(id INTEGER PRIMARY KEY, v TEXT); " +
  `${ROWS(3000)} INSERT INTO o SELECT i, 'o' || i FROM s;`;
/**
 * The 5-digit prefix of the key in the first cell of table l's root, an
 * interior page of an index b-tree: that row lives in the interior page,
 * and its n, after the 3000-byte key, in an overflow page.
 */
function keyInRoot(file: string): string {
  const db = new DatabaseSync(file);
  const root = Number(
    db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'l'").get()!["rootpage"],
  );
  db.close();
  const page = fs.readFileSync(file).subarray((root - 1) * 4096, root * 4096);
  assert.equal(page[0], 0x02, "l's root is an interior page of an index b-tree");
  // Cell: 4-byte child, 2-byte payload size, then the record: its header
  // size (1 byte) and the key at that offset.
  const record = page.readUInt16BE(12) + 6;
  const key = page.toString("latin1", record + page[record]!, record + page[record]! + 5);
  assert.match(key, /^\d{5}$/);
  return key;
}

/** One character of `big`, 15000 bytes in: only an overflow page changes. */
const deepByte = (table: string, where: string) =>
  `UPDATE ${table} SET big = substr(big, 1, 15000) || 'b' || substr(big, 15002) WHERE ${where}`;

describe("scanTrees() and --table give the diff made without skipping pages", () => {
  // name, fill, change, tables, whether only overflow pages change (the
  // whole-file scan then skips nothing)
  const cases: [string, string, string | ((before: string) => string), string[], boolean][] = [
    [
      "a rowid table with clean and changed leaves",
      `${T} ${O}`,
      "UPDATE t SET v = 'x' WHERE id = 1500; DELETE FROM t WHERE id = 20; " +
      "INSERT INTO t VALUES (5000, 'n', NULL); UPDATE o SET v = 'y' WHERE id = 7",
      ["t"],
      false,
    ],
    [
      "a blob changed only in an overflow page of a clean leaf",
      `${T} ${O}`,
      deepByte("t", "id = 1500"),
      ["t"],
      true,
    ],
    [
      "a WITHOUT ROWID value changed only in an overflow page",
      `${W} ${O}`,
      deepByte("w", "k = 'k00500'"),
      ["w"],
      true,
    ],
    [
      "a WITHOUT ROWID table with changed rows and clean pages",
      `${W} ${O}`,
      "UPDATE w SET n = -n WHERE k = 'k00010'; DELETE FROM w WHERE k = 'k00900'; " +
      "INSERT INTO w VALUES ('k99999', 0, NULL)",
      ["w"],
      false,
    ],
    [
      "a WITHOUT ROWID table whose keys spill, every row changed in its overflow pages only",
      `${L} ${O}`,
      "UPDATE l SET n = n + 1",
      ["l"],
      true,
    ],
    [
      "a WITHOUT ROWID row held in an interior page, changed only in its overflow pages",
      `${L} ${O}`,
      (a) => `UPDATE l SET n = n + 1 WHERE k = '${keyInRoot(a)}' || printf('%.3000c', 'x')`,
      ["l"],
      true,
    ],
    [
      "several named tables, one unchanged, another table changed",
      `${T} ${W} ${L} ${O}`,
      `${deepByte("t", "id = 2700")}; UPDATE w SET n = 0 WHERE k = 'k00300'; ` +
      "UPDATE o SET v = 'z' WHERE id > 2000",
      ["t", "w", "l"],
      false,
    ],
    [
      "a schema row too long for namedRoots(), the root pages then from SQLite's schema",
      `CREATE TABLE "${"n".repeat(3000)}"(x); ${T} ${O}`,
      deepByte("t", "id = 600"),
      ["t"],
      true,
    ],
    [
      "a named table that only the after file has",
      T,
      `${L}; UPDATE t SET v = 'x' WHERE id = 3`,
      ["l", "t"],
      false,
    ],
  ];
  for (const [name, fill, change, tables, overflowOnly] of cases) {
    it(name, async () => {
      const [a, b] = pair(fill, change);
      const got = await tableDiffs(a, b, tables);
      const want = await tableDiffs(a, unskippable(b), tables);
      assert.deepEqual(got, want);
      assert.ok(got.some((t) => t.status !== "unchanged"), "the case changes a named table");
      // The targeted scan planned every table both files have, skipping what is clean.
      const plans = await targetedPlans(a, b, tables);
      for (const t of got) {
        const plan = plans.get(t.name);
        if (t.sql_before === null || t.sql_after === null) continue;
        assert.notEqual(plan, null, `${t.name} was planned`);
        assert.equal(plan!.identical, t.status === "unchanged", `${t.name} identical`);
      }
      if (overflowOnly) {
        const scan = await scanPages(a, b);
        try {
          const sides = await schemas(a, b, null);
          assert.equal(pagePlan(scan!, sides), null, "only overflow pages changed");
        } finally {
          scan?.close();
        }
      }
    });
  }
});

/** Overwrites page `p` of `file` (4096-byte pages) from byte `at` on with `bytes`. */
function damage(file: string, p: number, bytes: Buffer, at = 0): void {
  const fd = fs.openSync(file, "r+");
  fs.writeSync(fd, bytes, 0, bytes.length, (p - 1) * 4096 + at);
  fs.closeSync(fd);
}

describe("scanTrees() reads only the named tables", () => {
  it("plans t and reads none of o's pages while o has a damaged leaf", async () => {
    const [a, b] = pair(`${T} ${O}`, "UPDATE t SET v = 'x' WHERE id = 1500");
    const leaf = firstLeaf(a, "o");
    damage(a, leaf, Buffer.alloc(4096, 0xee));
    damage(b, leaf, Buffer.alloc(4096, 0x77));
    const sides = await schemas(a, b, ["t"]);
    const scan =
      (await scanTrees(a, b, { before: roots(sides.before), after: roots(sides.after) }))!;
    try {
      assert.equal(scan.before.types[leaf], 0, "o's leaf was not read");
      assert.equal(scan.after.types[leaf], 0);
      const t = pagePlan(scan, sides)?.table("t");
      assert.equal(t?.identical, false);
      assert.equal(t?.ranges?.length, 1);
    } finally {
      scan.close();
    }
    // The whole-file scan sees the damaged page and skips nothing.
    const whole = await scanPages(a, b);
    try {
      assert.equal(pagePlan(whole!, await schemas(a, b, null)), null);
    } finally {
      whole?.close();
    }
  });

  const corrupt: [string, (file: string, leaf: number) => void][] = [
    ["a leaf whose type byte is no b-tree page", (f, p) => damage(f, p, Buffer.from([0x07]))],
    [
      "a leaf whose cell points past the page",
      (f, p) => damage(f, p, Buffer.from([0xff, 0xf0]), 8),
    ],
  ];
  for (const [name, spoil] of corrupt) {
    it(`gives up (null) on ${name} in a named table, the same in both files`, async () => {
      const [a, b] = pair(`${T} ${O}`, "UPDATE t SET v = 'x' WHERE id = 1500");
      const leaf = firstLeaf(b, "t");
      // The same damage on both sides: a clean page, whose cells are read.
      spoil(a, leaf);
      spoil(b, leaf);
      const sides = await schemas(a, b, ["t"]);
      const scan = await scanTrees(a, b, {
        before: roots(sides.before),
        after: roots(sides.after),
      });
      scan?.close();
      assert.equal(scan, null);
    });
  }
});
