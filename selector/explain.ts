/**
 * {@link explainMatch}: whether a diff matches a selector, and why, for a
 * person. A match names what matched (database > table > row key, with the
 * values); no match says, for each database, what ruled its candidates out,
 * with the nearest miss among the rows:
 *
 * ```text
 * no match
 *   users.db > users: no changed row has role in ["admin","root"]; nearest: id=10: role "manager" -> "editor"
 * ```
 *
 * @module
 */
import type { DatabaseDiff } from "../lib/diff/types.ts";
import { compileSelector } from "./match.ts";
import type { Selector } from "./types.ts";

/**
 * The outcome of {@link explainMatch}.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { explainMatch, type MatchExplanation } from "./explain.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const why: MatchExplanation = explainMatch(diff, { tables: { name: "accounts" } });
 * why.matched; // false
 * why.text.split("\n")[0]; // "no match"
 * ```
 */
export interface MatchExplanation {
  readonly matched: boolean;
  /** Several lines: `match` or `no match`, then the details, indented. */
  readonly text: string;
}

/**
 * Matches a diff against a selector and says why it matched or did not.
 *
 * @param diff a diff document
 * @param selector a selector, validated or not
 * @returns whether it matched (always the same as {@link matchesDiff}) and the text
 * @throws {SelectorError} when the selector has a mistake
 * @example
 * ```ts
 * import { explainMatch } from "./mod.ts";
 * import type { DatabaseDiff } from "../lib/diff/types.ts";
 * const diff: DatabaseDiff = {
 *   version: 1,
 *   settings: { include_schema: true, include_data: true, max_rows: 1000, tables: null },
 *   databases: [],
 * };
 * explainMatch(diff, { tables: { name: "users" } }).text;
 * // "no match\n  the diff has no databases"
 * ```
 */
export function explainMatch(diff: DatabaseDiff, selector: Selector | unknown): MatchExplanation {
  const { matched, lines } = compileSelector(selector).explain(diff);
  return {
    matched,
    text: [matched ? "match" : "no match", ...lines.map((l) => `  ${l}`)].join("\n"),
  };
}
