import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { openSqliteDatabase } from "./sqlite.ts";

const CHINOOK = "examples/chinook/Chinook_Sqlite.sqlite";

describe("openSqliteDatabase() with a statement deadline", () => {
  it("opens even when the deadline is shorter than the open's own check (a worker may have to start)", async () => {
    // Under load the pool's first worker took more than a 5 s deadline to
    // start, and the open failed with "the SQL did not finish within 5 s".
    const db = await openSqliteDatabase(CHINOOK, { statementTimeoutMs: 1 });
    try {
      // The statements of the cases keep their deadline.
      await assert.rejects(
        db.execute(
          "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) SELECT count(*) FROM c",
        ),
        /did not finish within 0\.001 s/,
      );
    } finally {
      await db.close();
    }
  });
});
