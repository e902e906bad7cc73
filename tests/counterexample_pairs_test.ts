/**
 * A sample of the counterexample benchmark's pairs, in-process: every near
 * miss is caught, no equivalent rewrite is claimed, and every claimed
 * counterexample reproduces in two other SQLite builds (the sqlite3 shell
 * and node:sqlite) with the schema's constraints on. The benchmark
 * (bench/counterexample.ts) runs all of them.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { tempDir } from "./fixtures.ts";
import { findCounterexample } from "../lib/counterexample/search.ts";
import { build, reproduce, tableSql, validate } from "../bench/counterexample_check.ts";
import { instances, LAB_SQL, type PairDb, SHOP_SQL } from "../bench/counterexample_pairs.ts";
import { ROOT } from "./cli.ts";

const dir = tempDir();
after(() => dir.cleanup());
const files: Record<PairDb, string> = {
  chinook: path.join(ROOT, "examples/chinook/Chinook_Sqlite.sqlite"),
  shop: build(dir.path, "shop.db", SHOP_SQL),
  lab: build(dir.path, "lab.db", LAB_SQL),
};
const schemas = {
  chinook: tableSql(files.chinook),
  shop: tableSql(files.shop),
  lab: tableSql(files.lab),
};

// One instance of each family on each database keeps the test short.
const seen = new Set<string>();
const sample = instances().filter((i) => {
  const key = `${i.db}/${i.family}`;
  if (seen.has(key) || validate(i, files[i.db], schemas[i.db]) !== null) return false;
  seen.add(key);
  return true;
});

describe("the counterexample benchmark's pairs", () => {
  it("has a sample of every family, each instance valid", () => {
    assert.ok(sample.length >= 25, `${sample.length} instances`);
  });
  for (const i of sample) {
    for (const kind of ["near miss", "equivalent"] as const) {
      const candidate = kind === "near miss" ? i.nearMiss : i.equivalent;
      it(`${kind === "near miss" ? "catches" : "claims nothing for"} ${i.db} / ${i.family}: ${candidate}`, async () => {
        const r = await findCounterexample({ db: files[i.db], reference: i.reference, candidate });
        assert.equal(r.found, kind === "near miss");
        if (r.found) {
          const problem = reproduce(
            r.databaseSql!,
            { reference: i.reference, candidate, ordered: i.ordered ?? false },
            schemas[i.db],
          );
          assert.equal(problem, null, r.databaseSql);
        }
      });
    }
  }
});
