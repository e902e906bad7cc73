import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { defineCase } from "../eval/cases.ts";
import { markdownReport } from "../eval/report_md.ts";
import { parseRunFile, toRunFile } from "../eval/run_file.ts";
import { runSuite } from "../eval/suite.ts";
import { Trace } from "../eval/trace.ts";
import { COUNTEREXAMPLE_CHECK_SOURCE, CounterexampleCheck } from "./check.ts";
import { sqliteExecutor } from "../sqlite/executor.ts";

const dir = tempDir();
after(() => dir.cleanup());
const db = makeDb(
  dir.file("shop.db"),
  `CREATE TABLE orders (id INTEGER PRIMARY KEY, tenant TEXT NOT NULL, amount INTEGER NOT NULL);
   INSERT INTO orders VALUES (1, 'acme', 10), (2, 'acme', 40), (3, 'acme', 45);`,
);
const REFERENCE = "SELECT count(*) AS n FROM orders WHERE tenant = 'acme' AND amount > 20";

// [name, case fields, agent SQL, agent rows, expected status or null for no finding]
const cases: [
  string,
  Record<string, unknown>,
  string | undefined,
  Record<string, unknown>[],
  string | null,
][] = [
  [
    "fails a query right only by coincidence",
    {},
    "SELECT count(*) AS n FROM orders WHERE amount > 20",
    [{ n: 2 }],
    "FAIL",
  ],
  [
    "passes an equivalent query",
    {},
    "SELECT count(1) AS n FROM orders WHERE amount > 20 AND 'acme' = tenant",
    [{ n: 2 }],
    "PASS",
  ],
  [
    "says nothing when the case opts out",
    { counterexample: false },
    "SELECT count(*) AS n FROM orders",
    [{ n: 2 }],
    null,
  ],
  [
    "says nothing when the rows already differ",
    {},
    "SELECT count(*) AS n FROM orders",
    [{ n: 3 }],
    null,
  ],
  ["says nothing without the agent's SQL", {}, undefined, [{ n: 2 }], null],
  ["skips a query that does not run on the database", {}, "SELECT count(*) AS n FROM order_lines", [
    { n: 2 },
  ], "SKIP"],
];

describe("CounterexampleCheck", () => {
  for (const [name, fields, sql, rows, expected] of cases) {
    it(name, async () => {
      const testCase = defineCase({ question: "Q", reference_sql: REFERENCE, ...fields });
      const trace = Trace.simple("Q", { ...(sql !== undefined ? { sql } : {}), rows });
      const findings = await new CounterexampleCheck({ db }).run(trace, testCase, {
        referenceRows: [{ n: 2 }],
      });
      assert.deepEqual(findings.map((f) => f.status), expected === null ? [] : [expected]);
      if (expected === "FAIL") {
        assert.equal(findings[0]!.stage, "generate");
        assert.match(
          findings[0]!.detail,
          /^right only on this data: on a database of \d+ row\(s\)/,
        );
        assert.match(findings[0]!.counterexample!.database_sql, /CREATE TABLE orders/);
      }
    });
  }

  it("passes the reference SQL itself, spaced otherwise, without a search", async () => {
    const testCase = defineCase({ question: "Q", reference_sql: REFERENCE });
    const sql = `  ${REFERENCE.replace(" AND ", "\n  AND ")};`;
    const trace = Trace.simple("Q", { sql, rows: [{ n: 2 }] });
    // A database that does not exist: a search would fail to open it.
    const findings = await new CounterexampleCheck({ db: dir.file("none.db") }).run(
      trace,
      testCase,
      { referenceRows: [{ n: 2 }] },
    );
    assert.deepEqual(findings.map((f) => [f.status, f.detail]), [
      ["PASS", "the agent's SQL is the reference SQL"],
    ]);
  });

  it("keeps the script and both results in the run file and shows them in the Markdown report", async () => {
    const execute = sqliteExecutor(db);
    try {
      const testCases = [
        defineCase({ id: "coincidence", question: "Q", reference_sql: REFERENCE }),
        defineCase({ id: "no-sql", question: "Q2", reference_sql: REFERENCE }),
      ];
      const agent = (q: string) =>
        q === "Q"
          ? { sql: "SELECT count(*) AS n FROM orders WHERE amount > 20", rows: [{ n: 2 }] }
          : { rows: [{ n: 2 }] };
      const result = await runSuite(testCases, agent, {
        execute,
        counterexamples: { db },
        checkSources: [COUNTEREXAMPLE_CHECK_SOURCE],
      });
      const run = parseRunFile(JSON.stringify(toRunFile(result)), "run.json");
      const saved = run.cases.find((c) => c.id === "coincidence")!;
      assert.equal(saved.verdict, "FAIL");
      assert.equal(saved.failed_stage, "generate");
      assert.match(saved.counterexample!.database_sql, /^PRAGMA foreign_keys = ON;/);
      assert.ok(saved.counterexample!.reference_rows.length > 0);
      assert.equal(run.cases.find((c) => c.id === "no-sql")!.counterexample, undefined);
      const md = markdownReport(run);
      assert.match(md, /## Counterexamples\n/);
      assert.match(md, /### coincidence\n\n```sql\nPRAGMA foreign_keys = ON;/);
      assert.match(md, /- reference rows: `\[/);
    } finally {
      execute.close();
    }
  });
});
