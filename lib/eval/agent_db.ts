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
import process from "node:process";
import * as os from "node:os";
import * as path from "node:path";
import { streamSqliteDiff } from "../diff/diff_sqlite.ts";
import type { DiffListener } from "../diff/listener.ts";
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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-agent-db-"));
  trackTempDir(dir);
  const dbPath = path.join(dir, path.basename(source));
  try {
    fs.copyFileSync(source, dbPath);
    // SQLite keeps the -wal beside the real file, not beside a symlink to it.
    const wal = `${realPath(source)}-wal`;
    if (fs.existsSync(wal) && fs.statSync(wal).size > 0) fs.copyFileSync(wal, `${dbPath}-wal`);
  } catch (e) {
    removeTempDir(dir);
    throw e;
  }
  return { dbPath, dispose: () => removeTempDir(dir) };
}

// The copies not yet disposed of: removed however the process ends (exit,
// or SIGINT, SIGTERM, SIGHUP, which would otherwise end it at once), so a
// run stopped mid-case leaves no dbagenteval-agent-db-* folder behind.
const liveDirs = new Set<string>();
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
let hooked = false;

function removeTempDir(dir: string): void {
  liveDirs.delete(dir);
  fs.rmSync(dir, { recursive: true, force: true });
}

function removeAll(): void {
  for (const dir of [...liveDirs]) removeTempDir(dir);
}

function onSignal(signal: NodeJS.Signals): void {
  removeAll();
  // Alone, die of the signal as the process would have; else the other
  // handlers (the --agent-cmd workers') end the process.
  if (process.listenerCount(signal) === 1) {
    for (const s of SIGNALS) process.off(s, onSignal);
    process.kill(process.pid, signal);
  }
}

function trackTempDir(dir: string): void {
  liveDirs.add(dir);
  if (hooked) return;
  hooked = true;
  process.on("exit", removeAll);
  for (const s of SIGNALS) process.on(s, onSignal);
}

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
): CaseSetup {
  return (testCase: TestCase): Promise<CaseSession> => {
    const copy = copyAgentDb(source);
    return Promise.resolve({
      context: { dbPath: copy.dbPath },
      async finish() {
        try {
          // The case's selectors are asked while the diff runs, so they read
          // every row change, not only the ones the diff keeps.
          const expect = testCase.expect ?? {};
          const watch = watchSelectors(
            [expect["db_change"], expect["db_no_change"], ...watched(testCase)]
              .filter((s) => s !== undefined),
          );
          const dbDiff = await diffAgentCopy(source, copy.dbPath, watch.listener);
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
): Promise<DatabaseDiff> {
  let diff: DatabaseDiff;
  try {
    diff = await streamSqliteDiff(source, copy, {}, listener);
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
