/**
 * Seeded random database pairs, each table diffed by the default strategies
 * (rows paired from cells, lib/diff/_cell_rows.ts and _keyed_cells.ts) and
 * by SQLite's own pairing alone (the engine's strategy): table t's section
 * of the diff, and every row event, must be the same, on sound files that
 * nothing may call damaged.
 *
 * - Keyed tables: keys drawn from values whose order is easy to get wrong
 *   (integers and reals that are equal or only nearly, integers past 2^53,
 *   text under BINARY, NOCASE and RTRIM with case, trailing spaces, NULs,
 *   non-ASCII and bytes that are no UTF-8, BLOBs that prefix each other,
 *   keys that spill to overflow pages), WITHOUT ROWID and rowid tables, with
 *   a secondary index or none.
 * - Rowid and keyless tables: values of every storage class (-0.0, 1e-320,
 *   70 KB texts), declared types and STRICT, generated columns, a column
 *   added with a default.
 *
 * Both on page sizes from 512 to 65536, UTF-8 and UTF-16, auto_vacuum on and
 * off, after sides VACUUMed or not.
 *
 * DBAGENTEVAL_STRATEGY_FUZZ_PAIRS=2000 runs more pairs of each (default 80),
 * DBAGENTEVAL_STRATEGY_FUZZ_SEED another seed.
 *
 * @module
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { mulberry32 } from "../counterexample/random.ts";
import { ENGINE_ROWS } from "./_strategies.ts";
import { tableSeen } from "./_test_util.ts";

const PAIRS = Number(process.env["DBAGENTEVAL_STRATEGY_FUZZ_PAIRS"] ?? 80);
const SEED = Number(process.env["DBAGENTEVAL_STRATEGY_FUZZ_SEED"] ?? 20261203);

const dir = tempDir();
after(() => dir.cleanup());

/** A pair's two files and the SQL that made them. */
interface Pair {
  readonly a: string;
  readonly b: string;
  readonly what: string;
}

/** What every pair's SQL starts with: a page size, maybe UTF-16 and auto_vacuum. */
function fileSettings(r: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const encoding = r() < 0.3 ? `PRAGMA encoding = '${pick(["UTF-16le", "UTF-16be"])}';` : "";
  const vacuum = r() < 0.3 ? "PRAGMA auto_vacuum = 1;" : "";
  return `PRAGMA page_size = ${pick([512, 1024, 4096, 65536])}; ${encoding} ${vacuum}`;
}

/** Two files: `setup` in both, `changes` (then maybe a VACUUM) in the second. */
function files(
  r: () => number,
  name: string,
  setup: string,
  changes: readonly string[],
): Pair {
  const first = fileSettings(r);
  const sql = `${first} BEGIN; ${setup}`;
  const vacuum = r() < 0.3 ? "VACUUM" : "";
  const a = makeDb(dir.file(`${name}_a.db`), `${sql} COMMIT`);
  const b = makeDb(dir.file(`${name}_b.db`), `${sql} ${changes.join(";\n")}; COMMIT; ${vacuum}`);
  return { a, b, what: `${first}\n${setup.slice(0, 400)}\n${changes.join(";\n")}; ${vacuum}` };
}

/** Key values, as SQL. */
const KEYS = [
  "0",
  "1",
  "-1",
  "2",
  "3.0",
  "3.5",
  "-0.0",
  "9007199254740992",
  "9007199254740993",
  "9007199254740992.0",
  "9007199254740994.0",
  "9223372036854775807",
  "-9223372036854775808",
  "9.223372036854775807e18",
  "9.3e18",
  "-9.3e18",
  "1e300",
  "0.1",
  "'a'",
  "'A'",
  "'b'",
  "'B'",
  "'a '",
  "'a  '",
  "'A '",
  "' a'",
  "''",
  "' '",
  "'é'",
  "'É'",
  "'z'",
  "'Z'",
  "'ab'",
  "'aB'",
  "'a' || char(0)",
  "x''",
  "x'00'",
  "x'61'",
  "x'6120'",
  "x'ff'",
  "x'0000'",
  "'10'",
  "'9'",
  "'1e3'",
  "'  1'",
  "'ÿ'",
  "'_'",
  "'['",
  "'`'",
  "'{'",
  "'~'",
  "char(256)",
  "char(0x4e00)",
  "char(0x10000)",
  "printf('%.3000c', 'a') || 'b'",
  "printf('%.3000c', 'a') || 'B'",
  "printf('%.3000c', 'a')",
  "printf('%.6000c', 'a') || ' '",
  "CAST(x'ff' AS TEXT)",
  "CAST(x'c3' AS TEXT)",
  "CAST(x'41ff' AS TEXT)",
  "CAST(x'61ff' AS TEXT)",
  "zeroblob(5000)",
  "zeroblob(5000) || x'01'",
  "'a' || char(0) || 'b'",
  "'A' || char(0) || 'b'",
];

/** A keyed table's pair `n`. */
function keyedPair(n: number): Pair {
  const r = mulberry32(SEED + n);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const collation = () => pick(["", " COLLATE NOCASE", " COLLATE RTRIM", " COLLATE BINARY"]);
  const type = pick(["", " TEXT", " INT", " REAL", " BLOB", " NUMERIC", " ANY"]);
  const withoutRowid = r() < 0.5 ? " WITHOUT ROWID" : "";
  const two = r() < 0.4;
  const create = two
    ? `CREATE TABLE t(k${type}${collation()} NOT NULL, j${
      pick(["", " TEXT", " INT"])
    }${collation()} NOT NULL, a, PRIMARY KEY(k, j))${withoutRowid}`
    : `CREATE TABLE t(k${type}${collation()} PRIMARY KEY NOT NULL, a)${withoutRowid}`;
  const index = r() < 0.5
    ? `CREATE INDEX i ON t(a${collation()}${pick(["", " DESC"])}, k${collation()});`
    : "";
  const value = () =>
    r() < 0.8 ? pick(KEYS) : `${Math.floor(r() * 40) - 5}${r() < 0.3 ? ".5" : ""}`;
  const row = (i: number) => two ? `(${value()}, ${value()}, ${i})` : `(${value()}, ${i})`;
  const rows: string[] = [];
  const count = 30 + Math.floor(r() * (r() < 0.2 ? 3000 : 200));
  for (let i = 0; i < count; i++) rows.push(`INSERT OR IGNORE INTO t VALUES ${row(i)};`);
  const changes: string[] = [];
  for (let c = 0; c < 1 + Math.floor(r() * 15); c++) {
    const w = r();
    if (w < 0.3) changes.push(`INSERT OR IGNORE INTO t VALUES ${row(1000 + c)}`);
    else if (w < 0.5) changes.push(`DELETE FROM t WHERE k = ${value()}`);
    else if (w < 0.75) changes.push(`UPDATE OR IGNORE t SET a = ${value()} WHERE k = ${value()}`);
    else changes.push(`UPDATE OR IGNORE t SET k = ${value()} WHERE k = ${value()}`);
  }
  return files(r, `k${n}`, `${create}; ${index} ${rows.join("\n")}`, changes);
}

/** Row values, as SQL. */
const VALUES = [
  "NULL",
  "0",
  "1",
  "-1",
  "3.0",
  "3.5",
  "-0.0",
  "1e-320",
  "9007199254740993",
  "9.3e18",
  "1e300",
  "'a'",
  "'A'",
  "'a '",
  "''",
  "'é'",
  "char(256)",
  "x''",
  "x'00'",
  "x'61'",
  "'1'",
  "'1.0'",
  "printf('%.3000c', 'a')",
  "printf('%.70000c', 'q')",
  "zeroblob(5000)",
  "randomblob(20)",
  "CAST(x'ff' AS TEXT)",
  "'a' || char(0) || 'b'",
];

/** A rowid or keyless table's pair `n`. */
function rowsPair(n: number): Pair {
  const r = mulberry32(SEED + 100_000 + n);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const kind = pick(["rowid", "keyless", "keyless strict", "rowid strict", "generated", "added"]);
  const strict = kind.endsWith("strict");
  const cols = strict
    ? "a ANY, b ANY, c ANY"
    : pick(["a, b, c", "a TEXT, b INT, c REAL", "a BLOB, b NUMERIC, c"]);
  const generated = kind === "generated" ? ", g AS (a || b) STORED, h AS (c) VIRTUAL" : "";
  const create = kind === "keyless" || kind === "keyless strict"
    ? `CREATE TABLE t(${cols})${strict ? " STRICT" : ""}`
    : `CREATE TABLE t(id INTEGER PRIMARY KEY, ${cols}${generated})${strict ? " STRICT" : ""}`;
  const value = () =>
    r() < 0.7 ? pick(VALUES) : `${Math.floor(r() * 40) - 5}${r() < 0.3 ? ".5" : ""}`;
  const insert = () => `INSERT INTO t(a, b, c) VALUES (${value()}, ${value()}, ${value()})`;
  const rows: string[] = [];
  const count = 30 + Math.floor(r() * (r() < 0.2 ? 1000 : 200));
  for (let i = 0; i < count; i++) rows.push(`${insert()};`);
  const added = kind === "added"
    ? `ALTER TABLE t ADD COLUMN d ${pick(["", "INT", "TEXT"])} DEFAULT ${
      pick(["7", "'x'", "NULL", "1.5", "x'01'"])
    };`
    : "";
  const changes: string[] = [];
  for (let c = 0; c < 1 + Math.floor(r() * 15); c++) {
    const w = r();
    const some = (k: number) => `rowid % ${2 + Math.floor(r() * k)}`;
    if (w < 0.3) changes.push(insert());
    else if (w < 0.5) changes.push(`DELETE FROM t WHERE ${some(20)} = 0`);
    else if (w < 0.75) {
      changes.push(`UPDATE t SET ${pick(["a", "b", "c"])} = ${value()} WHERE ${some(30)} = 1`);
    } else changes.push("UPDATE t SET a = a WHERE rowid = 3");
    if (added !== "" && r() < 0.2) {
      changes.push(`UPDATE t SET d = ${pick(["7", "'x'", "NULL", "8"])} WHERE rowid % 5 = 0`);
    }
  }
  return files(r, `r${n}`, `${create}; ${rows.join("\n")} ${added}`, changes);
}

/** Table t's diff of `p` by the default strategies is the engine's alone. */
async function agrees(p: Pair): Promise<void> {
  for (const maxRows of [1000, 3]) {
    const want = await tableSeen(p.a, p.b, { maxRows }, "t", [ENGINE_ROWS]);
    const got = await tableSeen(p.a, p.b, { maxRows }, "t");
    if (got === want) continue;
    let i = 0;
    while (got[i] === want[i]) i++;
    const around = (s: string) => s.slice(Math.max(0, i - 200), i + 200);
    assert.fail(`${p.what}\ndiffer at ${i}:\n${around(got)}\nexpected:\n${around(want)}`);
  }
}

describe(`random tables, their rows paired as SQLite pairs them (seed ${SEED})`, () => {
  for (let n = 0; n < PAIRS; n++) it(`keyed pair ${n}`, () => agrees(keyedPair(n)));
  for (let n = 0; n < PAIRS; n++) it(`rowid or keyless pair ${n}`, () => agrees(rowsPair(n)));
});
