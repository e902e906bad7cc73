// A claim is never made on equal rows: SELECT a, a and SELECT a, a AS b give
// the same rows on every database, so neither order finds a counterexample.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { findCounterexample } from "./search.ts";

const dir = tempDir();
after(() => dir.cleanup());

describe("findCounterexample() pairs columns one-to-one", () => {
  const empty = makeDb(dir.file("empty.db"), "CREATE TABLE t (a INTEGER);");
  const cases: [string, string, string][] = [
    [
      "finds nothing for SELECT a, a against SELECT a, a AS b",
      "SELECT a, a AS b FROM t",
      "SELECT a, a FROM t",
    ],
    [
      "finds nothing for SELECT a, a AS b against SELECT a, a",
      "SELECT a, a FROM t",
      "SELECT a, a AS b FROM t",
    ],
    [
      "finds nothing when the aliases cross the values",
      "SELECT a AS x, a + 1 AS y FROM t",
      "SELECT a AS y, a + 1 AS x FROM t",
    ],
  ];
  for (const [name, reference, candidate] of cases) {
    it(name, async () => {
      const r = await findCounterexample({ db: empty, reference, candidate, budget: 60 });
      assert.equal(r.found, false, r.databaseSql);
    });
  }

  it("still finds a difference in the repeated column's values", async () => {
    const r = await findCounterexample({
      db: empty,
      reference: "SELECT a, a AS b FROM t",
      candidate: "SELECT a, a + 1 FROM t",
      budget: 60,
    });
    assert.equal(r.found, true);
  });
});
