/**
 * Differential test of `db diff`: seeded random database pairs, diffed by
 * the CLI (or the binary) in one folder diff, checked against references
 * computed another way:
 * - keyed tables: `sqldiff --primarykey --summary` (SQLite's own tool, an
 *   independent implementation in C);
 * - keyless tables: a multiset count in SQL, run by the `sqlite3` shell over
 *   the two files attached;
 * - the schema plane: what the generator did (columns added, indexes, views
 *   and triggers created or dropped).
 * The pairs cover rowid, TEXT, NOCASE, composite, WITHOUT ROWID, STRICT,
 * generated-column and keyless tables, big integers, REALs, BLOBs and
 * non-ASCII text, page sizes from 512 to 65536, after sides edited in place
 * (so the page comparison skips), left in a pending -wal, or VACUUMed.
 *
 * DBAGENTEVAL_DIFF_PAIRS=2000 runs more pairs (default 120),
 * DBAGENTEVAL_DIFF_SEED another seed.
 *
 * @module
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";

const PAIRS = Number(process.env["DBAGENTEVAL_DIFF_PAIRS"] ?? 120);
const SEED = Number(process.env["DBAGENTEVAL_DIFF_SEED"] ?? 20261201);

const dir = tempDir("dbagenteval-differential-");
after(() => dir.cleanup());

/** A small seeded PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Shape =
  | "rowid"
  | "text_key"
  | "nocase_key"
  | "composite"
  | "without_rowid"
  | "strict"
  | "generated"
  | "keyless";
const SHAPES: Shape[] = [
  "rowid",
  "text_key",
  "nocase_key",
  "composite",
  "without_rowid",
  "strict",
  "generated",
  "keyless",
];

interface TableSpec {
  readonly name: string;
  readonly shape: Shape;
  /** SQL for a key value of row i. */
  readonly key: (i: number) => string[];
  readonly keyCols: string[];
  /** Columns written by INSERT / UPDATE, besides the key. */
  readonly valueCols: string[];
  readonly create: string;
}

function spec(name: string, shape: Shape): TableSpec {
  const int = (i: number): string[] => [String(i)];
  const text = (i: number): string[] => [`'k${i}'`];
  switch (shape) {
    case "rowid":
      return {
        name,
        shape,
        key: int,
        keyCols: ["id"],
        valueCols: ["a", "b", "c"],
        create: `CREATE TABLE ${name}(id INTEGER PRIMARY KEY, a, b TEXT, c REAL)`,
      };
    case "text_key":
      return {
        name,
        shape,
        key: text,
        keyCols: ["k"],
        valueCols: ["a", "b"],
        create: `CREATE TABLE ${name}(k TEXT PRIMARY KEY NOT NULL, a, b)`,
      };
    case "nocase_key":
      return {
        name,
        shape,
        key: text,
        keyCols: ["k"],
        valueCols: ["a"],
        create: `CREATE TABLE ${name}(k TEXT PRIMARY KEY NOT NULL COLLATE NOCASE, a)`,
      };
    case "composite":
      return {
        name,
        shape,
        key: (i) => [`'g${i % 7}'`, String(i)],
        keyCols: ["k1", "k2"],
        valueCols: ["a"],
        create: `CREATE TABLE ${name}(k1 TEXT NOT NULL, k2 INT NOT NULL, a, PRIMARY KEY(k1, k2))`,
      };
    case "without_rowid":
      return {
        name,
        shape,
        key: int,
        keyCols: ["k"],
        valueCols: ["a", "b"],
        create: `CREATE TABLE ${name}(k INT PRIMARY KEY, a, b) WITHOUT ROWID`,
      };
    case "strict":
      return {
        name,
        shape,
        key: int,
        keyCols: ["id"],
        valueCols: ["n", "t"],
        create: `CREATE TABLE ${name}(id INTEGER PRIMARY KEY, n INTEGER, t TEXT) STRICT`,
      };
    case "generated":
      return {
        name,
        shape,
        key: int,
        keyCols: ["id"],
        valueCols: ["a"],
        create: `CREATE TABLE ${name}(id INTEGER PRIMARY KEY, a INT,
          g INT GENERATED ALWAYS AS (a * 2) VIRTUAL, s TEXT GENERATED ALWAYS AS (a || 'x') STORED)`,
      };
    case "keyless":
      return {
        name,
        shape,
        key: () => [],
        keyCols: [],
        valueCols: ["a", "b"],
        create: `CREATE TABLE ${name}(a, b)`,
      };
  }
}

function valueSql(random: () => number, shape: Shape, col: string): string {
  if (shape === "strict") {
    return col === "n"
      ? String(Math.floor(random() * 1e6) - 5e5)
      : `'t${Math.floor(random() * 50)}'`;
  }
  if (shape === "generated") return String(Math.floor(random() * 100));
  if (shape === "keyless") return String(Math.floor(random() * 4)); // duplicates happen
  const r = random();
  if (r < 0.1) return "NULL";
  if (r < 0.3) return String(Math.floor(random() * 1000));
  if (r < 0.4) return `${9007199254740993n + BigInt(Math.floor(random() * 1000))}`;
  if (r < 0.55) return String(random() * 1000 - 500);
  if (r < 0.75) return `'v${Math.floor(random() * 100)}'`;
  if (r < 0.85) return `'\u00e9\u4e2d${Math.floor(random() * 10)}'`;
  const hex = Array.from(
    { length: 1 + Math.floor(random() * 8) },
    () => Math.floor(random() * 256).toString(16).padStart(2, "0"),
  ).join("");
  return `x'${hex}'`;
}

function insertSql(random: () => number, t: TableSpec, i: number): string {
  const vals = [...t.key(i), ...t.valueCols.map((c) => valueSql(random, t.shape, c))];
  return `INSERT INTO ${t.name}(${[...t.keyCols, ...t.valueCols].join(", ")}) VALUES (${
    vals.join(", ")
  })`;
}

function keyWhere(t: TableSpec, i: number): string {
  const k = t.key(i);
  return t.keyCols.map((c, j) => `${c} = ${k[j]}`).join(" AND ");
}

interface Pair {
  readonly name: string;
  readonly tables: TableSpec[];
  /** Columns the generator added, per table. */
  readonly addedColumns: Map<string, string[]>;
  /** Objects created (+) or dropped (-) on the after side, "index ix_t0". */
  readonly objects: string[];
}

function buildPair(n: number, seed: number, before: string, afterFile: string): Pair {
  const random = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const tables = Array.from(
    { length: 1 + Math.floor(random() * 3) },
    (_, i) => spec(`t${i}`, pick(SHAPES)),
  );
  const pageSize = pick([512, 1024, 4096, 65536]);
  const rows = new Map<string, number>();
  const db = new DatabaseSync(before);
  db.exec(`PRAGMA page_size = ${pageSize}; PRAGMA synchronous = OFF`);
  db.exec("BEGIN");
  for (const t of tables) {
    db.exec(t.create);
    const count = Math.floor(random() * (random() < 0.2 ? 2000 : 60));
    rows.set(t.name, count);
    for (let i = 1; i <= count; i++) db.exec(insertSql(random, t, i));
    if (random() < 0.3) db.exec(`CREATE INDEX ix_${t.name} ON ${t.name}(${t.valueCols[0]})`);
  }
  db.exec("CREATE VIEW v_old AS SELECT 1");
  db.exec("COMMIT");
  db.close();

  const layout = pick(["in-place", "in-place", "wal-pending", "vacuum-after", "vacuum-before"]);
  const scratch = tempDir("dbagenteval-differential-w-");
  const work = scratch.file("w.db");
  fs.copyFileSync(before, work);
  const w = new DatabaseSync(work);
  w.exec("PRAGMA synchronous = OFF");
  if (layout === "wal-pending") w.exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0");
  const addedColumns = new Map<string, string[]>();
  const objects: string[] = [];
  for (const t of tables) {
    const count = rows.get(t.name)!;
    const edits = Math.floor(random() * 8);
    for (let e = 0; e < edits; e++) {
      const i = 1 + Math.floor(random() * Math.max(count, 1));
      const what = random();
      if (t.shape === "keyless") {
        if (what < 0.4) w.exec(`DELETE FROM ${t.name} WHERE rowid = ${i}`);
        else if (what < 0.7) w.exec(insertSql(random, t, 0));
        else {w.exec(
            `UPDATE ${t.name} SET a = ${valueSql(random, t.shape, "a")} WHERE rowid = ${i}`,
          );}
      } else if (what < 0.3) {
        w.exec(`DELETE FROM ${t.name} WHERE ${keyWhere(t, i)}`);
      } else if (what < 0.55) {
        w.exec(insertSql(random, t, count + 1 + e));
      } else {
        const col = pick(t.valueCols);
        w.exec(
          `UPDATE ${t.name} SET ${col} = ${valueSql(random, t.shape, col)} WHERE ${keyWhere(t, i)}`,
        );
      }
    }
    if (t.shape !== "keyless" && t.shape !== "strict" && random() < 0.15) {
      w.exec(`ALTER TABLE ${t.name} ADD COLUMN extra`);
      if (count > 0) w.exec(`UPDATE ${t.name} SET extra = 'x' WHERE ${keyWhere(t, count)}`);
      addedColumns.set(t.name, ["extra"]);
    }
    if (random() < 0.15) {
      w.exec(`CREATE TRIGGER tr_${t.name} AFTER DELETE ON ${t.name} BEGIN SELECT 1; END`);
      objects.push(`trigger tr_${t.name} added`);
    }
  }
  if (random() < 0.2) {
    w.exec("DROP VIEW v_old");
    objects.push("view v_old removed");
  }
  const ix = tables.find(() => true);
  if (ix !== undefined && random() < 0.15) {
    w.exec(`CREATE INDEX ix_new ON ${ix.name}(${ix.valueCols[0]})`);
    objects.push("index ix_new added");
  }
  if (layout === "vacuum-after") w.exec("VACUUM");
  if (layout === "wal-pending") {
    fs.copyFileSync(work, afterFile);
    if (fs.existsSync(`${work}-wal`)) fs.copyFileSync(`${work}-wal`, `${afterFile}-wal`);
    w.close();
  } else {
    w.close();
    fs.copyFileSync(work, afterFile);
  }
  scratch.cleanup();
  if (layout === "vacuum-before") {
    const b = new DatabaseSync(before);
    b.exec("VACUUM");
    b.close();
  }
  return { name: `p${n}.db`, tables, addedColumns, objects };
}

/** `sqldiff --primarykey --summary`: per table, [changed, added, removed]. */
function sqldiffSummary(a: string, b: string): Map<string, [number, number, number]> {
  const r = spawnSync("sqldiff", ["--primarykey", "--summary", a, b], { encoding: "utf8" });
  assert.equal(r.status, 0, `sqldiff failed: ${r.stderr}`);
  const out = new Map<string, [number, number, number]>();
  for (const line of r.stdout.split("\n")) {
    const m = /^(\S+): (\d+) changes, (\d+) inserts, (\d+) deletes/.exec(line);
    if (m) out.set(m[1]!, [Number(m[2]), Number(m[3]), Number(m[4])]);
  }
  return out;
}

/** A keyless table's multiset difference in SQL: [added, removed]. */
function multisetCounts(a: string, b: string, t: TableSpec): [number, number] {
  const cols = t.valueCols.join(", ");
  const sql = `ATTACH '${b.replaceAll("'", "''")}' AS aft;
    SELECT coalesce(sum(CASE WHEN n < 0 THEN -n END), 0), coalesce(sum(CASE WHEN n > 0 THEN n END), 0)
    FROM (SELECT sum(s) AS n FROM (SELECT ${cols}, 1 AS s FROM main.${t.name}
      UNION ALL SELECT ${cols}, -1 FROM aft.${t.name}) GROUP BY ${cols});`;
  const r = spawnSync("sqlite3", ["-readonly", a, sql], { encoding: "utf8" });
  assert.equal(r.status, 0, `sqlite3 failed: ${r.stderr}`);
  const [added, removed] = r.stdout.trim().split("|").map(Number);
  return [added!, removed!];
}

/**
 * Paired rows that differ, for a table that gained the column `extra`
 * (sqldiff compares only the columns both sides have): a common value
 * differs, or `extra` holds a value (its default is NULL).
 */
function changedWithExtra(a: string, b: string, t: TableSpec): number {
  const on = t.keyCols.map((c) => `A.${c} = B.${c}`).join(" AND ");
  const differs = t.valueCols.map((c) => `A.${c} IS NOT B.${c}`).join(" OR ");
  const sql = `ATTACH '${b.replaceAll("'", "''")}' AS aft;
    SELECT count(*) FROM main.${t.name} AS A JOIN aft.${t.name} AS B ON ${on}
    WHERE B.extra IS NOT NULL OR ${differs};`;
  const r = spawnSync("sqlite3", ["-readonly", a, sql], { encoding: "utf8" });
  assert.equal(r.status, 0, `sqlite3 failed: ${r.stderr}`);
  return Number(r.stdout.trim());
}

describe(`db diff against independent references (${PAIRS} seeded pairs, seed ${SEED})`, () => {
  it("db diff --json agrees with sqldiff and SQL on every table of every pair", {
    timeout: 600_000,
  }, () => {
    const beforeDir = dir.file("before");
    const afterDir = dir.file("after");
    fs.mkdirSync(beforeDir);
    fs.mkdirSync(afterDir);
    const pairs: Pair[] = [];
    for (let n = 0; n < PAIRS; n++) {
      pairs.push(
        buildPair(n, SEED + n, `${beforeDir}/p${n}.db`, `${afterDir}/p${n}.db`),
      );
    }
    // Our diff runs first: the references open the files read-write and
    // may checkpoint a pending -wal.
    const json = dir.file("diff.json");
    const r = runCli(["db", "diff", beforeDir, afterDir, "--json", json, "--max-rows", "0"]);
    assert.equal(r.code, 0, r.stderr);
    const diff = JSON.parse(fs.readFileSync(json, "utf8")) as {
      databases: {
        name: string;
        tables: {
          name: string;
          key_kind: string;
          counts: { added: number; removed: number; changed: number };
          columns: { added: { name: string }[] };
        }[];
        objects: { type: string; name: string; status: string }[];
      }[];
    };
    const mismatches: string[] = [];
    let tablesChecked = 0;
    for (const pair of pairs) {
      const db = diff.databases.find((d) => d.name === pair.name);
      const a = `${beforeDir}/${pair.name}`;
      const b = `${afterDir}/${pair.name}`;
      const objects = (db?.objects ?? []).map((o) => `${o.type} ${o.name} ${o.status}`).sort();
      if (JSON.stringify(objects) !== JSON.stringify([...pair.objects].sort())) {
        mismatches.push(`${pair.name}: objects ${JSON.stringify(objects)}, made ${pair.objects}`);
      }
      const reference = sqldiffSummary(a, b);
      for (const t of pair.tables) {
        tablesChecked++;
        const ours = db?.tables.find((x) => x.name === t.name);
        const counts = ours?.counts ?? { added: 0, removed: 0, changed: 0 };
        const added = (ours?.columns.added ?? []).map((c) => c.name);
        if (JSON.stringify(added) !== JSON.stringify(pair.addedColumns.get(t.name) ?? [])) {
          mismatches.push(`${pair.name} ${t.name}: columns added ${added}`);
        }
        let want: [number, number, number];
        if (t.shape === "keyless") {
          const [ad, rm] = multisetCounts(a, b, t);
          want = [0, ad, rm];
        } else want = reference.get(t.name) ?? [0, 0, 0];
        if (pair.addedColumns.has(t.name)) want = [changedWithExtra(a, b, t), want[1], want[2]];
        const got: [number, number, number] = [counts.changed, counts.added, counts.removed];
        if (JSON.stringify(got) !== JSON.stringify(want)) {
          mismatches.push(
            `${pair.name} ${t.name} (${t.shape}): ours changed/added/removed ${got}, reference ${want}`,
          );
        }
      }
    }
    assert.deepEqual(mismatches, [], `${mismatches.length} of ${tablesChecked} tables differ`);
    assert.ok(tablesChecked >= PAIRS);
  });
});
