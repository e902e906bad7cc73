import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { openDatabase } from "../sqlite/database.ts";
import { namedRoots } from "./_named_roots.ts";
import { readSchema } from "./schema.ts";

const dir = tempDir();
after(() => dir.cleanup());
let n = 0;

/** The root pages readSchema gives for `names`. */
async function sqliteRoots(file: string, names: string[]): Promise<number[]> {
  const db = await openDatabase(file);
  try {
    return [...readSchema(db, "main", { tables: names }).tables.values()].map((t) => t.rootPage)
      .filter((p) => p > 0)
      .sort((x, y) => x - y);
  } finally {
    db.close();
  }
}

const MANY = Array.from({ length: 300 }, (_, i) => `CREATE TABLE m${i}(id INTEGER PRIMARY KEY, v)`)
  .join("; ");
const LONG = `CREATE TABLE long_sql(id INTEGER PRIMARY KEY, ${
  Array.from({ length: 400 }, (_, i) => `column_${i} TEXT`).join(", ")
})`;

describe("namedRoots()", () => {
  // name, schema, names asked for
  const cases: [string, string, string[]][] = [
    ["finds a table in another ASCII case", "CREATE TABLE Users(id); CREATE TABLE o(x)", ["USERS"]],
    [
      "leaves out the table's index and a view named for it",
      "CREATE TABLE t(id, v); CREATE INDEX t_v ON t(v); CREATE VIEW w AS SELECT 1",
      ["t", "w"],
    ],
    ["does not fold non-ASCII letters", 'CREATE TABLE "É"(x); CREATE TABLE "é"(y)', ["é"]],
    ["reads a schema of several pages", `${MANY}; CREATE TABLE last(x)`, ["m7", "m299", "last"]],
    ["reads a row whose CREATE statement spills", `${MANY}; ${LONG}`, ["long_sql", "m0"]],
    [
      "reads past a row whose names spill to overflow pages",
      `CREATE TABLE "${"n".repeat(3000)}"(x); CREATE TABLE t(x)`,
      ["t"],
    ],
    [
      "finds a table whose name spills to overflow pages",
      `CREATE TABLE "${"N".repeat(3000)}"(x); CREATE TABLE t(x)`,
      ["n".repeat(3000)],
    ],
    [
      "finds WITHOUT ROWID tables, and no virtual table",
      "CREATE TABLE w(k PRIMARY KEY) WITHOUT ROWID; CREATE VIRTUAL TABLE f USING fts5(x)",
      ["w", "f"],
    ],
  ];
  for (const [name, schema, names] of cases) {
    it(name, async () => {
      const file = makeDb(dir.file(`r${++n}.db`), schema);
      const roots = namedRoots(file, file, names);
      assert.notEqual(roots, null);
      const want = await sqliteRoots(file, names);
      assert.ok(want.length > 0);
      assert.deepEqual([...roots!.before].sort((x, y) => x - y), want);
      assert.deepEqual([...roots!.after].sort((x, y) => x - y), want);
    });
  }

  it("gives null for a UTF-16 file", () => {
    const file = makeDb(dir.file(`r${++n}.db`), "PRAGMA encoding = 'UTF-16le'; CREATE TABLE t(x)");
    assert.equal(namedRoots(file, file, ["t"]), null);
  });
});
