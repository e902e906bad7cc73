/**
 * `deno task demo`: runs the command below on the Chinook example, with the
 * embedded SQLite executor (`--db`) and the example's rules.
 *
 *     dbagenteval run examples/chinook/cases.yaml --agent examples/chinook/agent.ts:agent \
 *       --db examples/chinook/Chinook_Sqlite.sqlite --rules examples/chinook/rules.ts:RULES
 *
 * It then prints the same run with the reference SQL on PostgreSQL (the
 * embedded PGlite, or a server), which gives the same verdicts.
 *
 * The run itself exits 1, since six of the agent's answers are wrong on
 * purpose; the demo then exits 0, so only a demo that could not run (exit 2,
 * or a crash) fails the task.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import process from "node:process";

const root = path.resolve(import.meta.dirname!, "..", "..");
const args = [
  "run",
  "examples/chinook/cases.yaml",
  "--agent",
  "examples/chinook/agent.ts:agent",
  "--db",
  "examples/chinook/Chinook_Sqlite.sqlite",
  "--rules",
  "examples/chinook/rules.ts:RULES",
];
const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
const runtime = isBun ? [] : ["run", "--allow-all", "--quiet"];

console.log(`$ dbagenteval ${args.join(" ")}\n`);
const run = spawnSync(process.execPath, [...runtime, "cli.ts", ...args], {
  cwd: root,
  stdio: "inherit",
});
if (run.status === 1) {
  console.log(
    "\nThe run exits 1: six of the agent's answers are wrong on purpose, one for each kind of " +
      "mistake dbagenteval finds (see examples/chinook/agent.ts).",
  );
  const postgres = [
    "run",
    "examples/chinook/cases_postgres.yaml",
    "--agent",
    "examples/chinook/agent.ts:agent",
    "--rules",
    "examples/chinook/rules.ts:RULES",
    "--db",
  ].join(" ");
  console.log(
    "\nThe same cases with the reference SQL on PostgreSQL give the same verdicts. Embedded " +
      "(PGlite, no server needed; loading Chinook takes a few seconds):\n\n" +
      `  dbagenteval ${postgres} pglite:examples/chinook/Chinook_PostgreSql.sql\n\n` +
      "or on a server where examples/chinook/Chinook_PostgreSql.sql is loaded:\n\n" +
      `  dbagenteval ${postgres} postgres://USER:PASSWORD@localhost:5432/chinook`,
  );
  process.exit(0);
}
process.exit(run.status ?? 2);
