import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { sqlLiteral } from "./sql_text.ts";
import type { SqliteValue } from "./value.ts";

const exactLiteral = (v: SqliteValue): string => sqlLiteral(v, { exact: true });
import { needs } from "../../tests/system_packages.ts";

/** What the sqlite3 shell's ieee754(x) prints for a double (ext/misc/ieee754.c). */
function ieee754(x: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  let e = Number((bits >> 52n) & 0x7ffn);
  let m = bits & ((1n << 52n) - 1n);
  if (e === 0) m <<= 1n;
  else m |= 1n << 52n;
  while (e < 1075 && m > 0n && (m & 1n) === 0n) {
    m >>= 1n;
    e++;
  }
  if (m === 0n) e = 1075; // zero: ieee754(0,0)
  return `ieee754(${negative ? -m : m},${e - 1075})`;
}

describe("sqlLiteral(v, { exact: true })", () => {
  const cases: [string, unknown, string][] = [
    ["writes NULL", null, "NULL"],
    ["writes an integer as itself", 42, "42"],
    ["writes an integer beyond 2^53 in full", 9007199254740993n, "9007199254740993"],
    ["writes text that is not UTF-8 as a cast BLOB", "a\udcff", "CAST(x'61ff' AS TEXT)"],
    ["writes 0.5 as a product of powers of two", 0.5, "CAST(1 AS REAL)/2.0"],
    ["writes infinity as 9e999", Infinity, "9e999"],
  ];
  for (const [name, value, sql] of cases) {
    it(`exactLiteral() ${name}`, () => {
      assert.equal(exactLiteral(value as never), sql);
    });
  }

  it("exactLiteral() gives every double back exactly in the sqlite3 shell", {
    skip: needs("sqlite3"),
  }, () => {
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const view = new DataView(new ArrayBuffer(8));
    const values: number[] = [0.1, -2.2606631148481385e-299, 1e300, 5e-324, 0.0797777];
    while (values.length < 3000) {
      for (let i = 0; i < 8; i++) view.setUint8(i, Math.floor(random() * 256));
      const x = view.getFloat64(0);
      if (Number.isFinite(x) && !Object.is(x, -0)) values.push(x);
    }
    const sql = values.map((x) => `SELECT ieee754(${exactLiteral(x)});`).join("\n");
    // Through a file: a large stdin and stdout at once can fill both pipes.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-reals-"));
    const file = path.join(dir, "reals.sql");
    fs.writeFileSync(file, sql);
    const r = spawnSync("sqlite3", [":memory:", `.read ${file}`], { encoding: "utf8" });
    fs.rmSync(dir, { recursive: true, force: true });
    assert.equal(r.status, 0, r.stderr);
    const got = r.stdout.trim().split("\n");
    const wrong = values.filter((x, i) => got[i] !== ieee754(x));
    assert.deepEqual(wrong, []);
  });
});

describe("sqlLiteral() of text with unpaired surrogates (a UTF-16 database's)", () => {
  const cases: [string, string, { utf16?: "le" | "be" }, string][] = [
    ["writes one as char(), not U+FFFD", "a\ud800b", {}, "'a'||char(55296)||'b'"],
    ["keeps a surrogate pair whole", "\ud83d\ude00\udfff", {}, "'\ud83d\ude00'||char(57343)"],
    [
      "writes escaped bytes beside one as their cast",
      "\udcff\ud800",
      {},
      "CAST(x'ff' AS TEXT)||char(55296)",
    ],
    [
      "writes the UTF-16le bytes for a UTF-16le database",
      "a\ud800",
      { utf16: "le" },
      "CAST(x'610000d8' AS TEXT)",
    ],
    [
      "writes the UTF-16be bytes for a UTF-16be database",
      "a\udc80",
      { utf16: "be" },
      "CAST(x'0061dc80' AS TEXT)",
    ],
    ["leaves well-formed text as it is for a UTF-16 database", "é", { utf16: "le" }, "'é'"],
  ];
  for (const [name, text, options, sql] of cases) {
    it(`sqlLiteral() ${name}`, () => assert.equal(sqlLiteral(text, options), sql));
  }
});
