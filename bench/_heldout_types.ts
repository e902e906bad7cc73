/**
 * What the held-out-style pairs share (bench/counterexample_heldout.ts):
 * the instance type and the INSERT writer their proofs are made with.
 *
 * @module
 */
import type { HeldoutDb } from "./_heldout_dbs.ts";

/** The kinds of mistake, as the issue names them (and the rest). */
export type MistakeClass = "boundary" | "second value" | "null" | "duplicate" | "other";

/** A reference query, an equivalent rewrite, and a near miss with its proof. */
export interface HeldoutInstance {
  readonly db: HeldoutDb;
  readonly cls: MistakeClass;
  readonly family: string;
  readonly reference: string;
  readonly equivalent: string;
  readonly nearMiss: string;
  readonly proof: string;
  readonly ordered?: boolean;
  /**
   * 2: the second batch, written after the search's targeted candidates
   * (`_heldout_fresh.ts`); 3: the third, after the second's fixes
   * (`_heldout_third.ts`).
   */
  readonly batch?: 2 | 3;
}

export type Cols = Record<string, string | number | null>;

export function lit(v: string | number | null): string {
  return v === null ? "NULL" : typeof v === "number" ? String(v) : `'${v.replaceAll("'", "''")}'`;
}

export function ins(table: string, cols: Cols): string {
  const names = Object.keys(cols);
  return `INSERT INTO ${table} (${names.join(", ")}) VALUES (${
    names.map((n) => lit(cols[n]!)).join(", ")
  })`;
}
