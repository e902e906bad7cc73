/**
 * `dbagenteval db info PATH`.
 *
 * @module
 */
import process from "node:process";
import { databaseInfo } from "../sqlite/info.ts";

/**
 * Prints a SQLite file's summary.
 *
 * @param path the database file
 * @param options `json`: print the summary as JSON
 * @returns the exit code
 */
export async function dbInfoCommand(path: string, options: { json?: true }): Promise<number> {
  const info = await databaseInfo(path);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(info, null, 2)}\n`);
    return 0;
  }
  const lines = [
    `${info.path}: ${info.sizeBytes} bytes, ${info.pageCount} pages of ${info.pageSize} bytes`,
    `encoding ${info.encoding}, journal mode ${info.journalMode}`,
    `${info.tables.length} table(s):`,
  ];
  const width = Math.max(0, ...info.tables.map((t) => t.name.length));
  for (const t of info.tables) {
    const count = t.rows === null ? `(${t.type}, not counted)` : `${t.rows} row(s)`;
    lines.push(`  ${t.name.padEnd(width)}  ${count}`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}
