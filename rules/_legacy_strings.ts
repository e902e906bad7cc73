/**
 * SQLite's legacy double-quoted strings, as the SQL rules read them.
 *
 * SQLite (as the sqlite3 library and Python's sqlite3 build it, and as the
 * harness runs SQL unless `--strict-quotes`) reads `"Republic"` as a string
 * when no column of that name is in scope. The rules read the SQL without
 * the schema, so they decide by the place instead: a double-quoted name
 * compared with a column is a value, as in
 *
 *   WHERE GovernmentForm = "Republic"        -- a string
 *   WHERE Continent IN ("Asia", "Europe")    -- two strings
 *   WHERE Name LIKE "%a%"                    -- a string
 *   WHERE "Name" = "Paris"                   -- both names: left as SQLite would
 *                                            -- resolve them, by the schema
 *
 * Everywhere else a double-quoted name stays an identifier. With the
 * database known, the rules that name tables and columns ask SQLite itself
 * (`_sqlite_access.ts`), which applies its own rule exactly.
 *
 * @module
 */
import { asList, isNode, type Node } from "./_nsp_tree.ts";

const COMPARISONS = new Set([
  "=",
  "==",
  "!=",
  "<>",
  "<",
  ">",
  "<=",
  ">=",
  "LIKE",
  "NOT LIKE",
  "GLOB",
  "NOT GLOB",
  "IN",
  "NOT IN",
  "BETWEEN",
  "NOT BETWEEN",
  "IS",
  "IS NOT",
]);

function isQuoted(v: unknown): v is Node {
  return isNode(v) && v["type"] === "double_quote_string";
}

function isColumn(v: unknown): boolean {
  return isNode(v) && v["type"] === "column_ref";
}

/** Turns a double-quoted name (or each of a list's) into a string literal. */
function asString(v: unknown): void {
  if (isQuoted(v)) {
    (v as Record<string, unknown>)["type"] = "single_quote_string";
    return;
  }
  if (isNode(v) && v["type"] === "expr_list") {
    for (const item of asList(v["value"])) asString(item);
  }
}

/**
 * Rewrites, in place, each double-quoted name compared with a column into a
 * string literal (see the module comment).
 *
 * @param tree a statement's node-sql-parser tree
 */
export function markLegacyStrings(tree: unknown): void {
  const stack: unknown[] = [tree];
  let seen = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    // A bound on the walk, like the builder's depth limit: a tree this big
    // is refused there anyway.
    if (++seen > 1_000_000) return;
    if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
      continue;
    }
    if (!isNode(v)) continue;
    if (v["type"] === "binary_expr" && COMPARISONS.has(String(v["operator"]).toUpperCase())) {
      const left = v["left"];
      const right = v["right"];
      if (isColumn(left)) asString(right);
      else if (isColumn(right) && isQuoted(left)) asString(left);
    }
    for (const value of Object.values(v)) {
      if (typeof value === "object" && value !== null) stack.push(value);
    }
  }
}
