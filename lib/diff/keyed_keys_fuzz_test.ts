/**
 * Seeded random tables keyed by columns, their keys drawn from values whose
 * order is easy to get wrong (integers and reals that are equal or only
 * nearly, integers past 2^53, text under BINARY, NOCASE and RTRIM with case,
 * trailing spaces, NULs, non-ASCII and bytes that are no UTF-8, BLOBs that
 * prefix each other, keys that spill to overflow pages), in WITHOUT ROWID
 * and rowid tables, with a secondary index or none, page sizes from 512 to
 * 65536, UTF-8 and UTF-16: each pair's diff of table t, and every row event,
 * must be what SQLite's own pairing gives (the engine's strategy alone), on
 * sound files that nothing may call damaged.
 *
 * DBAGENTEVAL_KEY_FUZZ_PAIRS=2000 runs more pairs (default 150),
 * DBAGENTEVAL_KEY_FUZZ_SEED another seed.
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

const PAIRS = Number(process.env["DBAGENTEVAL_KEY_FUZZ_PAIRS"] ?? 150);
const SEED = Number(process.env["DBAGENTEVAL_KEY_FUZZ_SEED"] ?? 20261203);

const dir = tempDir();
after(() => dir.cleanup());

/** Key values, as SQL. */
const VALUES = [
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

/** Pair `n`: its two files and what made them. */
function pair(n: number): { a: string; b: string; what: string } {
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
    r() < 0.8 ? pick(VALUES) : `${Math.floor(r() * 40) - 5}${r() < 0.3 ? ".5" : ""}`;
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
  const encoding = r() < 0.3 ? `PRAGMA encoding = '${pick(["UTF-16le", "UTF-16be"])}';` : "";
  const first = `PRAGMA page_size = ${pick([512, 1024, 4096, 65536])}; ${encoding}`;
  const sql = `${first} BEGIN; ${create}; ${index} ${rows.join("\n")}`;
  const vacuum = r() < 0.3 ? "VACUUM" : "";
  const a = makeDb(dir.file(`a${n}.db`), `${sql} COMMIT`);
  const b = makeDb(dir.file(`b${n}.db`), `${sql} ${changes.join(";\n")}; COMMIT; ${vacuum}`);
  return { a, b, what: `${first}\n${create}; ${index}\n${changes.join(";\n")}; ${vacuum}` };
}

describe(`random keys, paired as SQLite pairs them (${PAIRS} seeded pairs, seed ${SEED})`, () => {
  for (let n = 0; n < PAIRS; n++) {
    it(`pair ${n}`, async () => {
      const { a, b, what } = pair(n);
      for (const maxRows of [1000, 3]) {
        const want = await tableSeen(a, b, { maxRows }, "t", [ENGINE_ROWS]);
        const got = await tableSeen(a, b, { maxRows }, "t");
        if (got === want) continue;
        let i = 0;
        while (got[i] === want[i]) i++;
        const around = (s: string) => s.slice(Math.max(0, i - 200), i + 200);
        assert.fail(`${what}\ndiffer at ${i}:\n${around(got)}\nexpected:\n${around(want)}`);
      }
    });
  }
});
