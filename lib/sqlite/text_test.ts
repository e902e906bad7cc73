import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { openMemoryDatabase } from "./database.ts";
import { decodeSqliteText, encodeSqliteText, hasEscapedBytes } from "./text.ts";

describe("decodeSqliteText() and encodeSqliteText()", () => {
  const cases: [string, number[], string][] = [
    ["keeps ASCII", [0x61, 0x62], "ab"],
    ["keeps a leading BOM", [0xef, 0xbb, 0xbf, 0x78], "\ufeffx"],
    ["escapes a lone 0xff", [0xff], "\udcff"],
    ["escapes a truncated sequence byte by byte", [0xe2, 0x82], "\udce2\udc82"],
    ["escapes an overlong NUL", [0xc0, 0x80], "\udcc0\udc80"],
    ["keeps a 4-byte character", [0xf0, 0x9f, 0x98, 0x80], "\u{1f600}"],
    ["escapes a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80], "\udcf4\udc90\udc80\udc80"],
    ["keeps NUL bytes", [0x61, 0x00, 0x62], "a\u0000b"],
  ];
  for (const [name, bytes, text] of cases) {
    it(`decodeSqliteText() ${name}, and encodeSqliteText() gives the bytes back`, () => {
      assert.equal(decodeSqliteText(new Uint8Array(bytes)), text);
      assert.deepEqual([...encodeSqliteText(text)], bytes);
    });
  }

  it("encodeSqliteText(decodeSqliteText(b)) is b for 2,000 random byte strings", () => {
    let seed = 15;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      const bytes = new Uint8Array(Math.floor(random() * 12));
      for (let j = 0; j < bytes.length; j++) {
        // Mostly high bytes, where the invalid sequences are.
        bytes[j] = random() < 0.7 ? 0x80 + Math.floor(random() * 128) : Math.floor(random() * 128);
      }
      const text = decodeSqliteText(bytes);
      assert.deepEqual([...encodeSqliteText(text)], [...bytes]);
      assert.equal(hasEscapedBytes(text), !text.isWellFormed());
    }
  });

  it("Statement reads and binds text that is not UTF-8 exactly", async () => {
    const db = await openMemoryDatabase();
    try {
      const [row] = db.query(
        "SELECT CAST(x'61ff' AS TEXT) AS t, char(65279) || 'x' AS bom, hex(CAST(? AS BLOB)) AS back",
        ["\udcfe\ufeff"],
      );
      assert.deepEqual({ ...row }, { t: "a\udcff", bom: "\ufeffx", back: "FEEFBBBF" });
    } finally {
      db.close();
    }
  });
});
