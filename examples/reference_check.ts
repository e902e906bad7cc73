/**
 * Four small agents against one reference SQL, each scorecard printed.
 * Run it from the repository's main folder:
 *
 *     deno run --allow-all examples/reference_check.ts
 *     bun examples/reference_check.ts
 *
 * @module
 */
import { checkQuestion, Trace } from "../mod.ts";
import { runSql } from "./toy_agent.ts";

const QUESTION = "How many orders are delivered?";
const REFERENCE_SQL = "SELECT COUNT(*) FROM orders WHERE store_id = 's1' AND status = 'DELIVERED'";

const AGENTS: Record<string, (question: string) => unknown> = {
  // Right SQL, right rows, right answer: PASS.
  "a correct agent": (question) => {
    const sql =
      "SELECT COUNT(*) AS total FROM orders WHERE store_id = 's1' AND status = 'DELIVERED'";
    const rows = runSql(sql);
    return Trace.simple(question, { sql, rows, answer: `${rows[0]?.["total"]} orders.` });
  },
  // Forgets the store filter: the rows are wrong, FAIL at execute. A plain
  // object works as well as a Trace.
  "an agent that forgets the store filter": () => {
    const sql = "SELECT COUNT(*) AS total FROM orders WHERE status = 'DELIVERED'";
    const rows = runSql(sql);
    return { sql, rows, answer: `${rows[0]?.["total"]} orders.` };
  },
  // Gives only an answer text: the numbers in the text are checked against
  // the reference value (reference_numbers).
  "an agent that only answers in words": () => "There are 3 delivered orders.",
  // Answer text with a number the reference result does not have: FAIL at answer.
  "an agent that adds a number of its own": () => "3 of the 4 orders are delivered.",
};

for (const [name, agent] of Object.entries(AGENTS)) {
  const card = await checkQuestion(agent, QUESTION, REFERENCE_SQL, { execute: runSql });
  console.log(`# ${name}`);
  console.log(card.summary());
  console.log();
}
