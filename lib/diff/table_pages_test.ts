import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { Buffer } from "node:buffer";
import { DatabaseSync } from "node:sqlite";
import { firstLeaf, makeDb, tempDir } from "../../tests/fixtures.ts";
import { SqliteDamageError } from "../errors.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import { keyResidue, rowidResidue, type TablePages } from "./_residue.ts";
import { claimTrees, openPageSide } from "./_page_sides.ts";
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

/**
 * What the comparison of each named table's pages leaves the engine, read
 * as a `--table` diff reads them (the named trees only).
 */
async function targetedPlans(a: string, b: string, tables: string[]) {
  const sides = [openPageSide(a, tables, false), openPageSide(b, tables, false)];
  try {
    for (const s of sides) claimTrees(s, false);
    const out = new Map<string, TablePages | null>();
    for (const name of tables) {
      const [x, y] = sides.map((s) => s.schema!.tables.get(name));
      if (x === undefined || y === undefined) {
        out.set(name, null);
        continue;
      }
      const tree = (s: typeof sides[0], root: number) => ({ src: s.src, owners: s.owners, root });
      const ta = tree(sides[0]!, x.rootPage);
      const tb = tree(sides[1]!, y.rootPage);
      out.set(
        name,
        x.withoutRowid ? await keyResidue(ta, tb, x.key.length) : await rowidResidue(ta, tb),
      );
    }
    return out;
  } finally {
    for (const s of sides) s.src.close();
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

describe("--table and the whole diff give the diff made without skipping pages", () => {
  // name, fill, change, tables, whether only overflow pages change
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
      "a schema row that spills to an overflow page",
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
      // The whole diff agrees on the named tables.
      const all = structuredClone((await diffSqliteDatabases(a, b)).databases[0]!.tables);
      assert.deepEqual(all.filter((t) => tables.includes(t.name)), got);
      // The pages of every table both files have were compared, skipping what is clean.
      const plans = await targetedPlans(a, b, tables);
      for (const t of got) {
        const plan = plans.get(t.name);
        if (t.sql_before === null || t.sql_after === null) continue;
        assert.notEqual(plan, null, `${t.name} was planned`);
        assert.notEqual(
          plan!.ranges === null && plan!.residueKeys === undefined,
          true,
          `${t.name} compared whole`,
        );
        assert.equal(plan!.identical, t.status === "unchanged", `${t.name} identical`);
      }
      // Rows changed only in overflow pages are found all the same.
      if (overflowOnly) assert.ok(got.some((t) => t.counts.changed > 0));
    });
  }
});

/** Overwrites page `p` of `file` (4096-byte pages) from byte `at` on with `bytes`. */
function damage(file: string, p: number, bytes: Buffer, at = 0): void {
  const fd = fs.openSync(file, "r+");
  fs.writeSync(fd, bytes, 0, bytes.length, (p - 1) * 4096 + at);
  fs.closeSync(fd);
}

describe("--table reads only the named tables", () => {
  it("diffs t while o has a damaged leaf, which the whole diff reports", async () => {
    const [a, b] = pair(`${T} ${O}`, "UPDATE t SET v = 'x' WHERE id = 1500");
    const leaf = firstLeaf(a, "o");
    damage(a, leaf, Buffer.alloc(4096, 0xee));
    damage(b, leaf, Buffer.alloc(4096, 0x77));
    const t = (await tableDiffs(a, b, ["t"]))[0]!;
    assert.deepEqual(t.counts, { added: 0, removed: 0, changed: 1, changed_cells: 1 });
    await assert.rejects(
      diffSqliteDatabases(a, b),
      (e: unknown) => e instanceof SqliteDamageError && e.path === a && e.page === leaf,
    );
  });

  const corrupt: [string, (file: string, leaf: number) => void, RegExp][] = [
    [
      "a leaf whose type byte is no b-tree page",
      (f, p) => damage(f, p, Buffer.from([0x07])),
      /type byte 7 is no (table )?b-tree page/,
    ],
    [
      "a leaf whose cell points past the page",
      (f, p) => damage(f, p, Buffer.from([0xff, 0xf0]), 8),
      /cell 1 starts at 65520, outside the cell content area/,
    ],
  ];
  for (const [name, spoil, says] of corrupt) {
    it(`reports ${name} in a named table, the same in both files, as damage`, async () => {
      const [a, b] = pair(`${T} ${O}`, "UPDATE t SET v = 'x' WHERE id = 1500");
      const leaf = firstLeaf(b, "t");
      // The same damage on both sides: a clean page, whose cells are read.
      spoil(a, leaf);
      spoil(b, leaf);
      for (const tables of [["t"], undefined]) {
        await assert.rejects(
          diffSqliteDatabases(a, b, tables === undefined ? {} : { tables }),
          (e: unknown) => e instanceof SqliteDamageError && e.page === leaf && says.test(e.message),
        );
      }
    });
  }
});
