/**
 * Scans one table in key order through the engine, reading every value, and
 * prints the row count. Run as a child by bench/scan.ts so its peak RSS is
 * its own.
 *
 * @module
 */
import process from "node:process";
import { openDatabase } from "../lib/sqlite/database.ts";

const [file, table = "t"] = process.argv.slice(2);
const db = await openDatabase(file!);
const stmt = db.prepare(`SELECT * FROM "${table}" ORDER BY id`);
const n = stmt.columnNames.length;
let rows = 0;
let bytes = 0;
while (stmt.step()) {
  for (let i = 0; i < n; i++) {
    const v = stmt.value(i);
    if (typeof v === "string") bytes += v.length;
  }
  rows++;
}
stmt.finalize();
db.close();
console.log(`${rows} ${bytes}`);
