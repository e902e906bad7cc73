/**
 * Where a row criterion's facts about a table come from: gathered from
 * every row while the diff streams ({@link LiveFacts}, a `DiffListener`), or
 * from the rows a diff kept ({@link TableFacts} falls back to them).
 *
 * A diff keeps at most `max_rows` rows of each kind per table (and
 * `max_bytes` in all) but counts them all; a selector asked while the diff
 * runs sees every row and keeps only a few per criterion, so its answer is
 * exact at any size. Asked of a saved diff, an answer that depends on rows
 * the diff did not keep is "cannot tell".
 *
 * @module
 */
import type { DiffListener, RowEvent } from "../lib/diff/listener.ts";
import type { TableDiff } from "../lib/diff/types.ts";
import { type RowCriterion, type RowKind, rowView } from "./row_criteria.ts";
import type { RowFacts, RowFold } from "./row_facts.ts";

const KINDS: readonly RowKind[] = ["added", "removed", "changed"];

/**
 * True for a table whose rows are marked cut (`truncated`) while it holds as
 * many rows of each kind as it counts: a table derived from cut diffs (a
 * diff of diffs), whose kept rows and counts are both unproven. A diff's own
 * cut table always counts more rows than it kept.
 */
export function derivedFromCut(table: TableDiff): boolean {
  return table.truncated && KINDS.every((k) => table.rows[k].length >= table.counts[k]);
}

/** Facts that prove nothing: every row is unknown. */
function unknownFacts(table: TableDiff, kind: RowKind): RowFacts {
  return {
    total: table.counts[kind],
    seen: 0,
    candidates: 0,
    first: undefined,
    oneHits: [],
    allHits: [],
    nearestAll: undefined,
    nearestOne: undefined,
    nearestEach: [],
    hasColumns: true,
    unproven: true,
  };
}

/** The facts of every criterion about every table, for one evaluation. */
export class TableFacts {
  readonly #live: LiveFacts | null;
  readonly #explaining: boolean;
  readonly #kept = new WeakMap<TableDiff, Map<RowCriterion, RowFacts>>();

  /**
   * @param live facts gathered while the diff streamed, or null
   * @param explaining gather what an explanation needs too (nearest misses);
   *   false (matchesDiff) stops at the first row that settles the answer
   */
  constructor(live: LiveFacts | null = null, explaining = true) {
    this.#live = live;
    this.#explaining = explaining;
  }

  /**
   * The facts of `criterion` about `table`: the streamed ones when the diff
   * ran with this selector, else from the rows it kept.
   */
  of(criterion: RowCriterion, table: TableDiff): RowFacts {
    const live = this.#live?.get(criterion, table);
    if (live !== undefined) return live;
    let map = this.#kept.get(table);
    if (map === undefined) this.#kept.set(table, map = new Map());
    let facts = map.get(criterion);
    if (facts === undefined) {
      if (derivedFromCut(table)) facts = unknownFacts(table, criterion.kind);
      else {
        const fold = criterion.start(this.#explaining);
        for (const change of table.rows[criterion.kind]) {
          fold.add(rowView(criterion.kind, change));
          if (!this.#explaining && fold.settled()) break;
        }
        facts = fold.finish(table.counts[criterion.kind]);
      }
      map.set(criterion, facts);
    }
    return facts;
  }
}

/**
 * A `DiffListener` that gives every streamed row change to the row criteria
 * of a selector, so that they see every row, not only the kept ones. Pass it
 * to `streamSqliteDiff` (or as `listener` to `diffFilesystemDatabases`),
 * then evaluate the returned diff with it.
 */
export class LiveFacts implements DiffListener {
  readonly #criteria: readonly RowCriterion[];
  readonly #done = new WeakMap<TableDiff, Map<RowCriterion, RowFacts>>();
  #folds: { criterion: RowCriterion; fold: RowFold }[] = [];

  /** @param criteria every row criterion of the selector */
  constructor(criteria: readonly RowCriterion[]) {
    this.#criteria = criteria;
  }

  /** A table starts: a fresh pass per criterion. */
  table(): void {
    this.#folds = this.#criteria.map((criterion) => ({ criterion, fold: criterion.start() }));
  }

  /** Every row change, kept or not. */
  row(event: RowEvent): void {
    let view;
    for (const { criterion, fold } of this.#folds) {
      if (criterion.kind !== event.kind) continue;
      view ??= rowView(event.kind, event.change);
      fold.add(view);
    }
  }

  /** The table's diff: its facts are final. */
  tableDone(table: TableDiff): void {
    const map = new Map<RowCriterion, RowFacts>();
    for (const { criterion, fold } of this.#folds) {
      map.set(criterion, fold.finish(table.counts[criterion.kind]));
    }
    this.#done.set(table, map);
    this.#folds = [];
  }

  /** The streamed facts of `criterion` about `table`, if it streamed. */
  get(criterion: RowCriterion, table: TableDiff): RowFacts | undefined {
    return this.#done.get(table)?.get(criterion);
  }
}
