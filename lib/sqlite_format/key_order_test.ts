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
