/**
 * What `dbagenteval init` writes: a commented config file, an example cases
 * file, the example database's SQL and an agent skeleton per kind of agent.
 * The skeleton answers the example cases right, so `dbagenteval run` passes
 * straight after `init`; then the user replaces its SQL table with a model.
 *
 * @module
 */

/** The example database: what shop.db holds. */
export const SHOP_SQL =
  `CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT NOT NULL);
CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (id),
  amount REAL NOT NULL,
  status TEXT NOT NULL
);
INSERT INTO customers (name, city) VALUES ('Ada', 'Paris'), ('Brook', 'Lyon'), ('Chen', 'Paris');
INSERT INTO orders (customer_id, amount, status) VALUES
  (1, 120.0, 'DELIVERED'), (1, 35.5, 'CANCELLED'), (2, 60.0, 'DELIVERED'), (3, 15.0, 'PENDING');
`;

/** The example cases: both pass with the skeleton. */
export const CASES_YAML = `# The questions to ask your agent, and how to check its answers.
# Every field: docs/reference.md in the dbagenteval repository
# (or: dbagenteval validate cases.yaml --db shop.db checks this file).

- id: delivered-orders
  question: How many orders were delivered?
  # The correct result: the agent's rows must match what this query returns.
  reference_sql: SELECT COUNT(*) AS delivered FROM orders WHERE status = 'DELIVERED'
  tags: [smoke]

- id: paris-customers
  question: Which customers live in Paris?
  reference_sql: SELECT name FROM customers WHERE city = 'Paris'
  # Or write the expected rows directly:
  # expect:
  #   rows: [{name: Ada}, {name: Chen}]
`;

/** The agent kinds `init --agent` knows. */
export type AgentKind = "ts";

const CONFIG_HEAD = `# dbagenteval.yaml: what \`dbagenteval run\` does in this folder.
# A flag on the command line wins over a value here (dbagenteval run --tags smoke);
# paths are relative to this file. Every key: dbagenteval help run, docs/reference.md.

# The questions and their correct results.
cases: cases.yaml
`;

const CONFIG_TAIL = `
# Run each case's reference_sql read-only on this SQLite file, and compare rows.
db: shop.db

# Checks on the agent's SQL that need no correct result. Built-in rules by name,
# with options; a list of your own as file:export (rules.ts:RULES).
rules:
  - read_only
  - allowed_tables: [orders, customers]
  # - tenant_filter: {column: store_id, value: s1}
  # - no_subqueries

# How many cases run at the same time, and how long one may take (seconds).
concurrency: 4
timeout: 60

# Keep only cases with one of these tags.
# tags: [smoke]

# Save the run as JSON (dbagenteval diff before.json after.json compares two runs)
# and a Markdown report.
# json: run.json
# md: report.md

# An LLM judge for the answer text (any OpenAI-compatible endpoint; the key is
# read from DBAGENTEVAL_JUDGE_API_KEY or OPENAI_API_KEY).
# judge_url: https://api.openai.com/v1
# judge_model: gpt-4o-mini
`;

const TS_AGENT = `/**
 * Your agent. dbagenteval calls agent(question) once per case and checks what
 * it returns: the SQL it ran, the rows that SQL gave, and the answer text.
 *
 * This skeleton looks the SQL up in a table; replace generateSql() with your
 * model (an LLM call that writes SQL for the question). The rest can stay.
 */
import { DatabaseSync } from "node:sqlite";
import * as path from "node:path";

const DB = path.join(import.meta.dirname ?? ".", "shop.db");

const KNOWN_SQL: Record<string, string> = {
  "How many orders were delivered?":
    "SELECT COUNT(*) AS delivered FROM orders WHERE status = 'DELIVERED'",
  "Which customers live in Paris?": "SELECT name FROM customers WHERE city = 'Paris'",
};

async function generateSql(question: string): Promise<string> {
  const sql = KNOWN_SQL[question];
  if (sql === undefined) throw new Error(\`no SQL for: \${question}\`);
  return sql;
}

export async function agent(question: string) {
  const sql = await generateSql(question);
  const db = new DatabaseSync(DB, { readOnly: true });
  try {
    const rows = db.prepare(sql).all();
    return { sql, rows, answer: \`\${rows.length} row(s): \${JSON.stringify(rows)}\` };
  } finally {
    db.close();
  }
}
`;

/** The config file for an agent kind. */
export function configYaml(kind: AgentKind): string {
  const agent = {
    ts: "# Your agent: a function in a module, as file:export.\nagent: agent.ts:agent\n",
  }[kind];
  return `${CONFIG_HEAD}\n${agent}${CONFIG_TAIL}`;
}

/** The agent files for an agent kind: name -> content. */
export function agentFiles(kind: AgentKind): Record<string, string> {
  return { ts: { "agent.ts": TS_AGENT } }[kind];
}
