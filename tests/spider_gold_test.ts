/**
 * Spider's dev gold, as published, runs on its databases: about a fifth of
 * it writes strings in double quotes, which the harness reads as the sqlite3
 * library does unless --strict-quotes.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { openDatabase } from "../lib/sqlite/database.ts";
import { sqliteExecutor } from "../lib/sqlite/executor.ts";

const DIR = new URL("./data/spider/", import.meta.url).pathname;

function gold(): { sql: string; db: string }[] {
  return readFileSync(`${DIR}dev_gold.sql`, "utf8").split("\n").filter((l) => l.trim() !== "")
    .map((line) => {
      const [sql, db] = line.split("\t");
      return { sql: sql!, db: db! };
    });
}

describe("Spider dev gold", () => {
  it("runs every one of the 972 gold queries without an error", async () => {
    const lines = gold();
    assert.equal(lines.length, 972);
    const dbs = new Map<string, Awaited<ReturnType<typeof openDatabase>>>();
    const failed: string[] = [];
    try {
      for (const { sql, db } of lines) {
        let open = dbs.get(db);
        if (open === undefined) {
          open = await openDatabase(`${DIR}database/${db}/${db}.sqlite`);
          dbs.set(db, open);
        }
        try {
          open.query(sql);
        } catch (e) {
          failed.push(`${db}: ${sql}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    } finally {
      for (const db of dbs.values()) db.close();
    }
    assert.deepEqual(failed, []);
  });

  it("reads a double-quoted name that is no column as a string, and refuses it when strict", async () => {
    const path = `${DIR}database/world_1/world_1.sqlite`;
    const sql = `SELECT count(*) AS n FROM country WHERE GovernmentForm = "Republic"`;
    const legacy = sqliteExecutor(path);
    const strict = sqliteExecutor(path, { strictQuotes: true });
    try {
      const rows = await legacy(sql);
      assert.ok(Number(rows[0]!["n"]) > 0);
      // A double-quoted name that is a column stays the column.
      assert.deepEqual(
        await legacy(`SELECT count(*) AS n FROM country WHERE "Code" = Code`),
        await legacy(`SELECT count(*) AS n FROM country`),
      );
      await assert.rejects(strict(sql), /no such column: "Republic"/);
    } finally {
      legacy.close();
      strict.close();
    }
  });
});
