import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { openMemoryDatabase } from "../sqlite/database.ts";
import { prepareSelect } from "./_wide_select.ts";

describe("prepareSelect() lazily", () => {
  it("reads a row's values after rows it skipped, across binds, in statements prepared late", async () => {
    const db = await openMemoryDatabase();
    try {
      // 1,500 columns: the lead statement and two parts (1,000 and 500).
      const cols = Array.from({ length: 1500 }, (_, i) => `c${i}`);
      db.exec(`CREATE TABLE t(id INTEGER PRIMARY KEY, ${cols.join(", ")})`);
      for (let r = 1; r <= 6; r++) {
        db.exec(`INSERT INTO t VALUES (${r}, ${cols.map((_, i) => r * 10000 + i).join(", ")})`);
      }
      const stmt = prepareSelect(
        db,
        ["id", ...cols],
        "FROM t WHERE id BETWEEN ? AND ? ORDER BY id",
        true,
      );
      const seen: number[][] = [];
      const read = (from: number, to: number, wanted: Set<number>): void => {
        stmt.bind([from, to]);
        while (stmt.step()) {
          const id = stmt.value(0) as number;
          if (wanted.has(id)) seen.push([id, stmt.value(1) as number, stmt.value(1500) as number]);
        }
      };
      read(2, 5, new Set([4]));
      read(1, 6, new Set([1, 6]));
      read(3, 3, new Set([3]));
      stmt.finalize();
      assert.deepEqual(seen, [
        [4, 40000, 41499],
        [1, 10000, 11499],
        [6, 60000, 61499],
        [3, 30000, 31499],
      ]);
    } finally {
      db.close();
    }
  });
});
