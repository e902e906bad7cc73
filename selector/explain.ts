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
import type { DiffListener } from "../lib/diff/listener.ts";
import { cannotTellText, compileSelector, parseSelector } from "./match.ts";
import { SelectorError } from "../lib/errors.ts";
import { LiveFacts, TableFacts } from "./facts.ts";
import type { Compiled } from "./scopes.ts";
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
  /**
   * True on a match, false on none, null when the answer depends on row
   * changes the diff counted but did not keep (neither can be proven).
   */
  readonly matched: boolean | null;
  /** Several lines: `match`, `no match` or `cannot tell: ...`, then the details, indented. */
  readonly text: string;
}

function explainWith(compiled: Compiled, diff: DatabaseDiff, facts: TableFacts): MatchExplanation {
  const { matched, lines } = compiled.explain(diff, facts);
  if (matched === null) return { matched, text: cannotTellText(lines) };
  return {
    matched,
    text: [matched ? "match" : "no match", ...lines.map((l) => `  ${l}`)].join("\n"),
  };
}

/**
 * Matches a diff against a selector and says why it matched or did not.
 *
 * @param diff a diff document
 * @param selector a selector, validated or not
 * @returns whether it matched (always the same as {@link matchesDiff}; null
 *   where matchesDiff throws CannotTellError) and the text
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
  return explainWith(compileSelector(selector), diff, new TableFacts());
}

/**
 * A selector asked while the diff runs: its `listener` gives every row
 * change to the selector's row criteria, so its answer reads every row, not
 * only the ones the diff keeps (`max_rows`), in bounded memory.
 *
 * @example
 * ```ts
 * import { streamSqliteDiff } from "../lib/diff/diff_sqlite.ts";
 * import { type SelectorWatch, watchSelector } from "./explain.ts";
 * const watch: SelectorWatch = watchSelector({ rows: { added: { where: { name: "dave" } } } });
 * // keep no rows at all: the selector still sees every one
 * const diff = await streamSqliteDiff(null, "examples/db_agent/users.db", { maxRows: 0 }, watch.listener);
 * watch.explain(diff).matched; // true
 * ```
 */
export interface SelectorWatch {
  /** Pass it to `streamSqliteDiff` (or `diffFilesystemDatabases`'s `listener`). */
  readonly listener: DiffListener;
  /** Explains the diff the listener watched, as {@link explainMatch} does. */
  explain(diff: DatabaseDiff): MatchExplanation;
}

/**
 * Compiles a selector to be asked while a diff runs.
 *
 * @param selector a selector, validated or not
 * @returns the listener to diff with, and the explanation of that diff
 * @throws {SelectorError} when the selector has a mistake
 * @example
 * ```ts
 * import { streamSqliteDiff } from "../lib/diff/diff_sqlite.ts";
 * import { watchSelector } from "./explain.ts";
 * const watch = watchSelector({ rows: { added: { $count: { $gte: 1 }, where: { role: "admin" } } } });
 * const diff = await streamSqliteDiff(null, "examples/db_agent/users.db", { maxRows: 1 }, watch.listener);
 * watch.explain(diff).text.split("\n")[0]; // "match"
 * ```
 */
export function watchSelector(selector: Selector | unknown): SelectorWatch {
  const compiled = compileSelector(selector);
  const live = new LiveFacts(compiled.criteria);
  return { listener: live, explain: (diff) => explainWith(compiled, diff, new TableFacts(live)) };
}

/** A selector's identity for {@link watchSelectors}: its validated form as text, bigints kept. */
function selectorKey(selector: Selector): string {
  return JSON.stringify(selector, (_k, v) => typeof v === "bigint" ? `${v}n` : v);
}

/**
 * Several selectors asked while one diff runs (the database checks of a
 * case), through one listener.
 *
 * @example
 * ```ts
 * import { streamSqliteDiff } from "../lib/diff/diff_sqlite.ts";
 * import { type SelectorsWatch, watchSelectors } from "./explain.ts";
 * const admin = { rows: { added: { where: { role: "admin" } } } };
 * const watch: SelectorsWatch = watchSelectors([admin]);
 * const diff = await streamSqliteDiff(null, "examples/db_agent/users.db", { maxRows: 0 }, watch.listener);
 * watch.explain(diff, admin)?.matched; // true
 * watch.explain(diff, { $not: admin }); // undefined: not watched
 * ```
 */
export interface SelectorsWatch {
  /** Pass it to the diff. */
  readonly listener: DiffListener;
  /** The explanation of a watched selector (validated or not), or undefined for one not watched. */
  explain(diff: DatabaseDiff, selector: unknown): MatchExplanation | undefined;
}

/**
 * Compiles selectors to be asked while one diff runs; a selector with a
 * mistake is left out (whoever asks it gets the SelectorError then).
 *
 * @param selectors the selectors, validated or not
 * @returns one listener for all, and each one's explanation
 * @example
 * ```ts
 * import { watchSelectors } from "./explain.ts";
 * const watch = watchSelectors([{ rows: { added: "role" } }, { rows: { chnaged: "x" } }]);
 * ```
 */
export function watchSelectors(selectors: readonly unknown[]): SelectorsWatch {
  const compiled = new Map<string, Compiled>();
  for (const selector of selectors) {
    try {
      compiled.set(selectorKey(parseSelector(selector)), compileSelector(selector));
    } catch (e) {
      if (!(e instanceof SelectorError)) throw e;
    }
  }
  const live = new LiveFacts([...compiled.values()].flatMap((c) => c.criteria));
  return {
    listener: live,
    explain: (diff, selector) => {
      const c = compiled.get(selectorKey(parseSelector(selector)));
      return c === undefined ? undefined : explainWith(c, diff, new TableFacts(live));
    },
  };
}
