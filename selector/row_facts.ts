/**
 * What one row criterion needs to know about a table's rows of one kind,
 * gathered in one pass: how many rows pass its `by_key` and `where`, which
 * templates some of them meet (with the first row that does), and the
 * nearest misses for the explanation. A pass is bounded memory (a few rows
 * per criterion), so it can run over every row while the diff streams
 * (`db diff --select`), or over the rows a saved diff kept.
 *
 * Facts say whether they saw every row of the kind (`complete`): a diff
 * keeps at most `max_rows` rows per kind (and `max_bytes` in all), and an
 * answer that depends on the rows it did not keep is "cannot tell".
 *
 * @module
 */
import type { Condition, RowView } from "./where.ts";

/** The facts about one table's rows of one kind, for one row criterion. */
export interface RowFacts {
  /** Rows of the kind in the table (the diff's exact count). */
  readonly total: number;
  /** Rows looked at: every one (`total`) while the diff streams, else the kept ones. */
  readonly seen: number;
  /** Rows looked at that pass `by_key` and `where`. */
  readonly candidates: number;
  /** The first such row. */
  readonly first: RowView | undefined;
  /** Per `has_one` template, the first candidate meeting it. */
  readonly oneHits: readonly (RowView | undefined)[];
  /** Per `has_all` template, the first candidate meeting it. */
  readonly allHits: readonly (RowView | undefined)[];
  /** The row looked at that meets the most of `by_key` and `where`. */
  readonly nearestAll: RowView | undefined;
  /** The candidate nearest to meeting one `has_one` template. */
  readonly nearestOne: RowView | undefined;
  /** Per `has_all` template, the candidate nearest to meeting it. */
  readonly nearestEach: readonly (RowView | undefined)[];
  /** Some row looked at has every column the criterion reads (true when none was). */
  readonly hasColumns: boolean;
  /**
   * True when neither the rows nor the counts can be trusted: a table of a
   * diff of diffs made from diffs that did not keep every row.
   */
  readonly unproven?: boolean;
}

/** Whether the facts saw every row of their kind. */
export function complete(facts: RowFacts): boolean {
  return facts.seen >= facts.total;
}

/** What a criterion folds its rows with: its filter, its templates and the columns it reads. */
export interface FoldShape {
  /** `by_key` and `where` (null: every row is a candidate). */
  readonly filter: Condition | null;
  readonly hasOne: readonly Condition[] | null;
  readonly hasAll: readonly Condition[] | null;
  /** `has_one`'s templates as one condition, for its nearest miss. */
  readonly anyOne: Condition | null;
  readonly columns: readonly string[];
  /** True when it has a `$count`, which needs every row. */
  readonly counted: boolean;
}

/** A pass over rows of one kind; `finish` with the exact count of the kind. */
export interface RowFold {
  add(row: RowView): void;
  /**
   * True once more rows cannot change the answer (a template met, no
   * `$count`): a pass that needs no explanation may stop there.
   */
  settled(): boolean;
  finish(total: number): RowFacts;
}

/** The row that scores best so far (the first on a tie). */
class Nearest {
  row: RowView | undefined;
  #score = -1;
  constructor(readonly conditions: readonly Condition[]) {}
  offer(row: RowView): void {
    // On a tie, a changed row whose change touches the condition's columns is nearer.
    const touched = row.changedColumns !== null &&
      this.conditions.some((c) => c.columns.some((col) => row.changedColumns!.includes(col)));
    const s = this.conditions.reduce((sum, c) => sum + c.score(row), 0) + (touched ? 0.5 : 0);
    if (s > this.#score) {
      this.row = row;
      this.#score = s;
    }
  }
}

/**
 * Starts a pass over rows for a criterion of this shape.
 *
 * @param shape the criterion's filter, templates and columns
 * @returns the fold
 */
export function startFold(shape: FoldShape, explaining = true): RowFold {
  const { filter, hasOne, hasAll, anyOne, columns, counted } = shape;
  let seen = 0;
  let candidates = 0;
  let first: RowView | undefined;
  const oneHits: (RowView | undefined)[] = (hasOne ?? []).map(() => undefined);
  const allHits: (RowView | undefined)[] = (hasAll ?? []).map(() => undefined);
  const nearestAll = new Nearest(filter === null ? [] : [filter]);
  const nearestOne = anyOne === null ? null : new Nearest([anyOne]);
  const nearestEach = (hasAll ?? []).map((t) => new Nearest([t]));
  let hasColumns = columns.length === 0;
  return {
    add(row) {
      seen++;
      if (!explaining) {
        // Only what the answer needs: no nearest misses, no column check.
        if (filter !== null && !filter.test(row)) return;
        candidates++;
        first ??= row;
        hasOne?.forEach((t, i) => {
          if (oneHits[i] === undefined && t.test(row)) oneHits[i] = row;
        });
        hasAll?.forEach((t, i) => {
          if (allHits[i] === undefined && t.test(row)) allHits[i] = row;
        });
        return;
      }
      if (!hasColumns) {
        hasColumns = columns.every((c) =>
          Object.hasOwn(row.values, c) || (row.before !== null && Object.hasOwn(row.before, c))
        );
      }
      if (filter !== null) {
        nearestAll.offer(row);
        if (!filter.test(row)) return;
      }
      candidates++;
      first ??= row;
      hasOne?.forEach((t, i) => {
        if (oneHits[i] === undefined && t.test(row)) oneHits[i] = row;
      });
      hasAll?.forEach((t, i) => {
        if (allHits[i] === undefined && t.test(row)) allHits[i] = row;
      });
      // Nearest misses matter only while nothing met the template.
      if (nearestOne !== null && oneHits.every((h) => h === undefined)) nearestOne.offer(row);
      nearestEach.forEach((n, i) => {
        if (allHits[i] === undefined) n.offer(row);
      });
    },
    settled() {
      if (counted) return false;
      if (hasOne === null && hasAll === null) return candidates > 0;
      return (hasOne === null || oneHits.some((h) => h !== undefined)) &&
        (hasAll === null || allHits.every((h) => h !== undefined));
    },
    finish(total) {
      return {
        total,
        seen,
        candidates,
        first,
        oneHits,
        allHits,
        nearestAll: filter === null ? undefined : nearestAll.row,
        nearestOne: nearestOne?.row,
        nearestEach: nearestEach.map((n) => n.row),
        hasColumns: hasColumns || seen === 0,
      };
    },
  };
}
