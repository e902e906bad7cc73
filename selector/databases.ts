/**
 * The `databases` scope: which databases of the diff the rest of a selector
 * looks at, by `name`, `path`, `exists_before` and `exists_after`.
 *
 * A name matches the database's name in the diff (its path relative to the
 * compared folder, or its file name), that name's last part, or the last
 * part without its extension: `"users"` and `"users.db"` both select
 * `data/users.db`, as the documented examples write both. A path matches the
 * database's before or after path, compared after normalising `.` and `..`.
 *
 * @module
 */
import * as path from "node:path";
import type { DatabaseChange } from "../lib/diff/types.ts";
import { formatList } from "./_text.ts";
import type { DatabasesScope, NameMatch } from "./types.ts";

/** A compiled `databases` scope. */
export interface DatabaseFilter {
  test(db: DatabaseChange): boolean;
  /** Why `db` is not selected, or null when it is. */
  explain(db: DatabaseChange): string | null;
}

/** The names a NameMatch accepts. */
export function nameList(match: NameMatch): readonly string[] {
  if (typeof match === "string") return [match];
  return typeof match.has_one === "string" ? [match.has_one] : match.has_one;
}

/** `"x"` or `one of ["x","y"]`. */
export function describeNames(names: readonly string[]): string {
  return names.length === 1 ? JSON.stringify(names[0]) : `one of ${formatList(names)}`;
}

function databaseNames(db: DatabaseChange): string[] {
  const base = db.name.split(/[\\/]/).pop() ?? db.name;
  return [db.name, base, base.replace(/\.[^.]*$/, "")];
}

function databasePaths(db: DatabaseChange): string[] {
  return [db.path, db.before_path, db.after_path]
    .filter((p): p is string => p !== null)
    .map((p) => path.normalize(p));
}

/**
 * Compiles a `databases` scope.
 *
 * @param scope the validated scope
 * @returns the filter
 */
export function compileDatabases(scope: DatabasesScope): DatabaseFilter {
  const checks: ((db: DatabaseChange) => string | null)[] = [];
  if (scope.name !== undefined) {
    const wanted = nameList(scope.name);
    checks.push((db) => {
      const have = databaseNames(db);
      return wanted.some((n) => have.includes(n)) ? null : `name is not ${describeNames(wanted)}`;
    });
  }
  if (scope.path !== undefined) {
    const wanted = nameList(scope.path);
    checks.push((db) => {
      const have = databasePaths(db);
      return wanted.some((p) => have.includes(path.normalize(p)))
        ? null
        : `path is not ${describeNames(wanted)}`;
    });
  }
  if (scope.exists_before !== undefined) {
    const want = scope.exists_before;
    checks.push((db) =>
      db.exists_before === want ? null : want ? "did not exist before" : "existed before"
    );
  }
  if (scope.exists_after !== undefined) {
    const want = scope.exists_after;
    checks.push((db) =>
      db.exists_after === want ? null : want ? "does not exist after" : "still exists after"
    );
  }
  return {
    test: (db) => checks.every((c) => c(db) === null),
    explain: (db) => {
      for (const c of checks) {
        const reason = c(db);
        if (reason !== null) return reason;
      }
      return null;
    },
  };
}
