/**
 * Rebuilds examples/db_agent/users.db from schema.sql:
 *
 *   deno run -A examples/db_agent/make_db.ts
 *
 * @module
 */
import * as fs from "node:fs";
import { DatabaseSync } from "node:sqlite";

const here = import.meta.dirname!;
const file = `${here}/users.db`;
fs.rmSync(file, { force: true });
const db = new DatabaseSync(file);
db.exec(fs.readFileSync(`${here}/schema.sql`, "utf8"));
db.close();
console.log(`wrote ${file}`);
