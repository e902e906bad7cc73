/**
 * Shrinking a counterexample before showing it (delta debugging): drop
 * chunks of rows, then single rows, then set whole columns to NULL, keeping
 * each step only while the two queries still differ. A person then reads a
 * handful of rows, not a copy of their database.
 *
 * Worked example: 8 rows where rows 3 and 6 matter. Halves: dropping rows
 * 1-4 loses row 3 (the queries agree, keep them); dropping 5-8 loses row 6
 * (keep). Quarters: 1-2 go, 4 goes... until only 3 and 6 remain, in about
 * 2·k·log(n) tries for k rows that matter.
 *
 * @module
 */
import type { Candidate, CandidateRow } from "./candidate.ts";
import { rowCount } from "./candidate.ts";
import type { SearchSchema } from "./schema.ts";

/** Tries a smaller database: the database as the schema accepted it, or null when the queries agree on it. */
export type StillDiffers = (
  candidate: Candidate,
) => Candidate | null | Promise<Candidate | null>;

type Attempt = (c: Candidate) => Promise<Candidate | null>;

interface Entry {
  readonly table: string;
  readonly row: CandidateRow;
}

function flatten(candidate: Candidate, schema: SearchSchema): Entry[] {
  const out: Entry[] = [];
  for (const t of schema.tables) {
    for (const row of candidate.get(t.name) ?? []) out.push({ table: t.name, row });
  }
  return out;
}

function build(entries: readonly Entry[]): Candidate {
  const m = new Map<string, CandidateRow[]>();
  for (const e of entries) {
    const rows = m.get(e.table) ?? [];
    rows.push(e.row);
    m.set(e.table, rows);
  }
  return m;
}

/**
 * Shrinks a counterexample.
 *
 * @param start a database on which the queries differ
 * @param options the schema, the test, and how many tries and until when
 * @returns the smallest database found on which they still differ
 */
export async function shrink(
  start: Candidate,
  options: {
    readonly schema: SearchSchema;
    readonly stillDiffers: StillDiffers;
    readonly maxTries: number;
    readonly deadline: number;
  },
): Promise<Candidate> {
  let best = start;
  let tries = 0;
  const attempt = async (c: Candidate): Promise<Candidate | null> => {
    if (tries >= options.maxTries || performance.now() > options.deadline) return null;
    tries++;
    return await options.stillDiffers(c);
  };
  best = await dropRows(best, options.schema, attempt);
  const before = rowCount(best);
  best = await nullColumns(best, options.schema, attempt);
  // NULL foreign keys may free parent rows: drop again.
  return rowCount(best) === before ? await dropRows(best, options.schema, attempt) : best;
}

async function dropRows(
  start: Candidate,
  schema: SearchSchema,
  attempt: Attempt,
): Promise<Candidate> {
  let best = start;
  let entries = flatten(best, schema);
  let chunk = Math.max(1, Math.ceil(entries.length / 2));
  while (entries.length > 1) {
    let removed = false;
    for (let start = 0; start < entries.length; start += chunk) {
      const smaller = [...entries.slice(0, start), ...entries.slice(start + chunk)];
      const ok = await attempt(build(smaller));
      if (ok !== null && rowCount(ok) < entries.length) {
        best = ok;
        entries = flatten(ok, schema);
        removed = true;
        start -= chunk;
      }
    }
    if (!removed) {
      if (chunk === 1) break;
      chunk = Math.max(1, Math.floor(chunk / 2));
    }
  }
  return best;
}

/** Columns the difference does not hang on become NULL, where the schema allows. */
async function nullColumns(
  start: Candidate,
  schema: SearchSchema,
  attempt: Attempt,
): Promise<Candidate> {
  let best = start;
  for (const t of schema.tables) {
    for (const [i, c] of t.columns.entries()) {
      const rows = best.get(t.name);
      if (rows === undefined || c.notNull || c.pk > 0 || rows.every((r) => r[i] === null)) continue;
      const next = new Map(best);
      next.set(t.name, rows.map((r) => r.map((v, k) => (k === i ? null : v))));
      const ok = await attempt(next);
      if (ok !== null && rowCount(ok) === rowCount(best)) best = ok;
    }
  }
  return best;
}
