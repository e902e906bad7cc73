/**
 * The `tables` scope. Two kinds of criteria:
 * - table-level (`name`, `status`, `columns`): one table must meet all of
 *   them, and the `rows` scope then looks at that same table;
 * - database-level (`added`, `removed`, `changed`): each looks at the set of
 *   tables of the whole database with that status.
 *
 * Statuses are read in the target planes (selector/planes.ts).
 *
 * @module
 */
import type { DatabaseChange, TableDiff } from "../lib/diff/types.ts";
import { formatList } from "./_text.ts";
import { describeNames, nameList } from "./databases.ts";
import { type Planes, tableStatus } from "./planes.ts";
import type { SetMatch, TablesScope, TableStatus } from "./types.ts";

/** A compiled test of one table. */
export interface TableFilter {
  test(table: TableDiff): boolean;
  /** The criteria in words: `name "users" and added columns include "email"`. */
  describe(): string;
}

/** A compiled test of a whole database. */
export interface DatabaseCriteria {
  test(db: DatabaseChange): boolean;
  /** Why `db` fails, or null. */
  explain(db: DatabaseChange): string | null;
}

/** The compiled `tables` scope; either part is null when not given. */
export interface TablesFilter {
  readonly table: TableFilter | null;
  readonly database: DatabaseCriteria | null;
}

/** A compiled SetMatch: a test of a set of names, and its words. */
interface SetTest {
  test(names: ReadonlySet<string>): boolean;
  describe(): string;
}

function compileSet(match: SetMatch): SetTest {
  if (typeof match === "string") {
    return { test: (s) => s.has(match), describe: () => `include ${JSON.stringify(match)}` };
  }
  if ("has_all" in match) {
    const all = match.has_all;
    return {
      test: (s) => all.every((n) => s.has(n)),
      describe: () => `include all of ${formatList(all)}`,
    };
  }
  const any = typeof match.has_one === "string" ? [match.has_one] : match.has_one;
  return {
    test: (s) => any.some((n) => s.has(n)),
    describe: () => `include ${describeNames(any)}`,
  };
}

const COLUMN_KINDS = ["added", "changed", "removed"] as const;

/**
 * Compiles a `tables` scope for the given planes.
 *
 * @param scope the validated scope
 * @param planes the target planes
 * @returns the table and database criteria
 */
export function compileTables(scope: TablesScope, planes: Planes): TablesFilter {
  const tests: { test(t: TableDiff): boolean; words: string }[] = [];
  if (scope.name !== undefined) {
    const names = nameList(scope.name);
    tests.push({ test: (t) => names.includes(t.name), words: `name ${describeNames(names)}` });
  }
  if (scope.status !== undefined) {
    const s = scope.status;
    const statuses: readonly TableStatus[] = typeof s === "string"
      ? [s]
      : typeof s.has_one === "string"
      ? [s.has_one]
      : s.has_one;
    tests.push({
      test: (t) => statuses.includes(tableStatus(t, planes)),
      words: `status ${statuses.join(" or ")}`,
    });
  }
  for (const kind of COLUMN_KINDS) {
    const match = scope.columns?.[kind];
    if (match === undefined) continue;
    const set = compileSet(match);
    tests.push({
      test: (t) => set.test(new Set(t.columns[kind].map((c) => c.name))),
      words: `${kind} columns ${set.describe()}`,
    });
  }
  const table: TableFilter | null = tests.length === 0 && scope.columns === undefined ? null : {
    test: (t) => tests.every((x) => x.test(t)),
    describe: () => tests.length === 0 ? "any table" : tests.map((x) => x.words).join(" and "),
  };

  const dbTests: { test(db: DatabaseChange): boolean; explain(db: DatabaseChange): string }[] = [];
  for (const status of ["added", "removed", "changed"] as const) {
    const match = scope[status];
    if (match === undefined) continue;
    const set = compileSet(match);
    const names = (db: DatabaseChange) =>
      new Set(db.tables.filter((t) => tableStatus(t, planes) === status).map((t) => t.name));
    dbTests.push({
      test: (db) => set.test(names(db)),
      explain: (db) => {
        const have = [...names(db)];
        return `the ${status} tables do not ${set.describe()} (${status}: ${
          have.length === 0 ? "none" : have.join(", ")
        })`;
      },
    });
  }
  const database: DatabaseCriteria | null = dbTests.length === 0 ? null : {
    test: (db) => dbTests.every((x) => x.test(db)),
    explain: (db) => dbTests.find((x) => !x.test(db))?.explain(db) ?? null,
  };
  return { table, database };
}
