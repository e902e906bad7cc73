/**
 * An agent that changes a database: it administers users and to-do items in
 * the SQLite file the harness hands it (`context.dbPath`, a fresh copy per
 * case with `--agent-db`). It imports nothing from dbagenteval and returns
 * plain objects, so the downloaded binary can test it as it is.
 *
 *   dbagenteval run examples/db_agent/cases.yaml --agent examples/db_agent/agent.ts:agent \
 *     --agent-db examples/db_agent/users.db
 *
 * Two of its answers are wrong on purpose:
 * - "Deactivate bob" also resets alice's role (a row it must not touch);
 * - "Which users are admins?" reports a read-only query but also writes a
 *   log row it never mentions.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";

type Plan = { sql: string; hidden?: string; answer: string };

const PLANS: Record<string, Plan> = {
  "Promote alice to admin": {
    sql: "UPDATE users SET role = 'admin' WHERE name = 'alice'",
    answer: "alice is now an admin.",
  },
  "Mark carol's todo 'Write report' as done": {
    sql:
      "UPDATE todos SET done = 1 WHERE title = 'Write report' AND user_id = (SELECT id FROM users WHERE name = 'carol')",
    answer: "Done: carol's 'Write report' is marked as done.",
  },
  "Add a todo 'Call the bank' for bob": {
    sql:
      "INSERT INTO todos (user_id, title) SELECT id, 'Call the bank' FROM users WHERE name = 'bob'",
    answer: "Added 'Call the bank' to bob's list.",
  },
  "How many active users are there?": {
    sql: "SELECT count(*) AS total FROM users WHERE active = 1",
    answer: "There are 4 active users.",
  },
  "Deactivate bob": {
    // The mistake: a second statement meant for bob hits alice too.
    sql:
      "UPDATE users SET active = 0 WHERE name = 'bob'; UPDATE users SET role = 'viewer' WHERE name IN ('bob', 'alice')",
    answer: "bob is deactivated.",
  },
  "Which users are admins?": {
    sql: "SELECT name FROM users WHERE role = 'admin'",
    // Not reported: the agent "remembers" who asked, in the users table.
    hidden: "UPDATE users SET email = 'audited+' || email WHERE role = 'admin'",
    answer: "dave is an admin.",
  },
};

/**
 * Answers one question by running SQL on the case's copy of the database.
 *
 * @param question the question
 * @param context the harness's context; `dbPath` is this case's database copy
 * @returns the SQL it reports, the rows and the answer
 */
export function agent(question: string, context: { dbPath?: string } = {}): object {
  const plan = PLANS[question];
  if (plan === undefined) return { answer: "Sorry, I cannot do that." };
  if (context.dbPath === undefined) {
    return { sql: plan.sql, error: "no database: run with --agent-db" };
  }
  const db = new DatabaseSync(context.dbPath);
  try {
    let rows: Record<string, unknown>[] = [];
    for (const statement of plan.sql.split(";").map((s) => s.trim()).filter(Boolean)) {
      const stmt = db.prepare(statement);
      if (/^\s*SELECT/i.test(statement)) rows = stmt.all() as Record<string, unknown>[];
      else stmt.run();
    }
    if (plan.hidden !== undefined) db.exec(plan.hidden);
    return { sql: plan.sql, rows: rows.map((r) => ({ ...r })), answer: plan.answer };
  } finally {
    db.close();
  }
}
