/**
 * One selector's scopes together: `databases`, `tables` and `rows`.
 *
 * The selector matches when some database of the diff
 * 1. passes `databases`,
 * 2. passes the database-level table criteria (`tables.added`, `removed`,
 *    `changed`, which look at the whole database), and
 * 3. when table-level criteria (`tables.name`, `status`, `columns`) or
 *    `rows` are given, has one table that meets all of them at once.
 *
 * With neither `tables` nor `rows`, the database must have changed in the
 * target planes: `{}` means "something changed", `{"target": "schema"}`
 * "the schema changed", `{"databases": {"name": "users"}}` "users changed".
 *
 * @module
 */
import type { DatabaseChange, DatabaseDiff, TableDiff } from "../lib/diff/types.ts";
import { compileDatabases } from "./databases.ts";
import { databaseChanged, type Planes, planesName, tableStatus } from "./planes.ts";
import { compileRowCriterion, type RowCriterion, type RowKind } from "./row_criteria.ts";
import { derivedFromCut, type TableFacts } from "./facts.ts";
import { every, some, type Truth } from "./_truth.ts";
import { compileTables } from "./tables.ts";
import type { Selector } from "./types.ts";
import { compileWhereObject, type Condition } from "./where.ts";

/** A compiled selector part. */
export interface Compiled {
  /** Whether it matches; null when the rows the diff kept cannot tell. */
  test(diff: DatabaseDiff, facts: TableFacts): Truth;
  /** Whether it matches, and lines for a person (the caller indents them). */
  explain(diff: DatabaseDiff, facts: TableFacts): { matched: Truth; lines: string[] };
  /** Every row criterion in it, for {@link LiveFacts} to give every streamed row. */
  readonly criteria: readonly RowCriterion[];
}

const ROW_KINDS: readonly RowKind[] = ["added", "removed", "changed"];
/** Most tables an explanation lists for one database. */
const MAX_TABLES_SHOWN = 8;

/**
 * Compiles the scopes of one selector (its `$and`/`$or`/`$not` are compiled
 * by selector/match.ts).
 *
 * @param selector the validated selector
 * @param planes its target planes
 * @returns the compiled scopes
 */
export function compileScopes(selector: Selector, planes: Planes): Compiled {
  const databases = selector.databases === undefined ? null : compileDatabases(selector.databases);
  const tables = selector.tables === undefined ? null : compileTables(selector.tables, planes);
  const tableFilter = tables?.table ?? null;
  const dbCriteria = tables?.database ?? null;
  const rows = selector.rows;
  const byKey: Condition | null = rows?.by_key === undefined
    ? null
    : compileWhereObject({ $key: rows.by_key });
  const given = ROW_KINDS.filter((k) => rows?.[k] !== undefined);
  const criteria: readonly RowCriterion[] = given.map((k) =>
    compileRowCriterion(k, rows![k]!, byKey)
  );
  // `rows: {}` or `rows: {by_key}` alone: any row change (of the key) will do.
  const anyKind = rows === undefined || criteria.length > 0
    ? []
    : ROW_KINDS.map((k) => compileRowCriterion(k, {}, byKey));
  const needsTable = tableFilter !== null || rows !== undefined;

  const rowsHold = (t: TableDiff, f: TableFacts): Truth =>
    rows === undefined
      ? true
      : criteria.length > 0
      ? every(criteria, (c) => c.decide(f.of(c, t)))
      : some(anyKind, (c) => c.decide(f.of(c, t)));
  // A table of a diff of cut diffs: whether its data changed is unproven, so
  // a criterion on its status holds for sure only if it holds either way.
  const filterHolds = (t: TableDiff): Truth => {
    if (tableFilter === null) return true;
    if (!derivedFromCut(t)) return tableFilter.test(t);
    const as = (data: "changed" | "unchanged"): TableDiff => ({
      ...t,
      data_status: data,
      status: t.schema_status !== "unchanged" ? t.schema_status : data,
    });
    const a = tableFilter.test(as("changed"));
    return a === tableFilter.test(as("unchanged")) ? a : null;
  };
  const tableHolds = (t: TableDiff, f: TableFacts): Truth => {
    const table = filterHolds(t);
    if (table === false) return false;
    const rowsToo = rowsHold(t, f);
    return rowsToo === false ? false : table === null || rowsToo === null ? null : true;
  };
  const databaseHolds = (db: DatabaseChange, f: TableFacts): Truth => {
    if (databases !== null && !databases.test(db)) return false;
    if (dbCriteria !== null && !dbCriteria.test(db)) return false;
    if (needsTable) return some(db.tables, (t) => tableHolds(t, f));
    if (tables !== null) return true;
    return databaseChanged(db, planes);
  };

  const rowsWitness = (t: TableDiff, f: TableFacts): string => {
    if (criteria.length > 0) {
      // A count ("2 removed rows") names its kind already.
      return criteria.map((c) => {
        const text = c.explain(f.of(c, t)).text;
        return text.includes(`${c.kind} row`) ? text : `${c.kind} ${text}`;
      }).join("; ");
    }
    const hit = anyKind.find((c) => c.decide(f.of(c, t)) === true);
    return hit === undefined ? "" : `${hit.kind} ${hit.explain(f.of(hit, t)).text}`;
  };
  const rowsReason = (t: TableDiff, f: TableFacts, unsure: boolean): string => {
    if (criteria.length > 0) {
      // The criterion that fails, or (cannot tell) the first that cannot tell.
      const failing = criteria.find((c) => c.decide(f.of(c, t)) === false) ??
        criteria.find((c) => c.decide(f.of(c, t)) === null)!;
      return failing.explain(f.of(failing, t)).text;
    }
    const what = byKey === null ? "no row changed" : `no row change has ${byKey.describe()}`;
    if (!unsure) return what;
    const cut = anyKind.filter((c) => {
      const x = f.of(c, t);
      return x.seen < x.total || x.unproven === true;
    });
    if (cut.some((c) => f.of(c, t).unproven === true)) {
      return `${what}: cannot tell, the rows come from diffs that did not keep every row`;
    }
    const kept = cut.map((c) => `${f.of(c, t).seen} of ${f.of(c, t).total} ${c.kind}`);
    return `none of the rows the diff kept has ${byKey!.describe()} (it kept ${
      kept.join(", ")
    } rows)`;
  };

  const explainDatabase = (db: DatabaseChange, f: TableFacts, unsure: boolean): string[] => {
    const reason = databases?.explain(db) ?? dbCriteria?.explain(db) ?? null;
    if (reason !== null) return [`${db.name}: ${reason}`];
    if (!needsTable) {
      const where = planes.data && planes.schema ? "" : ` in the ${planesName(planes)} plane`;
      return [`${db.name}: no change${where}`];
    }
    const candidates = db.tables.filter((t) => filterHolds(t) !== false);
    if (candidates.length === 0) {
      const list = db.tables.slice(0, MAX_TABLES_SHOWN)
        .map((t) => `${t.name} ${tableStatus(t, planes)}`).join(", ");
      const more = db.tables.length > MAX_TABLES_SHOWN ? ", ..." : "";
      return [
        `${db.name}: no table matches ${tableFilter!.describe()} (tables: ${
          list || "none"
        }${more})`,
      ];
    }
    if (unsure) {
      // Only the tables that cannot tell: those that fail do not decide it.
      const open = candidates.filter((t) => tableHolds(t, f) === null);
      const shown = open.slice(0, MAX_TABLES_SHOWN);
      const lines = shown.map((t) =>
        `${db.name} > ${t.name}: ${
          filterHolds(t) === null
            ? `cannot tell whether it meets ${
              tableFilter!.describe()
            }: it comes from diffs that did not keep every row`
            : rowsReason(t, f, true)
        }`
      );
      if (open.length > shown.length) {
        lines.push(`${db.name}: and ${open.length - shown.length} more tables`);
      }
      return lines;
    }
    const kinds = criteria.length > 0 ? criteria.map((c) => c.kind) : ROW_KINDS;
    const changed = candidates.filter((t) => kinds.some((k) => t.counts[k] > 0));
    // A near miss from a table without the columns the selector reads says
    // nothing: leave such tables out, or say that no table has the columns.
    const failing = (t: TableDiff) => criteria.find((c) => c.decide(f.of(c, t)) !== true);
    const busy = changed.filter((t) => {
      const c = failing(t);
      return c === undefined || f.of(c, t).hasColumns;
    });
    if (changed.length > 0 && busy.length === 0) {
      const columns = [...new Set(criteria.flatMap((c) => c.columns))];
      return [
        `${db.name}: no changed table has column${columns.length === 1 ? "" : "s"} ${
          columns.join(", ")
        } (changed: ${changed.slice(0, MAX_TABLES_SHOWN).map((t) => t.name).join(", ")})`,
      ];
    }
    const shown = busy.slice(0, MAX_TABLES_SHOWN);
    const lines = shown.map((t) => `${db.name} > ${t.name}: ${rowsReason(t, f, false)}`);
    if (busy.length > shown.length) {
      lines.push(`${db.name}: and ${busy.length - shown.length} more tables`);
    }
    if (busy.length === 0) {
      const what = kinds.length === ROW_KINDS.length ? "row changes" : `${kinds.join(" or ")} rows`;
      lines.push(`${db.name}: no table has ${what}`);
    }
    return lines;
  };

  return {
    criteria: [...criteria, ...anyKind],
    test: (diff, f) => some(diff.databases, (db) => databaseHolds(db, f)),
    explain: (diff, f) => {
      const hit = diff.databases.find((db) => databaseHolds(db, f) === true);
      if (hit !== undefined) {
        if (!needsTable) return { matched: true, lines: [hit.name] };
        const table = hit.tables.find((t) => tableHolds(t, f) === true)!;
        const rowsText = rows === undefined ? "" : ` > ${rowsWitness(table, f)}`;
        return { matched: true, lines: [`${hit.name} > ${table.name}${rowsText}`] };
      }
      if (diff.databases.length === 0) {
        return { matched: false, lines: ["the diff has no databases"] };
      }
      const open = diff.databases.filter((db) => databaseHolds(db, f) === null);
      if (open.length > 0) {
        return { matched: null, lines: open.flatMap((db) => explainDatabase(db, f, true)) };
      }
      return {
        matched: false,
        lines: diff.databases.flatMap((db) => explainDatabase(db, f, false)),
      };
    },
  };
}
