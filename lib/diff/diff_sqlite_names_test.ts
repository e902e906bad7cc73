import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { diffSql, rowSummary } from "./_test_util.ts";

describe("diffSqliteDatabases() pairs tables by name as SQLite does", () => {
  const cases: [string, string, string, unknown][] = [
    [
      "pairs a table renamed only in case, under its after name",
      "CREATE TABLE Users(id INTEGER PRIMARY KEY, name); INSERT INTO Users VALUES (1, 'a');",
      "CREATE TABLE users(id INTEGER PRIMARY KEY, name); INSERT INTO users VALUES (1, 'b');",
      [["users", "changed", {
        added: [],
        removed: [],
        changed: [{
          key: { id: 1 },
          before: { id: 1, name: "a" },
          after: { id: 1, name: "b" },
          changed_columns: ["name"],
        }],
      }]],
    ],
    [
      "keeps tables whose names differ beyond ASCII case apart, as SQLite does",
      `CREATE TABLE "É"(a); CREATE TABLE "é"(a); INSERT INTO "É" VALUES (1);`,
      `CREATE TABLE "É"(a); CREATE TABLE "é"(a); INSERT INTO "é" VALUES (2);`,
      [
        ["É", "changed", { added: [], removed: [{ a: 1 }], changed: [] }],
        ["é", "changed", { added: [{ a: 2 }], removed: [], changed: [] }],
      ],
    ],
  ];
  for (const [name, before, after, expected] of cases) {
    it(`diffSqliteDatabases() ${name}`, async () => {
      const db = await diffSql(before, after);
      assert.deepEqual(db.tables.map((t) => [t.name, t.status, rowSummary(t)]), expected);
    });
  }
});
