import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { openMemoryDatabase } from "../sqlite/database.ts";
import type { SqliteValue } from "../sqlite/value.ts";
import { databaseScript } from "./render.ts";
import type { SearchSchema } from "./schema.ts";

const schema: SearchSchema = {
  tables: [{
    name: "t",
    createSql: "CREATE TABLE t(v)",
    indexSql: [],
    columns: [{ name: "v", declaredType: "", affinity: "BLOB", notNull: false, pk: 0 }],
    foreignKeys: [],
    uniqueSets: [],
    rowidAlias: null,
    withoutRowid: false,
  }],
  read: new Set(["t"]),
  viewSql: [],
};

describe("databaseScript()", () => {
  const values: [string, SqliteValue][] = [
    ["text that is not valid UTF-8", "a\udcff"],
    ["text with a byte-order mark", "\ufeffx"],
    ["a BLOB", new Uint8Array([0, 255])],
    ["an integer beyond 2^53", 9007199254740993n],
    ["a quote", "O'Brien"],
  ];
  for (const [name, value] of values) {
    it(`writes ${name} so that the script builds it again`, async () => {
      const script = databaseScript(schema, new Map([["t", [[value]]]]));
      const db = await openMemoryDatabase();
      try {
        db.exec(script);
        const [row] = db.query("SELECT v FROM t");
        assert.deepEqual(row?.["v"], value, script);
      } finally {
        db.close();
      }
    });
  }
});
