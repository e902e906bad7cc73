/**
 * What the database side-effect checks share: where their selector comes
 * from, the stage they report at, and the one-line form of an explanation.
 *
 * @module
 */
import type { CheckContext } from "../check.ts";
import type { TestCase } from "../case.ts";
import type { Trace } from "../trace.ts";
import type { DatabaseDiff } from "../../diff/types.ts";
import { jsonText } from "../json_text.ts";
import { DEFAULT_MAX_ROWS } from "../../diff/options.ts";

/** The keys of `expect` that the database side-effect checks read. */
export const DB_EXPECT_KEYS = ["db_change", "db_unchanged", "db_no_change"] as const;

/** The stage database checks report at: the trace's last execute stage, or "execute". */
export function dbStage(trace: Trace): string {
  return trace.lastOf("execute")?.name ?? "execute";
}

/**
 * Why a database check has no diff to read: no --agent-db, or (with one) the
 * diff of the agent's copy failed, e.g. the agent overwrote the file; the
 * case's error says how.
 *
 * @param what the expectation or check, e.g. `expect.db_change` or `db_diff_change`
 * @param context the check's context
 */
export function missingDiff(what: string, context: CheckContext): string {
  return context.agentDb === undefined
    ? `${what} needs the agent's database: pass --agent-db FILE (API: agentDb)`
    : `${what} has no diff: the agent's copy of "${context.agentDb}" could not be diffed (see the case's error)`;
}

/**
 * An explanation from explainMatch on one line, as scorecards print details:
 * the first line dropped ("match" / "no match"), the rest joined with "; ".
 */
export function oneLine(text: string): string {
  return text.split("\n").slice(1).map((l) => l.trim()).filter(Boolean).join("; ");
}

/**
 * A "cannot tell" explanation on one line, for an ERROR: which tables' kept
 * rows cannot tell, and what to do.
 */
export function cannotTell(text: string): string {
  return `cannot tell from the rows the diff kept: ${
    oneLine(text)
  }; diff with a larger max_rows (${DEFAULT_MAX_ROWS} by default), or let --agent-db's diff ask the selector while it runs`;
}

/** The value of `expect[key]`, or undefined. */
export function expectValue(testCase: TestCase, key: string): unknown {
  return testCase.expect?.[key];
}

/**
 * What changed in a diff, on one line, for a person: each changed table
 * with its counts and a first example row, e.g.
 * `users.db > users: 1 changed row (id=4: email "a" -> "b")`.
 */
export function describeChanges(diff: DatabaseDiff): string {
  const parts: string[] = [];
  for (const db of diff.databases) {
    if (db.status !== "unchanged" && db.status !== "changed") {
      parts.push(`${db.name}: database ${db.status}`);
    }
    for (const t of db.tables) {
      if (t.status === "unchanged") continue;
      const what: string[] = [];
      if (t.schema_status !== "unchanged") what.push(`table ${t.schema_status}`);
      for (const kind of ["added", "removed", "changed"] as const) {
        const n = t.counts[kind];
        if (n > 0) what.push(`${n} ${kind} row${n === 1 ? "" : "s"}`);
      }
      const first = t.rows.changed[0];
      const example = first === undefined
        ? ""
        : ` (${keyText(first.key)}: ${
          first.changed_columns.map((c) =>
            `${c} ${jsonText(first.before[c])} -> ${jsonText(first.after[c])}`
          ).join(", ")
        })`;
      parts.push(`${db.name} > ${t.name}: ${what.join(", ")}${example}`);
    }
    for (const o of db.objects) parts.push(`${db.name} > ${o.type} ${o.name} ${o.status}`);
  }
  return parts.join("; ");
}

/**
 * The row changes a diff counted but did not keep (`max_rows`), e.g.
 * `users.db > users: 1000 of 3000 changed rows kept`; empty when it kept all.
 */
export function droppedRows(diff: DatabaseDiff): string[] {
  const out: string[] = [];
  for (const db of diff.databases) {
    for (const t of db.tables) {
      if (!t.truncated) continue;
      for (const kind of ["added", "removed", "changed"] as const) {
        const kept = t.rows[kind].length;
        if (kept < t.counts[kind]) {
          out.push(`${db.name} > ${t.name}: ${kept} of ${t.counts[kind]} ${kind} rows kept`);
        }
      }
    }
  }
  return out;
}

function keyText(key: Readonly<Record<string, unknown>>): string {
  return Object.entries(key).map(([k, v]) => `${k}=${jsonText(v)}`).join(", ");
}
