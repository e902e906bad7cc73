import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { makeDb, snapshotDir, tempDir } from "../../tests/fixtures.ts";
import { ReadOnly } from "../../rules/mod.ts";
import { diffSqliteDatabases } from "../diff/diff_sqlite.ts";
import { diffToJson } from "../diff/json.ts";
import type { AgentContext } from "./agent.ts";
import { agentDbSetup, copyAgentDb } from "./agent_db.ts";
import { defineCase } from "./cases.ts";
import { dbChange } from "./checks/db_change.ts";
import { dbDiffChange } from "./checks/db_diff_change.ts";
import { evaluate, runCase } from "./evaluate.ts";
import { Trace } from "./trace.ts";
import { runSuite } from "./suite.ts";
import type { TestCase } from "./case.ts";
import type { DatabaseDiff } from "../diff/types.ts";

const dir = tempDir();
after(() => dir.cleanup());

const USERS = `
  CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL, quota INTEGER);
  INSERT INTO users VALUES (1, 'alice', 'manager', 9007199254740993), (2, 'bob', 'editor', 5),
    (3, 'carol', 'viewer', NULL);
`;

/** Runs SQL on the case's copy, as a real agent would, and reports `reported` as its SQL. */
function sqlAgent(sql: string, reported = sql) {
  return (question: string, context: AgentContext) => {
    const db = new DatabaseSync(context.dbPath!);
    try {
      db.exec(sql);
    } finally {
      db.close();
    }
    return { sql: reported, rows: [], answer: `done: ${question}` };
  };
}

const PROMOTE = "UPDATE users SET role = 'admin' WHERE name = 'alice'";
const PROMOTE_ALL = "UPDATE users SET role = 'admin'";
const READ = "SELECT name FROM users";
const becameAdmin = {
  rows: {
    by_key: { id: 1 },
    changed: { where: [{ $before: { role: "manager" }, $after: { role: "admin" } }] },
  },
};
const otherRowChanged = { rows: { changed: { where: [{ $key: { id: { "$not-eq": 1 } } }] } } };

const verdicts: [string, string, Record<string, unknown>, string][] = [
  ["db_change passes when the agent made the change", PROMOTE, { db_change: becameAdmin }, "PASS"],
  ["db_change fails when the agent made no change", READ, { db_change: becameAdmin }, "FAIL"],
  ["db_unchanged passes when the agent only read", READ, { db_unchanged: true }, "PASS"],
  ["db_unchanged fails when the agent wrote", PROMOTE, { db_unchanged: true }, "FAIL"],
  ["db_no_change passes when the forbidden change did not happen", PROMOTE, {
    db_no_change: otherRowChanged,
  }, "PASS"],
  ["db_no_change fails when the agent touched another row", PROMOTE_ALL, {
    db_no_change: otherRowChanged,
  }, "FAIL"],
  [
    "db_change and db_no_change together fail on an over-reaching agent",
    PROMOTE_ALL,
    { db_change: becameAdmin, db_no_change: otherRowChanged },
    "FAIL",
  ],
];

for (const journal of ["delete", "wal-pending"] as const) {
  describe(`--agent-db on a ${journal === "delete" ? "rollback-journal" : "WAL"} database`, () => {
    const sub = tempDir();
    after(() => sub.cleanup());
    const source = makeDb(sub.file("users.db"), USERS, { journal });
    const untouched = snapshotDir(sub.path);

    for (const [name, sql, expect, verdict] of verdicts) {
      it(`gives ${verdict}: ${name}`, async () => {
        const c = defineCase({ question: name, expect });
        const card = await runCase(c, sqlAgent(sql), { agentDb: source });
        assert.equal(card.verdict, verdict, card.summary());
        assert.ok(card.checks.some((r) => r.name.startsWith("db_") && r.stage === "execute"));
        assert.deepEqual(snapshotDir(sub.path), untouched);
      });
    }

    it("catches with db_unchanged an agent whose reported SQL passes ReadOnly but that wrote", async () => {
      const stealth = sqlAgent(`${READ}; UPDATE users SET quota = quota + 1 WHERE id = 1`, READ);
      const c = defineCase({ question: "Who are the users?", expect: { db_unchanged: true } });
      const card = await runCase(c, stealth, { agentDb: source, rules: [new ReadOnly()] });
      const byName = Object.fromEntries(card.checks.map((r) => [r.name, r]));
      assert.equal(byName["read_only"]?.status, "PASS");
      assert.equal(byName["db_unchanged"]?.status, "FAIL");
      assert.match(
        byName["db_unchanged"]!.detail,
        /users\.db > users: 1 changed row \(id=1: quota 9007199254740993 -> 9007199254740994\)/,
      );
      assert.equal(card.verdict, "FAIL");
      assert.deepEqual(snapshotDir(sub.path), untouched);
    });

    it("stops a case whose agent grows its copy past the cap, as an ERROR that names the cap", async () => {
      let stopped = false;
      // Writes 4 MB into its copy, then waits for the case to be stopped.
      const grow = (_q: string, context: AgentContext) => {
        fs.appendFileSync(context.dbPath!, new Uint8Array(4 * 2 ** 20));
        return new Promise((resolve) => {
          context.signal?.addEventListener("abort", () => {
            stopped = true;
            resolve("stopped");
          });
        });
      };
      const card = await runCase(defineCase({ question: "Fill the disk" }), grow, {
        agentDb: source,
        agentDbMaxGrowthBytes: 2 ** 20,
        timeoutMs: 20_000,
      });
      assert.equal(card.verdict, "ERROR");
      assert.match(
        card.error!,
        /^the agent's copy of ".*" grew to 4 MB, 1 MB past the original \(--max-temp-mb\)$/,
      );
      assert.equal(stopped, true);
      assert.deepEqual(snapshotDir(sub.path), untouched);
    });

    it("names the original, not the removed temporary copy, when the agent overwrote its copy", async () => {
      const overwrite = (_q: string, context: AgentContext) => {
        fs.writeFileSync(context.dbPath!, "not a database: ".repeat(10));
        return "done";
      };
      const expects: [string, Record<string, unknown>][] = [
        ["expect.db_unchanged", { db_unchanged: true }],
        ["expect.db_change", { db_change: becameAdmin }],
        ["expect.db_no_change", { db_no_change: otherRowChanged }],
      ];
      for (const [what, expect] of expects) {
        const card = await runCase(defineCase({ question: what, expect }), overwrite, {
          agentDb: source,
        });
        assert.equal(card.verdict, "ERROR");
        assert.equal(
          card.error,
          `the case teardown failed: SqliteOpenError: Cannot open the agent's copy of "${source}": file is not a SQLite database (header is "not a database: ")`,
        );
        // --agent-db was given: the check must not tell the user to pass it.
        assert.deepEqual(card.checks.filter((r) => r.name.startsWith("db_")).map((r) => r.detail), [
          `${what} has no diff: the agent's copy of "${source}" could not be diffed (see the case's error)`,
        ]);
      }
      assert.deepEqual(snapshotDir(sub.path), untouched);
    });

    it("gives 20 cases the same results at concurrency 4 as at concurrency 1", async () => {
      const sqls = [
        PROMOTE,
        PROMOTE_ALL,
        READ,
        "DELETE FROM users WHERE id = 3",
        "INSERT INTO users VALUES (4, 'dan', 'viewer', 1)",
      ];
      const cases: TestCase[] = [];
      const plan = new Map<string, string>();
      for (let i = 0; i < 20; i++) {
        const question = `case ${i}`;
        plan.set(question, sqls[i % sqls.length]!);
        const expect = [{ db_change: becameAdmin }, { db_unchanged: true }, {
          db_no_change: otherRowChanged,
        }][i % 3]!;
        cases.push(defineCase({ id: `c${i}`, question, expect }));
      }
      const agent = (q: string, ctx: AgentContext) => sqlAgent(plan.get(q)!)(q, ctx);
      const serial = await runSuite(cases, agent, { agentDb: source, concurrency: 1 });
      const parallel = await runSuite(cases, agent, { agentDb: source, concurrency: 4 });
      const view = (r: typeof serial) =>
        r.cases.map((c) => [c.id, c.verdict, c.scorecard.dbDiff && diffToJson(c.scorecard.dbDiff)]);
      assert.deepEqual(view(parallel), view(serial));
      assert.deepEqual(
        serial.cases.map((c) => c.verdict),
        cases.map((_, i) => verdictFor(plan.get(`case ${i}`)!, i % 3)),
      );
      assert.deepEqual(snapshotDir(sub.path), untouched);
    });
  });
}

describe("db_no_change on a diff that kept only max_rows changes", () => {
  // The agent changes 1100 rows; the diff keeps the first 1000 (ids 1..1000).
  const source = makeDb(
    dir.file("many.db"),
    `CREATE TABLE users (id INTEGER PRIMARY KEY, role TEXT NOT NULL);
     WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1100)
     INSERT INTO users SELECT i, 'viewer' FROM n;`,
  );
  const everyone = sqlAgent("UPDATE users SET role = 'admin'");
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    [
      // The selector is asked while the diff runs: it sees rows the diff does
      // not keep (this was an ERROR, "cannot rule the change out").
      "fails when the forbidden change is past the rows the diff keeps",
      { rows: { by_key: { id: 1050 }, changed: "role" } },
      "FAIL",
      /^a forbidden change happened: many\.db > users > changed id=1050: role "viewer" -> "admin"$/,
    ],
    [
      "passes when no row past the kept ones has the forbidden change",
      { rows: { by_key: { id: 1050 }, changed: { where: { role: "root" } } } },
      "PASS",
      /^no such change$/,
    ],
    [
      "fails when the forbidden change is among the kept rows",
      { rows: { by_key: { id: 5 }, changed: "role" } },
      "FAIL",
      /^a forbidden change happened/,
    ],
    [
      "passes when the selector reads no rows",
      { tables: { status: "added" } },
      "PASS",
      /^no such change$/,
    ],
  ];
  it("makes dbDiffChange an ERROR, not a PASS of $not, when an extra change may be among the dropped rows", async () => {
    // Both change every row; only the agent also changes row 1050's role to 'root'.
    const reference = sqlAgent("UPDATE users SET role = 'admin'");
    const extra = sqlAgent(
      "UPDATE users SET role = CASE id WHEN 1050 THEN 'root' ELSE 'admin' END",
    );
    const card = await runCase(defineCase({ question: "Promote everyone" }), extra, {
      agentDb: source,
      rules: [dbDiffChange({ $not: {} }, { reference })],
    });
    const r = card.checks.find((x) => x.name === "db_diff_change");
    assert.equal(r?.status, "ERROR", r?.detail);
    assert.equal(
      r?.detail,
      "cannot tell the agent's own changes apart: the diffs dropped rows (reference: many.db > users: 1000 of 1100 changed rows kept; agent: many.db > users: 1000 of 1100 changed rows kept)",
    );
  });

  it("fails a db_change $not whose change is past the rows the diff keeps (it passed before)", async () => {
    const selector = { $not: { rows: { by_key: { id: 1050 }, changed: "role" } } };
    for (const rules of [[], [dbChange(selector)]]) {
      const expect = rules.length === 0 ? { db_change: selector } : {};
      const c = defineCase({ question: "Promote everyone", expect });
      const card = await runCase(c, everyone, { agentDb: source, rules });
      const r = card.checks.find((x) => x.name === "db_change");
      assert.equal(r?.status, "FAIL", r?.detail);
      assert.match(
        r!.detail,
        /\$not: the inner selector matches; many\.db > users > changed id=1050/,
      );
    }
  });

  it("gives ERROR, never PASS or FAIL, when a saved diff's kept rows cannot tell", async () => {
    const copy = copyAgentDb(source);
    try {
      await sqlAgent("UPDATE users SET role = 'admin'")("Q", { dbPath: copy.dbPath });
      const cut = await diffSqliteDatabases(source, copy.dbPath);
      const selector = { rows: { by_key: { id: 1050 }, changed: "role" } };
      for (
        const [check, expect] of [["db_change", { $not: selector }], ["db_no_change", selector]]
      ) {
        const card = await evaluate(Trace.simple("Q", { answer: "done" }), {
          question: "Q",
          expect: { [check as string]: expect },
        }, { dbDiff: cut });
        const r = card.checks.find((x) => x.name === check);
        assert.equal(r?.status, "ERROR", r?.detail);
        assert.match(
          r!.detail,
          /^cannot tell from the rows the diff kept: .*many\.db > users: none of the 1000 of 1100 changed rows the diff kept has \$key: id = 1050/,
        );
      }
    } finally {
      copy.dispose();
    }
  });

  for (const [name, selector, status, detail] of cases) {
    it(name, async () => {
      const c = defineCase({ question: name, expect: { db_no_change: selector } });
      const card = await runCase(c, everyone, { agentDb: source });
      const r = card.checks.find((x) => x.name === "db_no_change");
      assert.equal(r?.status, status, r?.detail);
      assert.match(r!.detail, detail);
    });
  }
});

/** The expected verdict of the concurrency test's case i: its SQL against its expectation. */
function verdictFor(sql: string, expectation: number): string {
  const promotesAlice = sql === PROMOTE || sql === PROMOTE_ALL;
  const changes = sql !== READ;
  // otherRowChanged looks at changed rows only: a delete or an insert is not one.
  const changesOtherRows = sql === PROMOTE_ALL;
  if (expectation === 0) return promotesAlice ? "PASS" : "FAIL";
  if (expectation === 1) return changes ? "FAIL" : "PASS";
  return changesOtherRows ? "FAIL" : "PASS";
}

describe("dbDiffChange()", () => {
  const source = makeDb(dir.file("ref.db"), USERS);
  const reference = sqlAgent(PROMOTE);
  const agent = sqlAgent(`${PROMOTE}; UPDATE users SET role = 'admin' WHERE id = 2`);
  const bobBecameAdmin = { rows: { by_key: { id: 2 }, changed: "role" } };
  const c = defineCase({ question: "Promote alice" });

  it("ignores a change the reference agent also makes", async () => {
    const card = await runCase(c, agent, {
      agentDb: source,
      rules: [dbDiffChange(becameAdmin, { reference })],
    });
    assert.equal(
      card.checks.find((r) => r.name === "db_diff_change")?.status,
      "FAIL",
      card.summary(),
    );
  });

  it("catches a change only the agent makes", async () => {
    const card = await runCase(c, agent, {
      agentDb: source,
      rules: [dbDiffChange(bobBecameAdmin, { reference })],
    });
    assert.equal(
      card.checks.find((r) => r.name === "db_diff_change")?.status,
      "PASS",
      card.summary(),
    );
  });

  it("takes a saved reference diff as well as a reference agent", async () => {
    const setup = agentDbSetup(source);
    const session = await setup(c);
    reference(c.question, session.context);
    const saved = (await session.finish())?.dbDiff;
    assert.ok(saved);
    const card = await runCase(c, agent, {
      agentDb: source,
      rules: [
        dbDiffChange(bobBecameAdmin, { reference: saved }),
        dbDiffChange(becameAdmin, { reference: saved }),
      ],
    });
    assert.deepEqual(card.checks.filter((r) => r.name === "db_diff_change").map((r) => r.status), [
      "PASS",
      "FAIL",
    ]);
  });

  describe("with a saved reference diff of a database named otherwise", () => {
    // Saved from other files, the reference names its database "ref_after.db";
    // paired by name, it shared nothing with the agent's "ref.db", so alice's
    // promotion counted as the agent's own change.
    const saved = diffSqliteDatabases(source, makeDb(dir.file("ref_after.db"), USERS + PROMOTE));
    const cases: [string, string, Record<string, unknown>, string][] = [
      ["ignores a change the reference also made", PROMOTE, becameAdmin, "FAIL"],
      ["passes $not for an agent doing just what the reference did", PROMOTE, { $not: {} }, "PASS"],
      [
        "catches a change only the agent made",
        `${PROMOTE}; UPDATE users SET role = 'admin' WHERE id = 2`,
        bobBecameAdmin,
        "PASS",
      ],
    ];
    for (const [name, sql, selector, status] of cases) {
      it(name, async () => {
        const card = await runCase(c, sqlAgent(sql), {
          agentDb: source,
          rules: [dbDiffChange(selector, { reference: await saved })],
        });
        const r = card.checks.find((x) => x.name === "db_diff_change");
        assert.equal(r?.status, status, r?.detail);
      });
    }
  });

  it("takes a saved diff read back from JSON, BLOBs and bigints included", async () => {
    const saved = JSON.parse(diffToJson(
      await diffSqliteDatabases(
        source,
        makeDb(dir.file("ref_json.db"), USERS + "UPDATE users SET quota = quota + 1 WHERE id = 1;"),
      ),
    ));
    const bump = sqlAgent("UPDATE users SET quota = quota + 1 WHERE id = 1");
    const card = await runCase(c, bump, {
      agentDb: source,
      rules: [dbDiffChange({ $not: {} }, { reference: saved })],
    });
    const r = card.checks.find((x) => x.name === "db_diff_change");
    assert.equal(r?.status, "PASS", r?.detail);
  });

  const badReferences: [string, unknown][] = [
    ["a path", "ref.json"],
    ["an object that is not a diff", {}],
  ];
  for (const [name, reference] of badReferences) {
    it(`refuses ${name} as the reference, at once and saying what it takes`, () => {
      assert.throws(
        () => dbDiffChange({}, { reference: reference as DatabaseDiff }),
        (e: unknown) =>
          e instanceof TypeError &&
          /^dbDiffChange\(\): the reference must be an agent function or a diff .*; the diff document is not/
            .test(e.message),
      );
    });
  }

  it("is an ERROR naming the databases when a several-database reference lacks the agent's", async () => {
    const one = await diffSqliteDatabases(source, source);
    const saved = {
      ...one,
      databases: [{ ...one.databases[0]!, name: "a.db" }, { ...one.databases[0]!, name: "b.db" }],
    };
    const card = await runCase(c, agent, {
      agentDb: source,
      rules: [dbDiffChange({}, { reference: saved })],
    });
    const r = card.checks.find((x) => x.name === "db_diff_change");
    assert.equal(r?.status, "ERROR");
    assert.equal(
      r?.detail,
      'the reference diff has no database named "ref.db" (it has "a.db", "b.db"); save the reference diff of that database',
    );
  });

  it("is an ERROR, not a silent pass, without --agent-db", async () => {
    const card = await runCase(c, () => "ok", { rules: [dbChange(becameAdmin)] });
    const r = card.checks.find((x) => x.name === "db_change");
    assert.equal(r?.status, "ERROR");
    // Built in code, the selector is not the case's expect.db_change.
    assert.equal(
      r!.detail,
      "db_change needs the agent's database: pass --agent-db FILE (API: agentDb)",
    );
  });
});

describe("copyAgentDb()", () => {
  it("copies the -wal too, and dispose() removes the copy's folder", () => {
    const source = makeDb(dir.file("walcopy.db"), USERS + "UPDATE users SET role = 'x';", {
      journal: "wal-pending",
    });
    const copy = copyAgentDb(source);
    const db = new DatabaseSync(copy.dbPath);
    assert.deepEqual(db.prepare("SELECT DISTINCT role FROM users").all().map((r) => ({ ...r })), [{
      role: "x",
    }]);
    db.close();
    copy.dispose();
    assert.throws(() =>
      new DatabaseSync(copy.dbPath, { readOnly: true }).prepare("SELECT 1").get()
    );
  });
});
