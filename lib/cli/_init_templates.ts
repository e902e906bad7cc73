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
export const AGENT_KINDS = ["ts", "python", "http"] as const;

/** An agent kind: a TypeScript function, a Python program (JSON lines), an HTTP service. */
export type AgentKind = (typeof AGENT_KINDS)[number];

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

const PY_AGENT = `#!/usr/bin/env python3
"""Your agent, as a program: dbagenteval starts it (agent_cmd in
dbagenteval.yaml) and writes one JSON request per line on its stdin,

    {"id": "delivered-orders", "question": "How many orders were delivered?", "context": {...}}

and reads one JSON reply per line on its stdout, with the same id:

    {"id": "delivered-orders", "sql": "SELECT ...", "rows": [...], "answer": "..."}

Print logs to stderr, never to stdout. This skeleton looks the SQL up in a
table; replace generate_sql() with your model. Standard library only.
"""
import json
import os
import sqlite3
import sys

DB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shop.db")

KNOWN_SQL = {
    "How many orders were delivered?":
        "SELECT COUNT(*) AS delivered FROM orders WHERE status = 'DELIVERED'",
    "Which customers live in Paris?": "SELECT name FROM customers WHERE city = 'Paris'",
}


def generate_sql(question):
    if question not in KNOWN_SQL:
        raise ValueError(f"no SQL for: {question}")
    return KNOWN_SQL[question]


def answer(question):
    """What the agent did for one question: its SQL, the rows, the answer."""
    sql = generate_sql(question)
    db = sqlite3.connect(f"file:{DB}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    try:
        rows = [dict(row) for row in db.execute(sql)]
    finally:
        db.close()
    return {"sql": sql, "rows": rows, "answer": f"{len(rows)} row(s): {json.dumps(rows)}"}


def main():
    for line in sys.stdin:
        request = json.loads(line)
        try:
            reply = answer(request["question"])
        except Exception as error:  # the case becomes a FAIL with this error
            reply = {"error": str(error)}
        print(json.dumps({"id": request["id"], **reply}), flush=True)


if __name__ == "__main__":
    main()
`;

const HTTP_AGENT = `#!/usr/bin/env python3
"""Your agent, as an HTTP service: dbagenteval POSTs each case (agent_url in
dbagenteval.yaml) as JSON,

    {"id": "delivered-orders", "question": "How many orders were delivered?", "context": {...}}

and reads the reply JSON, with the same id:

    {"id": "delivered-orders", "sql": "SELECT ...", "rows": [...], "answer": "..."}

Start it first, then run:  python3 server.py &  dbagenteval run
The answers come from agent.py (replace its generate_sql() with your model).
Standard library only. --port 0 picks a free port and prints it.
"""
import argparse
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from agent import answer  # noqa: E402


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        request = json.loads(self.rfile.read(length))
        try:
            reply = answer(request["question"])
        except Exception as error:
            reply = {"error": str(error)}
        data = json.dumps({"id": request["id"], **reply}).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        sys.stderr.write(f"{self.address_string()} {format % args}\\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8000)
    port = parser.parse_args().port
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/answer", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
`;

const AGENT_CONFIG: Record<AgentKind, string> = {
  ts: "# Your agent: a function in a module, as file:export.\nagent: agent.ts:agent\n",
  python: "# Your agent: a program speaking JSON lines on stdin/stdout (run from this folder).\n" +
    "agent_cmd: python3 agent.py\n",
  http: "# Your agent: an HTTP service (start it first: python3 server.py).\n" +
    "agent_url: http://127.0.0.1:8000/answer\n",
};

const AGENT_FILES: Record<AgentKind, Record<string, string>> = {
  ts: { "agent.ts": TS_AGENT },
  python: { "agent.py": PY_AGENT },
  http: { "agent.py": PY_AGENT, "server.py": HTTP_AGENT },
};

/** The config file for an agent kind. */
export function configYaml(kind: AgentKind): string {
  return `${CONFIG_HEAD}\n${AGENT_CONFIG[kind]}${CONFIG_TAIL}`;
}

/** The agent files for an agent kind: name -> content. */
export function agentFiles(kind: AgentKind): Record<string, string> {
  return AGENT_FILES[kind];
}
