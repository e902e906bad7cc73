import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { UsageError } from "../errors.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import { diffFromJson, diffToJson, writeDiffJson } from "./json.ts";

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

  it("writeDiffJson() writes diffToJson()'s text, in pieces no larger than a row change", async () => {
    // Values JSON has no literal for, a column named __proto__ and columns
    // named like array indexes (JavaScript lists those first); the after
    // side, then no after side (every table removed).
    // Table w is as wide as a row held as its values (_held_rows.ts).
    const filler = Array.from({ length: 120 }, (_, i) => `f${i}`);
    const schema = `CREATE TABLE t(id INTEGER PRIMARY KEY, "__proto__", "10", "2", big, blob, r);
      CREATE TABLE e(x); CREATE TABLE "a""b"(y);
      CREATE TABLE w(id INTEGER PRIMARY KEY, "__proto__", "10", "2", big, blob, r, ${
      filler.join(", ")
    });`;
    const rowsOf = (table: string, rows: string[]): string =>
      rows.map((r) => `INSERT INTO ${table} VALUES (${r});`).join("\n") + "\n" +
      rows.map((r) =>
        `INSERT INTO w VALUES (${r}, ${
          filler.map((_, i) => (i % 3 === 0 ? "NULL" : i)).join(", ")
        });`
      ).join("\n");
    const a = makeDb(
      dir.file("pieces_a.db"),
      schema + rowsOf("t", [
        `1, 'p', 'ten', 'two', 9007199254740993, x'00ff', -0.0`,
        `2, NULL, '', 'é\n"😀', 1, x'', 9e999`,
      ]),
    );
    const b = makeDb(
      dir.file("pieces_b.db"),
      schema + rowsOf("t", [
        `1, 'q', 'ten', 'two', 9007199254740993, x'00fe', 0.0`,
        `3, 'p', 'x', 'y', -9223372036854775808, x'31', -9e999`,
      ]),
    );
    for (const diff of [await diffSqliteDatabases(a, b), await diffSqliteDatabases(a, null)]) {
      const pieces: string[] = [];
      writeDiffJson(diff, (piece) => pieces.push(piece));
      assert.equal(pieces.join(""), diffToJson(diff));
      // Each row change has one "key": no piece holds two.
      const most = Math.max(...pieces.map((p) => p.split(`"key": `).length - 1));
      assert.equal(most, 1);
    }
  });

  const names: [string, string][] = [
    ["a column named $bigint holding digits", `"$bigint" TEXT`],
    ["a column named $blob holding base64 text", `"$blob" TEXT`],
    ["a column named $real holding a special real's name", `"$real" TEXT`],
  ];
  for (const [name, column] of names) {
    it(`round-trip a keyless table with only ${name}`, async () => {
      const file = makeDb(
        dir.file(`${name.replaceAll(/\W/g, "")}.db`),
        `CREATE TABLE t(${column}); INSERT INTO t VALUES ('12'), ('Infinity'), ('AP8Q');
         CREATE TABLE k(${column} PRIMARY KEY, v); INSERT INTO k VALUES ('12', 1);`,
      );
      const diff = await diffSqliteDatabases(null, file);
      assert.deepEqual(diffFromJson(diffToJson(diff)), diff);
    });
  }

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
    [
      "a row value that is an object but not an encoded value",
      JSON.stringify({
        version: 1,
        settings: { include_schema: true, include_data: true, max_rows: 1, tables: null },
        databases: [{
          name: "a.db",
          path: "a.db",
          before_path: null,
          after_path: "a.db",
          exists_before: false,
          exists_after: true,
          status: "added",
          tables: [{
            name: "t",
            status: "added",
            schema_status: "added",
            data_status: "changed",
            key: [],
            key_kind: "none",
            compared_columns: [],
            columns: { added: [], removed: [], changed: [] },
            rows: {
              added: [{ key: null, row: { a: { $bigint: "x" } } }],
              removed: [],
              changed: [],
            },
            counts: { added: 1, removed: 0, changed: 0 },
            truncated: false,
            sql_before: null,
            sql_after: "CREATE TABLE t(a)",
          }],
          objects: [],
          skipped: [],
          error: null,
        }],
      }),
      /"databases\.0\.tables\.0\.rows\.added\.0\.row\.a".*SQLite value/,
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
