/**
 * `dbagenteval db dump PATH`: the database as line-oriented SQL text, on
 * stdout through a 1 MiB buffer (memory stays flat on any size).
 *
 * @module
 */
import { dumpSqlite } from "../diff/dump.ts";
import { BufferedFile } from "./_write_all.ts";

/**
 * Prints a SQLite file's dump.
 *
 * @param path the database file
 * @returns the exit code
 */
export async function dbDumpCommand(path: string): Promise<number> {
  const out = new BufferedFile(1);
  await dumpSqlite(path, { write: (text) => out.text(text) });
  out.flush();
  return 0;
}
