/**
 * Which file is damaged, when a query over two attached databases fails as
 * corrupt: SQLite's message names neither, and the connection's main file
 * is not necessarily the one at fault.
 *
 * @module
 */
import { SqliteDamageError, SqliteOpenError } from "../errors.ts";
import { openDatabase } from "./database.ts";

const DAMAGE = new Set(["corrupt", "truncated", "not-sqlite"]);

/**
 * The error to report for `error`, thrown while reading `paths` together:
 * when it is damage (corrupt, truncated or not SQLite), each file is opened
 * alone and checked with `PRAGMA quick_check`, and the error names the first
 * one that fails. Any other error, or damage that no file shows alone (a
 * writer changed a file meanwhile), is returned as it is.
 *
 * @param error what the combined read threw
 * @param paths the files read together, in the order to blame them
 * @returns the error to throw
 * @example
 * ```ts
 * import { blameDamagedFile } from "./damaged.ts";
 * const error = new Error("not damage");
 * (await blameDamagedFile(error, ["examples/chinook/Chinook_Sqlite.sqlite"])) === error; // true
 * ```
 */
export async function blameDamagedFile(error: unknown, paths: readonly string[]): Promise<unknown> {
  if (!(error instanceof SqliteOpenError) || !DAMAGE.has(error.reason)) return error;
  // The file reader's own finding names the file and the page already.
  if (error instanceof SqliteDamageError) return error;
  for (const path of paths) {
    const problem = await quickCheck(path);
    if (problem === null) continue;
    if (problem instanceof SqliteOpenError) return problem;
    return new SqliteOpenError(
      path,
      "corrupt",
      `Cannot read "${path}": the file is damaged (quick_check: ${problem}); restore it from a good copy`,
      { cause: error },
    );
  }
  return error;
}

// null when the file is whole; else the first problem quick_check names, or
// the error opening or checking it threw.
async function quickCheck(path: string): Promise<string | SqliteOpenError | null> {
  let db;
  try {
    db = await openDatabase(path);
  } catch (e) {
    return e instanceof SqliteOpenError ? e : String(e);
  }
  try {
    const rows = db.query("PRAGMA quick_check(1)");
    const first = String(Object.values(rows[0] ?? {})[0] ?? "ok");
    if (first === "ok") return null;
    // "*** in database main ***" comes first; the next line says what is wrong.
    const lines = first.split("\n").filter((l) => !/^\*\*\* in database/.test(l));
    return lines[0] ?? first;
  } catch (e) {
    return e instanceof SqliteOpenError ? e : e instanceof Error ? e.message : String(e);
  } finally {
    db.close();
  }
}
