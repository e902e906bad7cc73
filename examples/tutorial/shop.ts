/**
 * The guide's tutorial agent ("Your first check", step 1), in TypeScript: a
 * tiny shop database and a pretend agent whose second query forgets the
 * store filter.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { NumbersGrounded, ReadOnly, TenantFilter, Trace } from "../../mod.ts";

// A tiny shop database: (store_id, status, amount)
const ORDERS: [string, string, number][] = [
  ["s1", "DELIVERED", 1200],
  ["s1", "DELIVERED", 800],
  ["s1", "CANCELLED", 500],
  ["s2", "DELIVERED", 9900],
];

/** Run one SQL query and return the rows as a list of objects. */
export function runSql(sql: string): Record<string, unknown>[] {
  const db = new DatabaseSync(":memory:");
  db.exec("CREATE TABLE orders (store_id TEXT, status TEXT, amount INTEGER)");
  const insert = db.prepare("INSERT INTO orders VALUES (?, ?, ?)");
  for (const order of ORDERS) insert.run(...order);
  const rows = db.prepare(sql).all().map((row) => ({ ...row }));
  db.close();
  return rows;
}

// A pretend agent. A real agent asks an LLM to write the SQL.
// The second query has a mistake: it forgets the store filter.
const KNOWN_SQL: Record<string, string> = {
  "How many orders are delivered?":
    "SELECT COUNT(*) AS total FROM orders WHERE store_id = 's1' AND status = 'DELIVERED'",
  "What is the total amount of delivered orders?":
    "SELECT SUM(amount) AS total FROM orders WHERE status = 'DELIVERED'",
};

/** The agent: takes a question, returns a trace with its SQL, its rows and its answer. */
export function myAgent(question: string): Trace {
  const sql = KNOWN_SQL[question];
  if (sql === undefined) {
    return Trace.simple(question, { answer: "Sorry, I can only answer questions about orders." });
  }
  const rows = runSql(sql);
  const answer = `The answer is ${rows[0]?.["total"]}.`;
  return Trace.simple(question, { answer, sql, rows });
}

// "Add rules": checks on the SQL and the answer that need no correct result.
export const RULES = [
  new ReadOnly(), // the SQL only reads data
  new TenantFilter("store_id"), // the SQL filters by store
  new NumbersGrounded(), // numbers in the answer come from the rows
];
