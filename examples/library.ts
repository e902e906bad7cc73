/**
 * The library in one script: diff two databases, assert on the diff with a
 * selector, and test an agent. Run from the repository's main folder:
 *
 *     deno run --allow-all examples/library.ts     # or: bun examples/library.ts
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  diffSqliteDatabases,
  explainMatch,
  loadCases,
  ReadOnly,
  runSuite,
  sqliteExecutor,
} from "../mod.ts";
import { agent } from "./chinook/agent.ts";

// 1. What did a change do to a database? Copy the example users.db, change
//    the copy as an agent might, and diff the two files (read-only).
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-library-"));
const before = "examples/db_agent/users.db";
const after = path.join(dir, "users.db");
fs.copyFileSync(before, after);
const db = new DatabaseSync(after);
db.exec("UPDATE users SET role = 'admin' WHERE name = 'alice'");
db.close();
const diff = await diffSqliteDatabases(before, after);
console.log(explainMatch(diff, { rows: { changed: { where: [{ role: "admin" }] } } }).text);
fs.rmSync(dir, { recursive: true });

// 2. Test an agent: the Chinook cases, reference SQL run on the embedded
//    engine, one rule.
const execute = sqliteExecutor("examples/chinook/Chinook_Sqlite.sqlite");
const cases = await loadCases("examples/chinook/cases.yaml");
const result = await runSuite(cases, agent, { execute, rules: [new ReadOnly()] });
execute.close();
console.log(`${result.passed} of ${result.total} Chinook cases passed`);
