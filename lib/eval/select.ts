/**
 * Choosing the cases of a run: by id (globs), by tag, and the ones that did
 * not pass in a saved run. Every filter that selects nothing is a usage
 * error naming what it matched against, so a typo never passes as an
 * empty, green run.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { ERROR, FAIL } from "./check.ts";
import type { TestCase } from "./case.ts";
import type { RunFile } from "./run_file.ts";

/**
 * Whether a case id matches a glob: `*` any run of characters, `?` one
 * character, everything else literal.
 *
 * @param id the case id
 * @param pattern the glob, e.g. `orders-*`
 * @returns true when the whole id matches
 * @example
 * ```ts
 * import { idMatches } from "../../mod.ts";
 * idMatches("orders-by-month", "orders-*"); // true
 * idMatches("orders", "orders-*"); // false
 * ```
 */
export function idMatches(id: string, pattern: string): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*")
    .replaceAll("?", ".");
  return new RegExp(`^${source}$`, "s").test(id);
}

/**
 * What {@link selectCases} filters by; every filter given must hold.
 *
 * @example
 * ```ts
 * import type { CaseSelection } from "../../mod.ts";
 * const selection: CaseSelection = { ids: ["orders-*"], tags: ["easy"] };
 * selection.ids; // ["orders-*"]
 * ```
 */
export interface CaseSelection {
  /** Ids or globs (`--case`); a case matching any of them is kept. */
  readonly ids?: readonly string[] | undefined;
  /** Tags (`--tags`); a case with any of them is kept. */
  readonly tags?: readonly string[] | undefined;
  /** A saved run (`--rerun-failed`): only its cases that failed or errored are kept. */
  readonly rerunFailed?: RunFile | undefined;
}

/**
 * The cases a run takes, in file order.
 *
 * @param cases every case of the cases file (or each one's id and tags)
 * @param selection the filters
 * @returns the cases kept; empty only when `rerunFailed` has no failure
 * @throws {UsageError} when an id pattern or the tags select no case
 * @example
 * ```ts
 * import { defineCase, selectCases } from "../../mod.ts";
 * const cases = [defineCase({ id: "a-1", question: "A?" }), defineCase({ id: "b-1", question: "B?" })];
 * selectCases(cases, { ids: ["a-*"] }).map((c) => c.id); // ["a-1"]
 * ```
 */
export function selectCases<C extends Pick<TestCase, "id" | "tags">>(
  cases: readonly C[],
  selection: CaseSelection,
): C[] {
  let kept = [...cases];
  const ids = selection.ids;
  if (ids !== undefined && ids.length > 0) {
    for (const pattern of ids) {
      if (!cases.some((c) => idMatches(c.id, pattern))) {
        const sample = cases.slice(0, 5).map((c) => c.id).join(", ");
        throw new UsageError(
          `--case ${pattern}: no case has this id; ids look like ${sample}${
            cases.length > 5 ? ", ..." : ""
          } (* and ? are wildcards)`,
        );
      }
    }
    kept = kept.filter((c) => ids.some((p) => idMatches(c.id, p)));
  }
  const tags = selection.tags;
  if (tags !== undefined) {
    kept = kept.filter((c) => c.tags.some((t) => tags.includes(t)));
    if (kept.length === 0) {
      const known = [...new Set(cases.flatMap((c) => c.tags))].sort();
      throw new UsageError(
        `--tags ${tags.join(",")}: no ${
          ids === undefined ? "" : "chosen "
        }case has any of these tags; ` +
          (known.length === 0
            ? "the cases have no tags"
            : `the cases' tags are ${known.join(", ")}`),
      );
    }
  }
  const saved = selection.rerunFailed;
  if (saved !== undefined) {
    const failed = new Set(
      saved.cases.filter((c) => c.verdict === FAIL || c.verdict === ERROR).map((c) => c.id),
    );
    kept = kept.filter((c) => failed.has(c.id));
  }
  return kept;
}
