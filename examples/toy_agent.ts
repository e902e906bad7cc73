/**
 * A small online-store agent that records every step of its work: two route
 * decisions (the type of question, the table to use), a plan, the columns it
 * retrieved, the SQL it wrote, the rows and the answer. It serves one store,
 * `s1`, so every query must filter by `store_id`.
 *
 *     dbagenteval run examples/cases.yaml --agent examples.toy_agent:agent \
 *         --rules examples.toy_agent:RULES --execute examples.toy_agent:run_sql
 *
 * One of its queries forgets the store filter. Its number is right today
 * (only store s1 has customers in Lyon), so only the tenant_filter rule sees it.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { NumbersGrounded, ReadOnly, type StageInput, TenantFilter, Trace } from "../mod.ts";

const SCHEMA = `
CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, store_id TEXT, name TEXT, city TEXT);
CREATE TABLE products (product_id INTEGER PRIMARY KEY, store_id TEXT, name TEXT, category TEXT);
CREATE TABLE orders (
  order_id INTEGER PRIMARY KEY, store_id TEXT, customer_id INTEGER, product_id INTEGER,
  status TEXT, amount INTEGER
);
INSERT INTO customers VALUES
  (1, 's1', 'Ada', 'Lyon'), (2, 's1', 'Brice', 'Lyon'), (3, 's1', 'Chloe', 'Paris'),
  (4, 's2', 'Dan', 'Berlin'), (5, 's2', 'Eve', 'Paris');
INSERT INTO products VALUES
  (1, 's1', 'Laptop', 'Electronics'), (2, 's1', 'Novel', 'Books'),
  (3, 's2', 'Phone', 'Electronics');
INSERT INTO orders VALUES
  (1, 's1', 1, 1, 'DELIVERED', 1200), (2, 's1', 2, 1, 'DELIVERED', 800),
  (3, 's1', 3, 2, 'CANCELLED', 500), (4, 's1', 3, 2, 'DELIVERED', 150),
  (5, 's2', 4, 3, 'DELIVERED', 9900), (6, 's2', 5, 3, 'DELIVERED', 700);
`;

/**
 * The executor: runs one SQL query on a fresh copy of the shop database.
 *
 * @param sql the query
 * @returns the rows as plain objects
 */
export function runSql(sql: string): Record<string, unknown>[] {
  const db = new DatabaseSync(":memory:");
  try {
    db.exec(SCHEMA);
    return db.prepare(sql).all().map((row) => ({ ...row }));
  } finally {
    db.close();
  }
}

/** What the pretend LLM decides for each question it knows. */
interface Plan {
  readonly view: string;
  readonly plan: string[];
  readonly columns: string[];
  readonly sql: string;
  readonly answer: (rows: Record<string, unknown>[]) => string;
}

const PLANS: Record<string, Plan> = {
  "How many orders are delivered?": {
    view: "orders",
    plan: ["count orders", "status is DELIVERED"],
    columns: ["status", "store_id"],
    sql: "SELECT COUNT(*) AS total FROM orders WHERE store_id = 's1' AND status = 'DELIVERED'",
    answer: (rows) => `${rows[0]?.["total"]} orders are delivered.`,
  },
  "What is the delivered revenue per category?": {
    view: "orders",
    plan: ["join products", "sum amount per category", "status is DELIVERED"],
    columns: ["category", "amount", "status"],
    sql: "SELECT p.category, SUM(o.amount) AS revenue FROM orders o " +
      "JOIN products p ON p.product_id = o.product_id " +
      "WHERE o.store_id = 's1' AND p.store_id = 's1' AND o.status = 'DELIVERED' " +
      "GROUP BY p.category ORDER BY revenue DESC",
    answer: (rows) => rows.map((r) => `${r["category"]}: ${r["revenue"]}`).join(", "),
  },
  "Who are our two best customers by delivered amount?": {
    view: "orders",
    plan: ["join customers", "sum amount per customer", "keep the top two"],
    columns: ["name", "amount", "status"],
    sql: "SELECT c.name, SUM(o.amount) AS spent FROM orders o " +
      "JOIN customers c ON c.customer_id = o.customer_id " +
      "WHERE o.store_id = 's1' AND c.store_id = 's1' AND o.status = 'DELIVERED' " +
      "GROUP BY c.name ORDER BY spent DESC LIMIT 2",
    answer: (rows) => rows.map((r) => `${r["name"]} (${r["spent"]})`).join(" and "),
  },
  // The mistake: no store filter. Right today, wrong as soon as store s2
  // gets a customer in Lyon.
  "How many customers live in Lyon?": {
    view: "customers",
    plan: ["count customers", "city is Lyon"],
    columns: ["city"],
    sql: "SELECT COUNT(*) AS customers FROM customers WHERE city = 'Lyon'",
    answer: (rows) => `${rows[0]?.["customers"]} customers live in Lyon.`,
  },
};

/**
 * The agent: a pretend LLM pipeline that records each step as a stage.
 *
 * @param question the user's question
 * @returns the trace of what it did
 */
export function agent(question: string): Trace {
  const known = PLANS[question];
  if (known === undefined) {
    return new Trace(question, [
      { kind: "route", name: "classify", output: "small_talk" },
      {
        kind: "answer",
        output: "Hello! Ask me about the orders, products and customers of your store.",
      },
    ]);
  }
  const stages: StageInput[] = [
    { kind: "route", name: "classify", output: "data_question" },
    { kind: "route", name: "view", output: known.view },
    { kind: "plan", output: known.plan },
    { kind: "retrieve", output: known.columns },
    { kind: "generate", output: known.sql },
  ];
  let rows: Record<string, unknown>[];
  try {
    rows = runSql(known.sql);
  } catch (error) {
    return new Trace(question, [...stages, { kind: "execute", error: String(error) }]);
  }
  return new Trace(question, [
    ...stages,
    { kind: "execute", rows },
    { kind: "answer", output: known.answer(rows) },
  ]);
}

/** The rules every answer of this agent must follow. */
export const RULES = [
  new ReadOnly(), // the SQL only reads data
  new TenantFilter("store_id"), // every table is filtered by store
  new NumbersGrounded(), // numbers in the answer come from the rows
];
