/**
 * Allowed-name lists for AllowedTables and AllowedColumns: given, or taken
 * from another stage of the trace.
 *
 * @module
 */
import type { Trace } from "../lib/eval/trace.ts";

/**
 * Where the allowed names come from.
 *
 * @example
 * ```ts
 * import { AllowedTables } from "./allowed_tables.ts";
 * import type { NameSource } from "./allowed_names.ts";
 * import { Trace } from "../lib/eval/trace.ts";
 * // the tables the agent's retrieve stage picked
 * const fromRetrieve: NameSource = { fromStage: "retrieve" };
 * const trace = new Trace("Total sales?", [
 *   { kind: "retrieve", output: ["orders"] },
 *   { kind: "generate", output: "SELECT sum(amount) FROM orders JOIN customers USING (id)" },
 * ]);
 * const result = await new AllowedTables(fromRetrieve).run(trace);
 * result; // { ..., status: "FAIL", detail: "tables not allowed: ['customers']" }
 * ```
 */
export type NameSource = readonly string[] | { readonly fromStage: string };

/**
 * The allowed names, lower-cased, or the problem when the stage is missing.
 *
 * @param source a list, or `{ fromStage }`
 * @param trace the trace to read the stage from
 * @returns the names, or a problem
 */
export function allowedNames(
  source: NameSource,
  trace: Trace,
): { readonly names: ReadonlySet<string> } | { readonly problem: string } {
  if (Array.isArray(source)) return { names: lower(source) };
  const name = (source as { readonly fromStage: string }).fromStage;
  const stage = trace.stage(name);
  if (stage === undefined) return { problem: `stage missing from trace: "${name}"` };
  const output = stage.output;
  if (typeof output === "string") return { names: lower([output]) };
  if (Array.isArray(output)) return { names: lower(output.map(String)) };
  return { problem: `stage "${name}" gives no name or list of names` };
}

function lower(names: readonly string[]): ReadonlySet<string> {
  return new Set(names.map((n) => n.trim().toLowerCase()));
}
