import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import { heldRows } from "./_held_rows.ts";
import { table } from "./_test_util.ts";
import { renderDiffText } from "./render_text.ts";
import { diffToJson } from "./json.ts";
import type { AddedRow } from "./types.ts";

/** Columns c0, c1, ... then "10" and "9": a built row lists "9" and "10" first. */
const columns = (width: number): string[] => [
  ...Array.from({ length: width - 2 }, (_, i) => `c${i}`),
  "10",
  "9",
];

/** Table `name` of `rows` rows, column j of row i holding i * 10000 + j; `key` declares id. */
function fill(name: string, width: number, rows: number, key = false): string {
  const names = columns(width);
  const cols = names.map((n) => `"${n}"`);
  return `CREATE TABLE ${name}(${key ? "id TEXT PRIMARY KEY, " : ""}${cols.join(", ")});
    WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${rows})
    INSERT INTO ${name} SELECT ${key ? "NULL, " : ""}${
    names.map((_, j) => `i * 10000 + ${j}`).join(", ")
  } FROM s;`;
}

/** The row `i` of {@link fill}, column "9" negated when `negated`. */
function expectedRow(width: number, i: number, negated: boolean): Record<string, number> {
  const row: Record<string, number> = {};
  columns(width).forEach((n, j) => (row[n] = i * 10000 + j));
  if (negated) row["9"] = -row["9"]!;
  return row;
}

describe("diffSqliteDatabases() holds the wide rows of keyless tables as values", () => {
  it("reports them as before: the same values, order, JSON and text", async () => {
    const dir = tempDir();
    try {
      // n: multiset by GROUP BY; m (1,000 columns): multiset by merged sorts;
      // z: rows whose key is NULL; o: only before (whole, value order);
      // p: only after, keyed (whole, key order).
      const common = fill("n", 150, 30) + fill("m", 1000, 3) + fill("z", 150, 4, true);
      const a = makeDb(dir.file("a.db"), common + fill("o", 150, 3));
      const b = makeDb(
        dir.file("b.db"),
        common + fill("p", 150, 2, true) +
          `UPDATE n SET "9" = -"9" WHERE rowid % 10 = 0; UPDATE m SET "9" = -"9" WHERE rowid = 2;
           UPDATE z SET "9" = -"9" WHERE rowid = 3;`,
      );
      const diff = await diffSqliteDatabases(a, b, {});
      const db = diff.databases[0]!;
      const rows = (name: string, kind: "added" | "removed"): readonly AddedRow[] =>
        table(db, name).rows[kind];
      const expected: [string, "added" | "removed", unknown[]][] = [
        ["n", "added", [10, 20, 30].map((i) => expectedRow(150, i, true))],
        ["n", "removed", [10, 20, 30].map((i) => expectedRow(150, i, false))],
        ["m", "added", [expectedRow(1000, 2, true)]],
        ["m", "removed", [expectedRow(1000, 2, false)]],
        ["z", "added", [{ id: null, ...expectedRow(150, 3, true) }]],
        ["z", "removed", [{ id: null, ...expectedRow(150, 3, false) }]],
        ["o", "removed", [1, 2, 3].map((i) => expectedRow(150, i, false))],
        ["p", "added", [1, 2].map((i) => ({ id: null, ...expectedRow(150, i, false) }))],
      ];
      for (const [name, kind, want] of expected) {
        const got = rows(name, kind);
        assert.deepEqual(got.map((r) => structuredClone(r.row)), want, `${name} ${kind}`);
        assert.ok(got.every((r) => heldRows(r) !== undefined), `${name} ${kind} held`);
      }
      assert.deepEqual(structuredClone(rows("z", "added")[0]!.key), { id: null });
      // A plain copy (getters read, nothing held) renders as the rows did
      // when they were objects.
      const plain = structuredClone(diff);
      assert.equal(diffToJson(diff), diffToJson(plain));
      // tableRows: a table on one side lists its rows too (it is one line by default).
      const all = { tableRows: true };
      assert.equal(renderDiffText(diff, all), renderDiffText(plain, all));
      assert.ok(
        renderDiffText(diff, all).split("\n").includes(
          `  - 9=10149, 10=10148, ${
            Array.from({ length: 148 }, (_, j) => `c${j}=${10000 + j}`).join(", ")
          }`,
        ),
      );
    } finally {
      dir.cleanup();
    }
  });
});
