/**
 * The rule every command must keep on a damaged file, checked by
 * tests/damaged_files_test.ts and bench/damaged_sweep.ts: it says "damaged"
 * (a SqliteOpenError, exit 2 from the CLI), or it gives exactly what it
 * gives on what SQLite reads from the file (tests/damage.ts sqliteReading:
 * a copy holding SQLite's reading); and it never gives an answer when
 * SQLite cannot read what the command reads.
 *
 * @module
 */
import * as path from "node:path";
import { SqliteOpenError } from "../lib/errors.ts";
import { diffSqliteDatabases, streamSqliteDiff } from "../lib/diff/diff_sqlite.ts";
import { diffToJson } from "../lib/diff/json.ts";
import { renderDiffSummary } from "../lib/diff/render_summary.ts";
import { SqlRenderer } from "../lib/diff/render_sql.ts";
import { databaseInfo } from "../lib/sqlite_format/info.ts";
import { watchSelector } from "../selector/explain.ts";
import type { SqliteReading } from "./damage.ts";

/** What a command gave: an answer, or a refusal. */
export type Outcome = { readonly answer: string } | { readonly refused: string };

/** A command run on a file (`x`) against another (`other`, the file it is diffed with). */
export interface Command {
  readonly name: string;
  /** The tables the command reads (null: all of them). */
  readonly reads: readonly string[] | null;
  readonly run: (x: string, other: string) => Promise<string>;
}

const json = (x: unknown): string => (typeof x === "string" ? x : diffToJson(x as never));

/** The commands: the diff both ways and with itself, --summary, --table, --sql, --select, db info. */
export const COMMANDS: readonly Command[] = [
  { name: "db diff", reads: null, run: async (x, o) => json(await diffSqliteDatabases(o, x)) },
  {
    name: "db diff (damaged file first)",
    reads: null,
    run: async (x, o) => json(await diffSqliteDatabases(x, o)),
  },
  { name: "db diff X X", reads: null, run: async (x) => json(await diffSqliteDatabases(x, x)) },
  {
    name: "--summary",
    reads: null,
    run: async (x, o) => renderDiffSummary(await diffSqliteDatabases(o, x, { maxRows: 0 })),
  },
  {
    name: "--table t",
    reads: ["t"],
    run: async (x, o) => json(await diffSqliteDatabases(o, x, { tables: ["t"] })),
  },
  {
    name: "--table u",
    reads: ["u"],
    run: async (x, o) => json(await diffSqliteDatabases(o, x, { tables: ["u"] })),
  },
  {
    name: "--sql",
    reads: null,
    run: async (x, o) => {
      let sql = "";
      await streamSqliteDiff(
        o,
        x,
        { maxRows: 0 },
        new SqlRenderer({ write: (t) => void (sql += t) }),
      );
      return sql;
    },
  },
  {
    name: "--select",
    reads: null,
    run: async (x, o) => {
      const watch = watchSelector({ rows: { changed: { $count: { $gte: 1 } } } });
      const diff = await streamSqliteDiff(o, x, { maxRows: 0 }, watch.listener);
      return watch.explain(diff).text;
    },
  },
  {
    name: "db info",
    reads: null,
    run: async (x) => JSON.stringify((await databaseInfo(x)).tables),
  },
];

const REFUSED = new Set(["corrupt", "not-sqlite", "truncated"]);

/** Runs `f`: its answer, or its refusal (damage); anything else it throws is thrown (a crash). */
export async function attempt(f: () => Promise<string>): Promise<Outcome> {
  try {
    return { answer: await f() };
  } catch (e) {
    if (e instanceof SqliteOpenError && REFUSED.has(e.reason)) return { refused: e.message };
    throw e;
  }
}

/** An answer with the file's path made "FILE" and the other's "OTHER" (they differ only in folder). */
function plain(answer: string, file: string, other: string): string {
  return answer.replaceAll(other, "OTHER").replaceAll(file, "FILE").replaceAll(
    path.dirname(file),
    "DIR",
  );
}

/** How a command did on a damaged file: "refused" or "same" (as on SQLite's reading) are right. */
export interface Verdict {
  readonly how: "refused" | "same" | "wrong";
  /** What is wrong, for "wrong". */
  readonly detail: string;
}

/** How a command did on a damaged file (see the module documentation). */
export async function judge(
  command: Command,
  damaged: string,
  other: string,
  reading: SqliteReading,
): Promise<Verdict> {
  const wrong = (detail: string): Verdict => ({ how: "wrong", detail });
  let got: Outcome;
  try {
    got = await attempt(() => command.run(damaged, other));
  } catch (e) {
    return wrong(`crashed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
  }
  const readable = reading.copy !== null &&
    (command.reads === null
      ? reading.unreadable.size === 0
      : command.reads.every((t) => !reading.unreadable.has(t)));
  if ("refused" in got) {
    return /damaged|not a SQLite database|truncated/.test(got.refused)
      ? { how: "refused", detail: got.refused }
      : wrong(`refused unclearly: ${got.refused}`);
  }
  if (!readable) return wrong(`answered where SQLite cannot read it: ${got.answer.slice(0, 300)}`);
  const want = await attempt(() => command.run(reading.copy!, other));
  if ("refused" in want) return wrong(`SQLite's reading itself is refused: ${want.refused}`);
  const a = plain(got.answer, damaged, other);
  const b = plain(want.answer, reading.copy!, other);
  if (a !== b) {
    return wrong(
      `answered neither "damaged" nor what SQLite reads:\n--- got\n${
        a.slice(0, 1500)
      }\n--- SQLite reads\n${b.slice(0, 1500)}`,
    );
  }
  return { how: "same", detail: "" };
}
