/**
 * Integers beyond 2^53 from an agent in another language reach the checks
 * exact, over both transports: the agent's reply is JSON text, and
 * `JSON.parse` alone rounds 9007199254740993 to 9007199254740992. The agents
 * here write the reply text themselves, digit for digit, as a Python or Go
 * agent would; the reference rows come from SQLite, which has the exact
 * value.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import process from "node:process";
import { defineCase } from "../eval/cases.ts";
import { runSuite } from "../eval/suite.ts";
import { sqliteExecutor } from "../sqlite/executor.ts";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import type { ClosableAgent } from "./types.ts";
import { commandAgent } from "./command_agent.ts";
import { agentService, replying } from "../../tests/agent_service.ts";
import { httpAgent } from "./http_agent.ts";
import { parseReplyJson } from "./_protocol.ts";

const dir = tempDir("dbagenteval-big-integers-");
after(() => dir.cleanup());

const db = makeDb(
  dir.file("big.db"),
  "CREATE TABLE t(n INTEGER); INSERT INTO t VALUES (9007199254740993), (-9223372036854775808);",
);

/** The reply text for a question "answer N": the integer N written as it is. */
const REPLY = (id: string, question: string): string =>
  `{"id": ${JSON.stringify(id)}, "sql": "SELECT n FROM t", "rows": [{"n": ${
    question.split(" ")[1]
  }}], "answer": "done"}`;

// The subprocess agent: a script for the runtime that runs the tests, which
// writes the digits of the question into its reply text.
const script = dir.file("agent.mjs");
fs.writeFileSync(
  script,
  `import * as readline from "node:readline";
const REPLY = ${REPLY.toString()};
for await (const line of readline.createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  process.stdout.write(REPLY(request.id, request.question) + "\\n");
}
`,
);
const runtime = "Bun" in globalThis
  ? [process.execPath, script]
  : [process.execPath, "run", "--quiet", "--allow-all", script];

const url = agentService(replying(REPLY));

const cases = [
  ["exact", "answer 9007199254740993", "SELECT 9007199254740993 AS n", "PASS"],
  ["one below the reference", "answer 9007199254740993", "SELECT 9007199254740992 AS n", "FAIL"],
  ["one above the reference", "answer 9007199254740992", "SELECT n FROM t WHERE n > 0", "FAIL"],
  [
    "the smallest 64-bit integer",
    "answer -9223372036854775808",
    "SELECT min(n) AS n FROM t",
    "PASS",
  ],
  ["a small integer", "answer 42", "SELECT 42 AS n", "PASS"],
] as const;

const transports: [string, () => Promise<ClosableAgent>][] = [
  ["--agent-cmd", () => commandAgent({ command: runtime, workers: 1 })],
  ["--agent-url", () => Promise.resolve(httpAgent({ url: url() }))],
];
for (const [name, start] of transports) {
  describe(`integers beyond 2^53 over ${name}`, () => {
    it("PASS the exact value and FAIL one off by one", { timeout: 120_000 }, async () => {
      const agent = await start();
      const execute = sqliteExecutor(db);
      try {
        const result = await runSuite(
          cases.map(([id, question, reference_sql]) => defineCase({ id, question, reference_sql })),
          agent,
          { execute, concurrency: 1 },
        );
        assert.deepEqual(
          result.cases.map((c) => [c.id, c.verdict]),
          cases.map(([id, , , verdict]) => [id, verdict]),
          result.summary(),
        );
      } finally {
        execute.close();
        await agent.close();
      }
    });
  });
}

describe("parseReplyJson()", () => {
  const table: [string, string, unknown][] = [
    ["keeps 2^53 + 1 exact", '{"n": 9007199254740993}', { n: 9007199254740993n }],
    ["keeps a negative one exact", "[-9007199254740993]", [-9007199254740993n]],
    ["leaves safe integers as numbers", '{"n": 9007199254740991}', { n: 9007199254740991 }],
    ["leaves decimals as numbers", "[1234567890123456.5, 1e300]", [1234567890123456.5, 1e300]],
    ["leaves digits in text alone", '{"s": "9007199254740993"}', { s: "9007199254740993" }],
  ];
  for (const [name, text, expected] of table) {
    it(name, () => assert.deepEqual(parseReplyJson(text), expected));
  }
  it("throws a SyntaxError for text that is not JSON", () => {
    assert.throws(() => parseReplyJson("{9007199254740993"), SyntaxError);
  });
});
