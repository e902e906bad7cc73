/**
 * A case's own copy of the agent's database (`--agent-db`): the harness
 * copies the file, with its `-wal` when there is one, into a fresh temporary
 * folder before the agent runs, hands the agent that path, and removes the
 * folder afterwards. The original is only read, so cases run in parallel
 * safely and the user's file is never touched.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { DEFAULT_LIMITS } from "../isolation/service.ts";
import { makeTempDir } from "../isolation/temp_storage.ts";
import { streamSqliteDiff } from "../diff/diff_sqlite.ts";
import type { DiffListener } from "../diff/listener.ts";
import type { DiffOptions } from "../diff/options.ts";
import { watchSelectors } from "../../selector/explain.ts";
import type { DatabaseDiff } from "../diff/types.ts";
import { SqliteOpenError } from "../errors.ts";
import { checkSqliteFile, realPath } from "../sqlite/file_check.ts";
import type { TestCase } from "./case.ts";
import type { CaseSession, CaseSetup } from "./evaluate.ts";

/**
 * One case's database copy.
 *
 * @example
 * ```ts
 * import { type AgentDbCopy, copyAgentDb } from "./agent_db.ts";
 * import { openDatabase } from "../sqlite/database.ts";
 * const copy: AgentDbCopy = copyAgentDb("examples/db_agent/users.db");
 * // hand copy.dbPath to the agent; here we only read it
 * const db = await openDatabase(copy.dbPath);
 * db.query("SELECT count(*) AS n FROM users"); // [{ n: 4 }]
 * db.close();
 * copy.dispose();
 * ```
 */
export interface AgentDbCopy {
  /** The copy's path: hand it to the agent. */
  readonly dbPath: string;
  /** Removes the copy and its folder (with any -wal, -shm or -journal the agent left). */
  dispose(): void;
}

/**
 * Copies a SQLite file (and its `-wal`) into a fresh temporary folder.
 *
 * @param source the original database; it is only read
 * @returns the copy
 * @throws {SqliteOpenError} when the source is not a readable SQLite file
 * @example
 * ```ts
 * import { copyAgentDb } from "./agent_db.ts";
 * const copy = copyAgentDb("examples/db_agent/users.db");
 * // ... let the agent write to copy.dbPath ...
 * copy.dispose();
 * ```
 */
export function copyAgentDb(source: string): AgentDbCopy {
  checkSqliteFile(source);
  // lib/isolation owns the folder: removed by dispose(), at exit, on a
  // signal, and by the next run's sweep if this process is killed outright.
  const dir = makeTempDir("agent-db");
  const dbPath = path.join(dir.path, path.basename(source));
  try {
    fs.copyFileSync(source, dbPath);
    // SQLite keeps the -wal beside the real file, not beside a symlink to it.
    const wal = `${realPath(source)}-wal`;
    if (fs.existsSync(wal) && fs.statSync(wal).size > 0) fs.copyFileSync(wal, `${dbPath}-wal`);
  } catch (e) {
    dir.dispose();
    throw e;
  }
  return { dbPath, dispose: () => dir.dispose() };
}

/** Bytes of the files in a folder (the copy, its -wal, -journal, -shm). */
function folderBytes(dir: string): number {
  let n = 0;
  try {
    for (const name of fs.readdirSync(dir)) {
      try {
        n += fs.statSync(path.join(dir, name)).size;
      } catch {
        // removed meanwhile
      }
    }
  } catch {
    // the folder is gone
  }
  return n;
}

/** How often a case's copy is measured while its agent runs. */
const WATCH_MS = 250;

/**
 * The per-case setup behind `--agent-db`: a fresh copy of `source` for the
 * agent (`context.dbPath`), and afterwards the diff of the original against
 * the copy, for the db_change, db_unchanged and db_no_change checks. The
 * diff names the original's path, not the temporary copy's. The case's
 * `expect.db_change` and `expect.db_no_change` selectors, and those
 * `watched` names, are asked while the diff runs (`explainDb`), so they see
 * every row change, not only the ones the diff keeps.
 *
 * @param source the original database; it is only read
 * @param watched more selectors to ask while diffing (e.g. db_change checks' own)
 * @param maxGrowthBytes how much the agent may add to its copy (`--max-temp-mb`)
 * @param diffOptions the diff's options (`keys`, `ignore`, `ignoreTables`)
 * @returns the setup, for runSuite's or runCase's `setup` option
 * @example
 * ```ts
 * import { agentDbSetup } from "./agent_db.ts";
 * const setup = agentDbSetup("examples/db_agent/users.db");
 * ```
 */
export function agentDbSetup(
  source: string,
  watched: (testCase: TestCase) => readonly unknown[] = () => [],
  maxGrowthBytes: number = DEFAULT_LIMITS.tempBytes,
  diffOptions: DiffOptions = {},
): CaseSetup {
  return (testCase: TestCase): Promise<CaseSession> => {
    const copy = copyAgentDb(source);
    // The agent may write to its copy, not fill the disk: past the cap the
    // case stops (its agent with it) and is an ERROR.
    const folder = path.dirname(copy.dbPath);
    const most = folderBytes(folder) + maxGrowthBytes;
    const over = new AbortController();
    const watch = setInterval(() => {
      const now = folderBytes(folder);
      if (now <= most) return;
      clearInterval(watch);
      over.abort(
        new Error(
          `the agent's copy of "${source}" grew to ${Math.round(now / 2 ** 20)} MB, ${
            Math.round(maxGrowthBytes / 2 ** 20)
          } MB past the original (--max-temp-mb)`,
        ),
      );
    }, WATCH_MS);
    (watch as { unref?: () => void }).unref?.();
    return Promise.resolve({
      context: { dbPath: copy.dbPath },
      signal: over.signal,
      async finish() {
        clearInterval(watch);
        if (over.signal.aborted) {
          copy.dispose();
          return;
        }
        try {
          // The case's selectors are asked while the diff runs, so they read
          // every row change, not only the ones the diff keeps.
          const expect = testCase.expect ?? {};
          const watch = watchSelectors(
            [expect["db_change"], expect["db_no_change"], ...watched(testCase)]
              .filter((s) => s !== undefined),
          );
          const dbDiff = await diffAgentCopy(source, copy.dbPath, watch.listener, diffOptions);
          return { dbDiff, explainDb: (selector: unknown) => watch.explain(dbDiff, selector) };
        } finally {
          copy.dispose();
        }
      },
    });
  };
}

/**
 * The diff of an agent's database copy against the original, with the
 * original's path in place of the copy's.
 *
 * @param source the original database
 * @param copy the agent's copy, after the agent ran
 * @param listener told every table and row change as the diff goes
 * @param options the diff's options (`keys`, `ignore`, `ignoreTables`)
 * @returns the diff
 * @throws {SqliteOpenError} naming the agent's copy of `source` when the
 * agent left it unreadable (e.g. overwrote it with something else)
 *
 * @example
 * ```ts
 * import { copyAgentDb, diffAgentCopy } from "./agent_db.ts";
 * const copy = copyAgentDb("examples/db_agent/users.db");
 * // ... the agent runs against copy.dbPath (here it changes nothing) ...
 * const diff = await diffAgentCopy("examples/db_agent/users.db", copy.dbPath);
 * copy.dispose();
 * diff.databases[0]?.status; // "unchanged"
 * diff.databases[0]?.path; // "examples/db_agent/users.db" (not the temporary copy)
 * ```
 */
export async function diffAgentCopy(
  source: string,
  copy: string,
  listener: DiffListener = {},
  options: DiffOptions = {},
): Promise<DatabaseDiff> {
  let diff: DatabaseDiff;
  try {
    diff = await streamSqliteDiff(source, copy, options, listener);
  } catch (e) {
    // The agent overwrote or damaged its copy: say so with the file the user
    // knows, not the temporary path, which is gone by the time this is read.
    if (!(e instanceof SqliteOpenError) || e.path !== copy) throw e;
    throw new SqliteOpenError(
      source,
      e.reason,
      e.message.replace(`"${copy}"`, `the agent's copy of "${source}"`),
      { cause: e },
    );
  }
  return {
    ...diff,
    databases: diff.databases.map((d) => ({
      ...d,
      path: source,
      after_path: d.exists_after ? source : null,
    })),
  };
}
