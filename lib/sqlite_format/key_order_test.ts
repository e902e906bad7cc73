/**
 * Index key order against SQLite's own: sound indexes written by SQLite
 * (NULLs, integers past 2^53, reals, text under BINARY, NOCASE and RTRIM,
 * BLOBs, DESC fields, keys that spill to overflow pages) read in tree order
 * without a false alarm, and the same trees under the wrong fields found
 * out of order.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { SqliteDamageError } from "../errors.ts";
import { checkKeyOrder, type KeyField, KeyOrder } from "./key_order.ts";
import { CellStream } from "./cell_stream.ts";
import { PageSource } from "./page_source.ts";
import { readSchemaRows } from "./schema_rows.ts";

const dir = tempDir("dbagenteval-keyorder-");
after(() => dir.cleanup());

const file = makeDb(
  dir.file("k.db"),
  `PRAGMA page_size = 512;
  CREATE TABLE t(a, b TEXT COLLATE NOCASE, c TEXT);
  CREATE INDEX t_abc ON t(a, b, c COLLATE RTRIM DESC);
  CREATE TABLE w(k TEXT COLLATE NOCASE, n, v, PRIMARY KEY(k, n DESC)) WITHOUT ROWID;
  WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 600)
  INSERT INTO t SELECT
    CASE i % 8 WHEN 0 THEN NULL WHEN 1 THEN (i - 300) / 3.0 WHEN 2 THEN -(i % 9) * 1e-310
      WHEN 6 THEN 9007199254740993 + i % 5 WHEN 3 THEN -9223372036854775807 + i % 4
      WHEN 4 THEN x'00ff' || i WHEN 5 THEN i % 11 ELSE 'x' || (i % 13) END,
    CASE i % 3 WHEN 0 THEN 'Ab' WHEN 1 THEN 'aB' ELSE 'b' END || (i % 17),
    'c' || (i % 4) || substr('    ', 1, i % 3) || CASE WHEN i % 50 = 0 THEN printf('%.*c', 900, 'z') ELSE '' END
  FROM c;
  WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 400)
  INSERT INTO w SELECT CASE i % 2 WHEN 0 THEN 'K' ELSE 'k' END || (i % 97), i, i * 2.5 FROM c;`,
);

const ABC: KeyField[] = [
  { collation: "binary", desc: false },
  { collation: "nocase", desc: false },
  { collation: "rtrim", desc: true },
  // The rowid, which makes each entry unique.
  { collation: "binary", desc: false },
];
const W: KeyField[] = [{ collation: "nocase", desc: false }, { collation: "binary", desc: true }];

function rootOf(src: PageSource, name: string): number {
  return readSchemaRows(src, null).find((r) => r.name === name)!.rootpage;
}

/** Reads the tree at `root` through a stream told `order` (in "note" mode): whether it is in order. */
async function noted(src: PageSource, root: number, fields: KeyField[]): Promise<KeyOrder> {
  const order = new KeyOrder(fields, "index", "note");
  const cells = new CellStream(src, root, "index", null, "none");
  cells.order = order;
  for (;;) {
    await cells.ensure(1);
    if (!cells.has(0)) break;
    cells.skipLeaf();
  }
  await cells.close();
  return order;
}

describe("checkKeyOrder()", () => {
  it("reads SQLite's indexes in order, every field kind and spilled keys included", async () => {
    const src = PageSource.open(file);
    try {
      assert.equal(await checkKeyOrder(src, rootOf(src, "t_abc"), ABC, null, "i"), 600);
      assert.equal(await checkKeyOrder(src, rootOf(src, "w"), W, null, "w"), 400);
    } finally {
      src.close();
    }
  });

  it("finds the same trees out of order under the wrong fields", async () => {
    const src = PageSource.open(file);
    try {
      const root = rootOf(src, "w");
      assert.equal((await noted(src, root, W)).inOrder, true);
      // BINARY puts "K..." before "k...", which NOCASE interleaves.
      const binary: KeyField[] = [{ collation: "binary", desc: false }];
      assert.equal((await noted(src, root, binary)).inOrder, false);
      await assert.rejects(
        checkKeyOrder(
          src,
          rootOf(src, "t_abc"),
          [ABC[0]!, ABC[1]!, { ...ABC[2]!, desc: false }, ABC[3]!],
          null,
          "index t_abc",
        ),
        (e) => e instanceof SqliteDamageError && /index t_abc is not above/.test(e.message),
      );
    } finally {
      src.close();
    }
  });
});

describe("checkKeyOrder() in a UTF-16 file", () => {
  // SQLite's NOCASE and RTRIM are defined for UTF-8 only: in a UTF-16 file
  // they compare each text's UTF-8 form, which orders otherwise than the
  // file's bytes (U+0100 is 00 01 in UTF-16le, c4 80 in UTF-8; a trailing
  // space is 20 00, which no byte-wise trim sees), while BINARY compares
  // the UTF-16 bytes themselves.
  for (const encoding of ["UTF-16le", "UTF-16be"]) {
    it(`reads ${encoding} indexes under NOCASE, RTRIM and BINARY in order`, async () => {
      const db = makeDb(
        dir.file(`${encoding}.db`),
        `PRAGMA encoding = '${encoding}';
        CREATE TABLE t(k TEXT COLLATE NOCASE PRIMARY KEY, a) WITHOUT ROWID;
        CREATE TABLE r(k TEXT, a);
        CREATE INDEX r_rtrim ON r(k COLLATE RTRIM);
        CREATE INDEX r_binary ON r(k);
        INSERT INTO t VALUES (char(256), 1), ('b', 2), ('a', 3), (char(0x4e00), 4), ('B' || char(256), 5),
          ('é', 6), ('Z', 7), (char(0x10000), 8);
        INSERT INTO r SELECT k || ' ', a FROM t;
        INSERT INTO r VALUES ('a' || char(0) || 'b', 9), ('a  ', 10), (char(256) || ' x', 11);`,
      );
      const src = PageSource.open(db);
      const one = (collation: KeyField["collation"]): KeyField[] => [
        { collation, desc: false },
        { collation: "binary", desc: false },
      ];
      try {
        assert.equal(
          await checkKeyOrder(src, rootOf(src, "t"), one("nocase").slice(0, 1), null, "t"),
          8,
        );
        assert.equal(await checkKeyOrder(src, rootOf(src, "r_rtrim"), one("rtrim"), null, "r"), 11);
        assert.equal(
          await checkKeyOrder(src, rootOf(src, "r_binary"), one("binary"), null, "r"),
          11,
        );
        // The file's bytes are not the order NOCASE gives.
        const bytes: KeyField[] = [{ collation: "binary", desc: false }];
        assert.equal((await noted(src, rootOf(src, "t"), bytes)).inOrder, false);
      } finally {
        src.close();
      }
    });
  }
});
