/**
 * End to end: the SQL rules in a `run`, per dialect, through the CLI or the
 * compiled binary (DBAGENTEVAL_BIN). PostgreSQL SQL is read by PostgreSQL's
 * own parser (libpg-query's WASM), which the binary carries as an asset.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { makeDb, tempDir } from "./fixtures.ts";
import { ROOT, runCli } from "./cli.ts";

const dir = tempDir("dbagenteval-rules-cli-");
after(() => dir.cleanup());

const MOD = JSON.stringify(pathToFileURL(path.join(ROOT, "mod.ts")).href);
fs.writeFileSync(
  dir.file("pg.ts"),
  `import { AllowedColumns, AllowedTables, ReadOnly, TenantFilter } from ${MOD};
// SQL node-sql-parser cannot read: SUBSTRING ... FROM ... FOR, an array cast, WITHIN GROUP.
const READ = "SELECT substring(o.status FROM 1 FOR 3) AS s, o.tags::text[] AS t, " +
  "percentile_cont(0.5) WITHIN GROUP (ORDER BY o.amount) AS m FROM orders o " +
  "WHERE o.store_id = 's1' GROUP BY 1, 2";
const SQL: Record<string, string> = {
  read: READ,
  write: "WITH gone AS (DELETE FROM orders WHERE store_id = 's1' RETURNING id) SELECT count(*) FROM gone",
  broken: "SELECT FROM WHERE",
};
export const agent = (q: string) => ({ sql: SQL[q], answer: "ok" });
const dialect = "postgres";
export const RULES = [
  new ReadOnly({ dialect }),
  new TenantFilter("store_id", { value: "s1", dialect }),
  new AllowedTables(["orders"], { dialect }),
  new AllowedColumns(["status", "tags", "amount", "store_id"], { dialect }),
];
`,
);
fs.writeFileSync(
  dir.file("pg.yaml"),
  "- id: read\n  question: read\n- id: write\n  question: write\n- id: broken\n  question: broken\n",
);

makeDb(dir.file("shop.db"), "CREATE TABLE orders (id INTEGER, store_id TEXT, note TEXT);");
fs.writeFileSync(
  dir.file("lite.ts"),
  `import { AllowedColumns, ReadOnly } from ${MOD};
const SQL: Record<string, string> = {
  intersect: "SELECT id FROM orders WHERE store_id = 's1' INTERSECT SELECT id FROM orders",
  note: "SELECT note FROM orders",
};
export const agent = (q: string) => ({ sql: SQL[q], answer: "ok" });
export const RULES = [new ReadOnly(), new AllowedColumns(["id", "store_id"])];
`,
);
fs.writeFileSync(
  dir.file("lite.yaml"),
  "- id: intersect\n  question: intersect\n- id: note\n  question: note\n",
);

/** Each test starts the CLI or the binary, which loads a parser: slow on a busy machine. */
const SLOW = { timeout: 120_000 };

describe("SQL rules in a run", () => {
  it(
    "run --db compiles SQLite SQL on the database: INTERSECT passes, a column not allowed fails",
    SLOW,
    () => {
      const before = fs.readFileSync(dir.file("shop.db"));
      const r = runCli(
        [
          "run",
          "lite.yaml",
          "--agent",
          "lite.ts:agent",
          "--rules",
          "lite.ts:RULES",
          "--db",
          "shop.db",
        ],
        { cwd: dir.path },
      );
      assert.match(r.stdout, /^PASS {2}intersect\n/m, r.stdout + r.stderr);
      assert.match(
        r.stdout,
        /^FAIL {2}note\n +generate \/ allowed_columns: columns not allowed: \['note'\]/m,
      );
      assert.equal(r.code, 1, r.stderr);
      assert.deepEqual(fs.readFileSync(dir.file("shop.db")), before);
    },
  );

  it(
    "run reads PostgreSQL with PostgreSQL's parser: a read passes, a write in a CTE fails",
    SLOW,
    () => {
      const r = runCli(["run", "pg.yaml", "--agent", "pg.ts:agent", "--rules", "pg.ts:RULES"], {
        cwd: dir.path,
      });
      assert.match(r.stdout, /^PASS {2}read\n/m, r.stdout + r.stderr);
      assert.match(r.stdout, /^FAIL {2}write\n +generate \/ read_only: DELETE inside the query/m);
      assert.match(
        r.stdout,
        /^FAIL {2}broken\n +generate \/ read_only: cannot parse the SQL as postgres \(line 1, column 13\): syntax error at or near "WHERE"/m,
      );
      assert.equal(r.code, 1, r.stderr);
    },
  );
});
