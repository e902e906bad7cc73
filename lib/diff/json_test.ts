import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { UsageError } from "../errors.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import { diffFromJson, diffToJson } from "./json.ts";

const dir = tempDir();
after(() => dir.cleanup());

describe("diffToJson() and diffFromJson()", () => {
  it("round-trip a diff with bigints, BLOBs, reals, text and NULL without loss", async () => {
    const schema = "CREATE TABLE v(id INTEGER PRIMARY KEY, big, blob, r, s, z);";
    const a = makeDb(
      dir.file("a.db"),
      `${schema} INSERT INTO v VALUES (1, 9007199254740993, x'00ff10', 1.5, 'é😀', NULL);`,
    );
    const b = makeDb(
      dir.file("b.db"),
      `${schema} INSERT INTO v VALUES (1, -9223372036854775808, x'', 9e999, '', 0);
       INSERT INTO v VALUES (9223372036854775807, 1, x'31', -0.0, '1', 2.5);`,
    );
    const diff = await diffSqliteDatabases(a, b);
    const text = diffToJson(diff);
    assert.match(text, /"\$bigint": "9007199254740993"/);
    assert.match(text, /"\$blob": "AP8Q"/);
    assert.match(text, /"\$real": "Infinity"/);
    assert.deepEqual(diffFromJson(text), diff);
  });

  const bad: [string, string, RegExp][] = [
    ["text that is not JSON", "{nope", /not valid JSON/],
    ["a document of another version", '{"version":2,"settings":{},"databases":[]}', /"version"/],
    [
      "a table with a bad status",
      JSON.stringify({
        version: 1,
        settings: { include_schema: true, include_data: true, max_rows: 1, tables: null },
        databases: [{ name: "a" }],
      }),
      /"databases\.0\.path"/,
    ],
  ];
  for (const [name, text, message] of bad) {
    it(`diffFromJson() rejects ${name} with the JSON path`, () => {
      assert.throws(() => diffFromJson(text), (e: unknown) => {
        assert.ok(e instanceof UsageError);
        assert.match(e.message, message);
        return true;
      });
    });
  }
});
