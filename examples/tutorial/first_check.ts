/**
 * The guide's "Your first check", steps 2 and 3: check one question.
 *
 *     deno run --allow-all examples/tutorial/first_check.ts      # step 2: PASS
 *     deno run --allow-all examples/tutorial/first_check.ts 3    # step 3: finds the mistake
 *
 * @module
 */
import process from "node:process";
import { checkQuestion } from "../../mod.ts";
import { myAgent, runSql } from "./shop.ts";

const STEPS: Record<string, [question: string, referenceSql: string]> = {
  "2": [
    "How many orders are delivered?",
    "SELECT COUNT(*) FROM orders WHERE store_id = 's1' AND status = 'DELIVERED'",
  ],
  "3": [
    "What is the total amount of delivered orders?",
    "SELECT SUM(amount) FROM orders WHERE store_id = 's1' AND status = 'DELIVERED'",
  ],
};

const [question, referenceSql] = STEPS[process.argv[2] ?? "2"] ?? STEPS["2"]!;
const card = await checkQuestion(myAgent, question, referenceSql, { execute: runSql });
console.log(card.summary());
